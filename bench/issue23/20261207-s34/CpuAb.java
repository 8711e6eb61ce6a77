import io.respsql.engine.SqlEngine;
import io.respsql.storage.Catalog;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time (this thread's, not wall time: the machine is shared) of write statements run through
 * SqlEngine.execute in one JVM, no server, no sockets. Run with one build's jar on the class path;
 * prints one line per workload: name, calls, CPU microseconds per call (median of 5 batches).
 * Arguments: ROWS (200000), and a text that picks the workloads whose names contain it (all).
 */
public class CpuAb {
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    interface Work { void run(int i); }

    static String only = "";

    static void measure(String name, int calls, Work w) {
        if (!name.contains(only)) {
            return;
        }
        for (int i = 0; i < calls; i++) w.run(i); // warm up
        long[] per = new long[5];
        for (int b = 0; b < per.length; b++) {
            long t0 = MX.getCurrentThreadCpuTime();
            for (int i = 0; i < calls; i++) w.run(i);
            per[b] = (MX.getCurrentThreadCpuTime() - t0) / calls;
        }
        java.util.Arrays.sort(per);
        System.out.printf("%s\t%d\t%.2f%n", name, calls, per[2] / 1000.0);
    }

    static void ok(Object o) {
        String s = String.valueOf(o);
        if (s.startsWith("ERR") || s.contains("error")) throw new IllegalStateException(s);
    }

    public static void main(String[] a) {
        int rows = Integer.parseInt(a.length > 0 ? a[0] : "200000");
        only = a.length > 1 ? a[1] : ""; // only the workloads whose name contains this
        SqlEngine e = new SqlEngine(new Catalog());
        ok(e.execute("CREATE TABLE message_list (id INT PRIMARY KEY, fk INT, count INT)"));
        ok(e.execute("CREATE INDEX message_list:fk:index ON message_list (fk)"));
        ok(e.execute("CREATE TABLE big (id INT PRIMARY KEY, v INT, b BIGINT, f FLOAT, s TEXT)"));
        ok(e.execute("CREATE TABLE copy (id INT PRIMARY KEY, v BIGINT)"));
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= rows; i++) {
            if (sb.length() == 0) sb.append("INSERT INTO message_list VALUES ");
            else sb.append(',');
            sb.append('(').append(i).append(',').append(i % 100).append(",4)");
            if (i % 1000 == 0) { ok(e.execute(sb.toString())); sb.setLength(0); }
        }
        for (int i = 1; i <= rows; i++) {
            if (sb.length() == 0) sb.append("INSERT INTO big VALUES ");
            else sb.append(',');
            sb.append('(').append(i).append(',').append(i % 1000).append(',').append(i).append(',').append(i).append(".5,'x')");
            if (i % 1000 == 0) { ok(e.execute(sb.toString())); sb.setLength(0); }
        }
        measure("fk-range SET count = k WHERE fk = k (" + rows / 100 + " rows)", 200, i -> ok(e.execute("UPDATE message_list SET count = " + (i % 97) + " WHERE fk = " + (i % 100))));
        measure("fk-range SET count = count + 1 WHERE fk = k", 200, i -> ok(e.execute("UPDATE message_list SET count = count + 1 WHERE fk = " + (i % 100))));
        measure("point UPDATE big SET v = k WHERE id = k", 20000, i -> ok(e.execute("UPDATE big SET v = " + (i % 1000) + " WHERE id = " + (1 + i % rows))));
        measure("point UPDATE big SET s = 'k' WHERE id = k", 20000, i -> ok(e.execute("UPDATE big SET s = '" + (i % 1000) + "' WHERE id = " + (1 + i % rows))));
        measure("range UPDATE big SET v = v * 1 + 1 WHERE id BETWEEN (1000 rows, general path)", 500, i -> ok(e.execute("UPDATE big SET v = v * 1 + 1 WHERE id BETWEEN " + (1 + i % 1000) * 100 + " AND " + ((1 + i % 1000) * 100 + 999))));
        measure("range UPDATE big SET b = b + 1, f = f * 2 WHERE id BETWEEN (1000 rows)", 500, i -> ok(e.execute("UPDATE big SET b = b + 1, f = f * 2 WHERE id BETWEEN " + (1 + i % 1000) * 100 + " AND " + ((1 + i % 1000) * 100 + 999))));
        measure("full UPDATE big SET v = v + 7 + 0 (general path)", 5, i -> ok(e.execute("UPDATE big SET v = v + 7 + 0")));
        measure("INSERT INTO copy SELECT id, b FROM big WHERE id BETWEEN (1000 rows) + DELETE", 200, i -> {
            ok(e.execute("INSERT INTO copy SELECT id, b FROM big WHERE id BETWEEN " + (1 + i % 100) * 1000 + " AND " + ((1 + i % 100) * 1000 + 999)));
            ok(e.execute("DELETE FROM copy"));
        });
        measure("uncached UPDATE (new text each call)", 2000, i -> ok(e.execute("UPDATE message_list SET count = 7 WHERE fk = 1 /* " + i + " */")));
    }
}
