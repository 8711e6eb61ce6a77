package io.respsql.bench.write;

/**
 * Expected values computed from the seeding rule alone (id = 1..n, grp = id % 100, v = id), never
 * read from the database under test. Exact: every operation overflows loudly.
 */
final class Expected {

    private Expected() {
    }

    /** 1 + 2 + ... + n. */
    static long sum1ToN(long n) {
        return n % 2 == 0 ? Math.multiplyExact(n / 2, n + 1) : Math.multiplyExact(n, (n + 1) / 2);
    }

    /** How many ids in 1..n have id % mod == k. */
    static long countModEq(long n, long mod, long k) {
        if (k < 0 || k >= mod || n < 1) {
            return 0;
        }
        long first = k == 0 ? mod : k;
        return first > n ? 0 : (n - first) / mod + 1;
    }

    /** The largest id in 1..n with id % mod == k, or 0 when there is none. */
    static long lastModEq(long n, long mod, long k) {
        if (countModEq(n, mod, k) == 0) {
            return 0;
        }
        return n - Math.floorMod(n - k, mod);
    }

    /** Sum of the ids in 1..n with id % mod == k. */
    static long sumModEq(long n, long mod, long k) {
        long c = countModEq(n, mod, k);
        if (c == 0) {
            return 0;
        }
        long first = k == 0 ? mod : k;
        long last = first + (c - 1) * mod;
        // c terms of an arithmetic series: c * (first + last) / 2, halving whichever factor is even.
        return c % 2 == 0 ? Math.multiplyExact(c / 2, first + last)
                : Math.multiplyExact(c, (first + last) / 2);
    }

    /** Sum of ids from..to (inclusive). */
    static long sumRange(long from, long to) {
        return to < from ? 0 : Math.subtractExact(sum1ToN(to), sum1ToN(from - 1));
    }
}
