public class K {
    static int[] a = new int[10_000_000];
    static int[] tmp = new int[4096];
    static int old(int[] rows, int n, int d, int lo, int hi) {
        for (int i = 0; i < n; i++) { int o = rows[i]; int x = a[o]; if (x < lo || x > hi) return o; a[o] = x + d; } return -1; }
    static int bl(int[] rows, int n, int d, int lo, int hi) {
        int mn = Integer.MAX_VALUE, mx = Integer.MIN_VALUE;
        for (int i = 0; i < n; i++) { int o = rows[i]; int x = a[o]; mn = Math.min(mn, x); mx = Math.max(mx, x); a[o] = x + d; }
        return mn >= lo && mx <= hi ? -1 : 0; }
    static int two(int[] rows, int n, int d, int lo, int hi, int B) {
        int mn = Integer.MAX_VALUE, mx = Integer.MIN_VALUE;
        for (int f = 0; f < n; f += B) { int e = Math.min(n, f + B);
            for (int i = f; i < e; i++) { int x = a[rows[i]]; tmp[i] = x; mn = Math.min(mn, x); mx = Math.max(mx, x); }
            for (int i = f; i < e; i++) { a[rows[i]] = tmp[i] + d; } }
        return mn >= lo && mx <= hi ? -1 : 0; }
    static int sink;
    static int ahead(int[] rows, int n, int d, int lo, int hi, int D) {
        int mn = Integer.MAX_VALUE, mx = Integer.MIN_VALUE, t = 0;
        int i = 0;
        for (; i < n - D; i++) { t += a[rows[i + D]]; int o = rows[i]; int x = a[o]; mn = Math.min(mn, x); mx = Math.max(mx, x); a[o] = x + d; }
        for (; i < n; i++) { int o = rows[i]; int x = a[o]; mn = Math.min(mn, x); mx = Math.max(mx, x); a[o] = x + d; }
        sink += t;
        return mn >= lo && mx <= hi ? -1 : 0; }
    static void set(int[] rows, int n, int v) { for (int i = 0; i < n; i++) a[rows[i]] = v; }
    public static void main(String[] args) {
        int[] batch = new int[100_000];
        int[] rows = new int[4096];
        String[] names = {"old", "branchless", "ahead-8", "ahead-32", "ahead-128", "set"};
        long[][] t = new long[names.length][300];
        for (int it = 0; it < 300; it++) {
            for (int v = 0; v < names.length; v++) {
                int k = (it * 7 + v * 13) % 100;
                long t0 = System.nanoTime();
                for (int f = 0; f < 100_000; f += 4096) { int m = Math.min(4096, 100_000 - f);
                    for (int i = 0; i < m; i++) rows[i] = k + 100 * (f + i);
                    switch (v) { case 0 -> old(rows, m, 1, -2000000000, 2000000000); case 1 -> bl(rows, m, 1, -2000000000, 2000000000);
                        case 2 -> ahead(rows, m, 1, -2000000000, 2000000000, 8); case 3 -> ahead(rows, m, 1, -2000000000, 2000000000, 32);
                        case 4 -> ahead(rows, m, 1, -2000000000, 2000000000, 128); default -> set(rows, m, it); } }
                t[v][it] = System.nanoTime() - t0;
            }
        }
        for (int v = 0; v < names.length; v++) { long[] x = java.util.Arrays.copyOfRange(t[v], 100, 300); java.util.Arrays.sort(x);
            System.out.printf("%-11s p50 %.3f ms p10 %.3f%n", names[v], x[100] / 1e6, x[20] / 1e6); }
    }
}
