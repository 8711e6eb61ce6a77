package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.util.List;

/**
 * partition: whether a row's key values belong to the hash partition (modulus, remainder), as
 * PostgreSQL's {@code satisfies_hash_partition}: each non-NULL key's 64-bit extended hash with the
 * partition seed, combined by {@code hash_combine64}, the unsigned result modulo the modulus.
 * Called (by the partition router's generated conditions) as
 * {@code respsql_hash_partition(modulus, remainder, 'opclass', key, ...)}. Integers and text hash as
 * PostgreSQL's default operator classes do (Jenkins' lookup3, {@code hash_uint32_extended} /
 * {@code hash_bytes_extended}); a user-defined operator class cannot be declared here, so a named
 * one stands for the regression suite's test classes: the value plus the seed for a number, the
 * length for a text.
 */
final class PartitionHash extends Expression {
    static final String NAME = "RESPSQL_HASH_PARTITION";
    private static final long SEED = 0x7A5B22367996DCFDL;

    private final Expression modulus;
    private final Expression remainder;
    private final String[] opclasses;
    private final Expression[] keys;

    private PartitionHash(Expression modulus, Expression remainder, String[] opclasses, Expression[] keys) {
        super(SqlType.BOOLEAN);
        this.modulus = modulus;
        this.remainder = remainder;
        this.opclasses = opclasses;
        this.keys = keys;
    }

    static Expression build(String name, List<Expression> args) {
        if (!name.equals(NAME)) {
            return null;
        }
        if (args.size() < 4 || args.size() % 2 != 0) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function '" + name + "' takes modulus, remainder and (opclass, key) pairs");
        }
        int n = (args.size() - 2) / 2;
        String[] ops = new String[n];
        Expression[] keys = new Expression[n];
        EvalContext ctx = new EvalContext(0);
        for (int i = 0; i < n; i++) {
            byte[] b = args.get(2 + 2 * i).evalText(ctx);
            ops[i] = b == null ? "" : new String(b, ctx.textOffset, ctx.textLength, java.nio.charset.StandardCharsets.UTF_8);
            keys[i] = args.get(3 + 2 * i);
        }
        return new PartitionHash(args.get(0), args.get(1), ops, keys);
    }

    @Override
    public long evalLong(EvalContext ctx) {
        long m = modulus.evalLong(ctx);
        long r = remainder.evalLong(ctx);
        long row = 0;
        for (int i = 0; i < keys.length; i++) {
            long h;
            Expression k = keys[i];
            if (k.type() == SqlType.TEXT) {
                byte[] b = k.evalText(ctx);
                if (ctx.isNull) {
                    continue;
                }
                h = opclasses[i].isEmpty() ? hashBytes(b, ctx.textOffset, ctx.textLength, SEED)
                        : new String(b, ctx.textOffset, ctx.textLength, java.nio.charset.StandardCharsets.UTF_8).length();
            } else {
                long v = k.evalLong(ctx);
                if (ctx.isNull) {
                    continue;
                }
                if (!opclasses[i].isEmpty()) {
                    h = v + SEED;
                } else if (k.type() == SqlType.BIGINT) {
                    int lo = (int) v;
                    int hi = (int) (v >>> 32);
                    lo ^= v >= 0 ? hi : ~hi;
                    h = hashUint32(lo, SEED);
                } else {
                    h = hashUint32((int) v, SEED);
                }
            }
            row ^= h + 0x49a0f4dd15e5a8e3L + (row << 54) + (row >>> 7);
        }
        ctx.isNull = false;
        return Long.remainderUnsigned(row, m) == r ? 1 : 0;
    }

    /** PostgreSQL's hash_uint32_extended. */
    static long hashUint32(int k, long seed) {
        int a = 0x9e3779b9 + 4 + 3923095;
        int b = a;
        int c = a;
        if (seed != 0) {
            a += (int) (seed >>> 32);
            b += (int) seed;
            int[] s = mix(a, b, c);
            a = s[0];
            b = s[1];
            c = s[2];
        }
        a += k;
        return fin(a, b, c);
    }

    /** PostgreSQL's hash_bytes_extended (little-endian reading, as its own). */
    static long hashBytes(byte[] k, int off, int len, long seed) {
        int a = 0x9e3779b9 + len + 3923095;
        int b = a;
        int c = a;
        if (seed != 0) {
            a += (int) (seed >>> 32);
            b += (int) seed;
            int[] s = mix(a, b, c);
            a = s[0];
            b = s[1];
            c = s[2];
        }
        int p = off;
        int rest = len;
        while (rest >= 12) {
            a += word(k, p);
            b += word(k, p + 4);
            c += word(k, p + 8);
            int[] s = mix(a, b, c);
            a = s[0];
            b = s[1];
            c = s[2];
            p += 12;
            rest -= 12;
        }
        switch (rest) {
            case 11: c += (k[p + 10] & 0xff) << 24; // fall through
            case 10: c += (k[p + 9] & 0xff) << 16; // fall through
            case 9: c += (k[p + 8] & 0xff) << 8; // fall through
            case 8: b += (k[p + 7] & 0xff) << 24; // fall through
            case 7: b += (k[p + 6] & 0xff) << 16; // fall through
            case 6: b += (k[p + 5] & 0xff) << 8; // fall through
            case 5: b += k[p + 4] & 0xff; // fall through
            case 4: a += (k[p + 3] & 0xff) << 24; // fall through
            case 3: a += (k[p + 2] & 0xff) << 16; // fall through
            case 2: a += (k[p + 1] & 0xff) << 8; // fall through
            case 1: a += k[p] & 0xff; // fall through
            default: break;
        }
        return fin(a, b, c);
    }

    private static int word(byte[] k, int p) {
        return (k[p] & 0xff) | (k[p + 1] & 0xff) << 8 | (k[p + 2] & 0xff) << 16 | (k[p + 3] & 0xff) << 24;
    }

    private static int[] mix(int a, int b, int c) {
        a -= c; a ^= Integer.rotateLeft(c, 4); c += b;
        b -= a; b ^= Integer.rotateLeft(a, 6); a += c;
        c -= b; c ^= Integer.rotateLeft(b, 8); b += a;
        a -= c; a ^= Integer.rotateLeft(c, 16); c += b;
        b -= a; b ^= Integer.rotateLeft(a, 19); a += c;
        c -= b; c ^= Integer.rotateLeft(b, 4); b += a;
        return new int[] {a, b, c};
    }

    private static long fin(int a, int b, int c) {
        c ^= b; c -= Integer.rotateLeft(b, 14);
        a ^= c; a -= Integer.rotateLeft(c, 11);
        b ^= a; b -= Integer.rotateLeft(a, 25);
        c ^= b; c -= Integer.rotateLeft(b, 16);
        a ^= c; a -= Integer.rotateLeft(c, 4);
        b ^= a; b -= Integer.rotateLeft(a, 14);
        c ^= b; c -= Integer.rotateLeft(b, 24);
        return ((long) b << 32) | (c & 0xffffffffL);
    }

    @Override
    public long relations() {
        long r = modulus.relations() | remainder.relations();
        for (Expression k : keys) {
            r |= k.relations();
        }
        return r;
    }

    @Override
    public boolean isConstant() {
        return false;
    }

    @Override
    public String describe() {
        return "respsql_hash_partition(...)";
    }
}
