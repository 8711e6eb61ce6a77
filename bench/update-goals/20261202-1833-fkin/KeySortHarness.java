import java.util.*;
public class KeySortHarness {
    static long[] bits = new long[64];
    static int bm(long[] ks, int n, long min, int span) {
        int words = (span + 63) >>> 6;
        for (int i = 0; i < n; i++) { int o = (int) (ks[i] - min); bits[o >>> 6] |= 1L << o; }
        int m = 0;
        for (int w = 0; w < words; w++) { long b = bits[w]; bits[w] = 0; while (b != 0) { ks[m++] = min + (w << 6) + Long.numberOfTrailingZeros(b); b &= b - 1; } }
        return m;
    }
    public static void main(String[] a) {
        Random r = new Random(1); long[] src = new long[1000]; for (int i = 0; i < 1000; i++) src[i] = 5000 + 1 + r.nextInt(1000);
        long[] ks = new long[1000]; long sink = 0;
        for (int round = 0; round < 5; round++) {
            long t0 = System.nanoTime();
            for (int rep = 0; rep < 20000; rep++) { System.arraycopy(src, 0, ks, 0, 1000); Arrays.sort(ks, 0, 1000); sink += ks[rep % 1000]; }
            long t1 = System.nanoTime();
            for (int rep = 0; rep < 20000; rep++) { System.arraycopy(src, 0, ks, 0, 1000); long mn = Long.MAX_VALUE, mx = Long.MIN_VALUE; for (int i = 0; i < 1000; i++) { mn = Math.min(mn, ks[i]); mx = Math.max(mx, ks[i]); } sink += bm(ks, 1000, mn, (int) (mx - mn) + 1); }
            long t2 = System.nanoTime();
            System.out.printf("sort %.2f us  bitmap %.2f us%n", (t1 - t0) / 20000.0 / 1e3, (t2 - t1) / 20000.0 / 1e3);
        }
        System.out.println(sink);
    }
}
