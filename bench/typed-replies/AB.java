import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.function.BiFunction;

/**
 * A/B of SELECT reply encoding in one JVM: build A (before) and build B (after) each in a class
 * loader of its own, plus B's typed form, run in short alternating bursts so that the load of a
 * shared machine falls on all three alike. Prints one line per burst (raw figures) and, per kind,
 * the median over rounds of the per-round ratios A/B of thread CPU time (above 1: B faster).
 * usage: java -cp <bench classes> AB A-all.jar B-all.jar <bench classes dir> [rounds]
 */
public class AB {
    public static void main(String[] args) throws Exception {
        File classes = new File(args[2]);
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 7;
        String[] labels = {"A-2010", "B-2010", "B-typed"};
        String[] jars = {args[0], args[1], args[1]};
        String[] modes = {"2010", "2010", "typed"};
        @SuppressWarnings("unchecked")
        BiFunction<String, Integer, long[]>[] w = new BiFunction[3];
        for (int i = 0; i < 3; i++) {
            URLClassLoader cl = new URLClassLoader(new URL[] {new File(jars[i]).toURI().toURL(), classes.toURI().toURL()},
                    ClassLoader.getPlatformClassLoader());
            @SuppressWarnings("unchecked")
            BiFunction<String, Integer, long[]> f = (BiFunction<String, Integer, long[]>) cl.loadClass("Workload")
                    .getConstructor(String.class).newInstance(modes[i]);
            w[i] = f;
        }
        String[] kinds = {"point", "scan100k"};
        int[] counts = {100_000, 10};
        for (int warm = 0; warm < 3; warm++) {
            for (int i = 0; i < 3; i++) {
                w[i].apply("point", 100_000);
                w[i].apply("scan", 10);
            }
        }
        double[][][] cpu = new double[2][3][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                for (int j = 0; j < 3; j++) {
                    int i = (j + r) % 3; // rotate who goes first
                    long[] m = w[i].apply(k == 0 ? "point" : "scan", counts[k]);
                    int n = counts[k];
                    long rows = k == 0 ? n : (long) n * Workload.ROWS;
                    cpu[k][i][r] = m[1] / (double) n;
                    System.out.printf("round=%d %-8s %-7s wall_ns/req=%.0f cpu_ns/req=%.0f alloc_bytes/req=%.1f alloc_bytes/row=%.3f reply_bytes/req=%d%n",
                            r, kinds[k], labels[i], m[0] / (double) n, m[1] / (double) n, m[2] / (double) n,
                            m[2] / (double) rows, m[3] / n);
                }
            }
        }
        for (int k = 0; k < 2; k++) {
            for (int i = 1; i < 3; i++) {
                double[] ratio = new double[rounds];
                StringBuilder sb = new StringBuilder();
                for (int r = 0; r < rounds; r++) {
                    ratio[r] = cpu[k][0][r] / cpu[k][i][r];
                    sb.append(String.format("%.3f ", ratio[r]));
                }
                java.util.Arrays.sort(ratio);
                System.out.printf("%s A-2010/%s cpu ratio per round: %s median %.3f%n", kinds[k], labels[i], sb, ratio[rounds / 2]);
            }
        }
    }
}
