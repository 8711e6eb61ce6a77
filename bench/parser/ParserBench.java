import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Parse cost of two builds of io.respsql.sql, side by side in one JVM: each is loaded by its own
 * class loader from a directory of classes (-Dbase=DIR -Dnew=DIR), so rounds of the two alternate
 * under the same machine load. Per round and build, every statement below is parsed
 * PARSES / statements times; the time and the bytes the thread allocated are recorded per
 * statement. Before timing, both builds must produce the same syntax tree text for each statement.
 *
 * <p>Run by bench/parser/run.sh. Args: rounds (after one warm-up round) and parses per round.
 */
public final class ParserBench {
    /** The 2010 statements of ../shared/REFERENCE.md and the README, then gen-benchmark's. */
    static final String[] STATEMENTS = {
        // REFERENCE.md, as the server receives them (arguments joined by spaces)
        "CREATE TABLE message_list (id int primary key, fk int, count INT)",
        "CREATE INDEX message_list:fk:index ON message_list (fk)",
        "UPDATE message_list SET count=100 WHERE fk=000000000001",
        "SELECT id,name FROM employee WHERE division BETWEEN 22 AND 77 ORDER BY name DESC LIMIT 4",
        "CREATE TABLE t (id int primary key, division int, salary FLOAT, name TEXT)",
        "CREATE INDEX t:col:index ON t (col)",
        "DROP INDEX t:col:index",
        "DROP TABLE t",
        "DESC t",
        "DUMP t",
        "INSERT INTO t VALUES (1,66,1,15000.99,marieanne)",
        "INSERT INTO t VALUES (1,66,1,15000.99,marieanne) RETURN SIZE",
        "SELECT * FROM t WHERE id = 22",
        "SELECT name,salary FROM t WHERE id=2",
        "SELECT * FROM t WHERE id BETWEEN 4 AND 9 ORDER BY id DESC LIMIT 4 OFFSET 1",
        "SELECT * FROM t WHERE division = 22",
        "SELECT * FROM t WHERE id IN (1,2,3,4)",
        "SELECT * FROM t WHERE hobby IN (yachting,painting)",
        "SELECT COUNT(*) FROM t WHERE employee = 4",
        "SELECT division.name,worker.name FROM division,worker WHERE division.id = worker.division"
            + " AND division.id BETWEEN 11 AND 33 ORDER BY worker.salary DESC",
        "SCANSELECT id,name FROM t WHERE salary * 2 > 10 OR name = x",
        "UPDATE t SET salary=5.55,name=NEWNAME,division=66 WHERE id=1",
        "UPDATE t SET id=100 WHERE id=1",
        "UPDATE t SET name=x WHERE hobby BETWEEN v AND z",
        "UPDATE message_list SET count=count+1 WHERE fk=000000000001",
        "DELETE FROM t WHERE id = 3",
        "DELETE FROM t WHERE employee BETWEEN 4 AND 5",
        // README session
        "INSERT INTO employee VALUES (2,22,12000,'bob smith'),(3,33,9000.5,carl)",
        "UPDATE employee SET salary=salary+1000 WHERE division=22",
        "EXPLAIN SELECT * FROM employee WHERE division = 22",
        // gen-benchmark: the 2010 insert of large-update-test.sh (the update is the third above)
        "INSERT INTO message_list VALUES (000000000001,000000000001,4)",
        // gen-benchmark soak (SoakModel)
        "INSERT INTO soak VALUES (1234567,67,0)",
        "SELECT id,fk,v FROM soak WHERE id = 1234567",
        "DELETE FROM soak WHERE id = 1234567",
        "UPDATE soak SET v = v + 1 WHERE fk BETWEEN 1201 AND 1203",
        "SELECT COUNT(*) FROM soak WHERE fk = 1201",
        // gen-benchmark write benchmarks (Target, ReadsUnderWrites, Checks)
        "INSERT INTO t VALUES (1,1,1,'x1'),(2,2,2,'x2'),(3,3,3,'x3'),(4,4,4,'x4'),(5,5,5,'x5'),"
            + "(6,6,6,'x6'),(7,7,7,'x7'),(8,8,8,'x8'),(9,9,9,'x9'),(10,10,10,'x10')",
        "SELECT COUNT(*), SUM(v) FROM t WHERE id BETWEEN 1000 AND 2000",
        "UPDATE t SET v = v + 1 WHERE grp = 42",
        "SELECT id, grp, v, tag FROM t WHERE id = 4242",
    };

    static final MethodHandle BASE = load(System.getProperty("base"));
    static final MethodHandle NEW = load(System.getProperty("new"));
    static volatile Object sink;

    static MethodHandle load(String dir) {
        try {
            URL url = Path.of(dir).toUri().toURL();
            ClassLoader loader = new URLClassLoader(new URL[] {url}, ClassLoader.getPlatformClassLoader());
            Class<?> parser = Class.forName("io.respsql.sql.Parser", true, loader);
            Class<?> statement = Class.forName("io.respsql.sql.Statement", true, loader);
            return MethodHandles.publicLookup()
                    .findStatic(parser, "parse", MethodType.methodType(statement, String.class))
                    .asType(MethodType.methodType(Object.class, String.class));
        } catch (ReflectiveOperationException | java.net.MalformedURLException e) {
            throw new IllegalStateException("cannot load the parser from " + dir, e);
        }
    }

    // Two copies of one loop, each calling a constant handle, so each build is inlined alike.
    static void runBase(String sql, int n) throws Throwable {
        for (int i = 0; i < n; i++) {
            sink = (Object) BASE.invokeExact(sql);
        }
    }

    static void runNew(String sql, int n) throws Throwable {
        for (int i = 0; i < n; i++) {
            sink = (Object) NEW.invokeExact(sql);
        }
    }

    public static void main(String[] args) throws Throwable {
        int rounds = Integer.parseInt(args[0]);
        int parses = Integer.parseInt(args[1]);
        int k = STATEMENTS.length;
        int per = Math.max(1, parses / k);
        for (String sql : STATEMENTS) {
            String a = BASE.invoke(sql).toString();
            String b = NEW.invoke(sql).toString();
            if (!a.equals(b)) {
                throw new AssertionError("the builds parse differently: " + sql + "\n base: " + a + "\n new:  " + b);
            }
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        System.out.printf(Locale.ROOT, "# %d statements, %d parses of each per round and build (%d per round and build),"
                + " 1 warm-up round + %d rounds, base then new in odd rounds, new then base in even ones%n",
                k, per, per * k, rounds);
        System.out.printf(Locale.ROOT, "# java %s, %s, %d cpus%n", System.getProperty("java.version"),
                System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors());
        System.out.println("# both builds parse every statement to the same syntax tree: checked");
        // [build][round][statement]
        double[][][] ns = new double[2][rounds][k];
        double[][][] cpu = new double[2][rounds][k];
        double[][][] bytes = new double[2][rounds][k];
        for (int r = -1; r < rounds; r++) {
            for (int step = 0; step < 2; step++) {
                int build = (r & 1) == 0 ? step : 1 - step; // r = -1 (warm-up) runs new first
                long roundNs = 0;
                long roundCpu = 0;
                long roundBytes = 0;
                for (int s = 0; s < k; s++) {
                    long b0 = mx.getCurrentThreadAllocatedBytes();
                    long c0 = mx.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    if (build == 0) {
                        runBase(STATEMENTS[s], per);
                    } else {
                        runNew(STATEMENTS[s], per);
                    }
                    long t1 = System.nanoTime();
                    long c1 = mx.getCurrentThreadCpuTime();
                    long b1 = mx.getCurrentThreadAllocatedBytes();
                    roundNs += t1 - t0;
                    roundCpu += c1 - c0;
                    roundBytes += b1 - b0;
                    if (r >= 0) {
                        ns[build][r][s] = (double) (t1 - t0) / per;
                        cpu[build][r][s] = (double) (c1 - c0) / per;
                        bytes[build][r][s] = (double) (b1 - b0) / per;
                    }
                }
                System.out.printf(Locale.ROOT, "round %s %-4s %8.1f ns/statement (wall) %8.1f ns/statement (thread cpu)"
                        + " %8.1f bytes/statement%n", r < 0 ? "warm-up" : String.valueOf(r + 1), build == 0 ? "base" : "new",
                        (double) roundNs / (per * k), (double) roundCpu / (per * k), (double) roundBytes / (per * k));
            }
        }
        System.out.println();
        System.out.println("# per statement: median over rounds of thread-cpu ns and allocated bytes per parse;"
                + " ratio = new / base (below 1 is better)");
        System.out.printf(Locale.ROOT, "%9s %9s %6s %9s %9s %6s  %s%n",
                "base_ns", "new_ns", "ratio", "base_B", "new_B", "ratio", "statement");
        double[] sum = new double[4];
        for (int s = 0; s < k; s++) {
            double bn = median(cpu[0], s);
            double nn = median(cpu[1], s);
            double bb = median(bytes[0], s);
            double nb = median(bytes[1], s);
            sum[0] += bn;
            sum[1] += nn;
            sum[2] += bb;
            sum[3] += nb;
            String sql = STATEMENTS[s];
            System.out.printf(Locale.ROOT, "%9.1f %9.1f %6.2f %9.1f %9.1f %6.2f  %s%n", bn, nn, nn / bn, bb, nb, nb / bb,
                    sql.length() > 70 ? sql.substring(0, 67) + "..." : sql);
        }
        System.out.printf(Locale.ROOT, "%9.1f %9.1f %6.2f %9.1f %9.1f %6.2f  %s%n", sum[0] / k, sum[1] / k, sum[1] / sum[0],
                sum[2] / k, sum[3] / k, sum[3] / sum[2], "MEAN over the statements");
        System.out.println("# time ratio new/base per round, wall:       " + roundRatios(ns, rounds));
        System.out.println("# time ratio new/base per round, thread cpu: " + roundRatios(cpu, rounds));
    }

    static String roundRatios(double[][][] t, int rounds) {
        List<String> rr = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            rr.add(String.format(Locale.ROOT, "%.3f", Arrays.stream(t[1][r]).sum() / Arrays.stream(t[0][r]).sum()));
        }
        return String.join(" ", rr);
    }

    static double median(double[][] byRound, int s) {
        double[] v = new double[byRound.length];
        for (int r = 0; r < v.length; r++) {
            v[r] = byRound[r][s];
        }
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
