import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.exec.SqlEngine;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;

import java.lang.management.ManagementFactory;

/**
 * In-JVM A/B of SELECT reply encoding: the same statements through SqlEngine.execute into a
 * RespWriter whose full 64 KiB chunks are discarded (as if sent), on one thread, as on the
 * event loop. Prints time and bytes allocated (ThreadMXBean, deterministic) per request and per
 * row. Mode "typed" runs the statements through the typed form (the QUERY command's sink), which
 * only the new build has. Run with: java -cp <server-all.jar>:. ReplyBench <mode> <label>
 */
public class ReplyBench {
    static final int ROWS = 100_000;

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "2010";
        String label = args.length > 1 ? args[1] : "?";
        SqlEngine engine = new SqlEngine(new Catalog());
        RespWriter w = new RespWriter();
        ByteBuf buf = Unpooled.directBuffer(256 * 1024);
        long[] bytesOut = new long[1];
        w.target(buf, x -> {
            bytesOut[0] += x.target().readableBytes();
            x.target().clear();
        });
        // TypedRunner is compiled against the new build only (the base has no typed form).
        java.util.function.BiConsumer<SqlEngine, String> typed = mode.equals("typed")
                ? (java.util.function.BiConsumer<SqlEngine, String>) Class.forName("TypedRunner")
                        .getConstructor(RespWriter.class).newInstance(w)
                : null;
        run(engine, w, buf, null, "CREATE TABLE t (id int primary key, v int, f float, name text)");
        for (int from = 0; from < ROWS; from += 1000) {
            StringBuilder sb = new StringBuilder("INSERT INTO t VALUES ");
            for (int i = from; i < from + 1000; i++) {
                sb.append(i == from ? "" : ",").append('(').append(i).append(',').append(i % 97).append(',')
                  .append(i * 0.25 + 0.1).append(",'name-").append(i).append("')");
            }
            run(engine, w, buf, null, sb.toString());
        }
        String[] points = new String[ROWS];
        for (int i = 0; i < ROWS; i++) {
            points[i] = "SELECT * FROM t WHERE id = " + ((i * 7919L) % ROWS);
        }
        String scan = "SELECT * FROM t";
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        for (int round = 0; round < 3; round++) {
            // point SELECT by primary key
            int n = 200_000;
            for (int i = 0; i < 50_000; i++) {
                run(engine, w, buf, typed, points[i % ROWS]); // warm-up
            }
            long a0 = mx.getThreadAllocatedBytes(tid);
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                run(engine, w, buf, typed, points[i % ROWS]);
            }
            long t1 = System.nanoTime();
            long a1 = mx.getThreadAllocatedBytes(tid);
            System.out.printf("%s mode=%s round=%d point   ns/req=%.0f bytes/req=%.1f%n", label, mode, round,
                    (t1 - t0) / (double) n, (a1 - a0) / (double) n);
            // 100k-row SELECT
            int m = 20;
            for (int i = 0; i < 5; i++) {
                run(engine, w, buf, typed, scan);
            }
            bytesOut[0] = 0;
            a0 = mx.getThreadAllocatedBytes(tid);
            t0 = System.nanoTime();
            for (int i = 0; i < m; i++) {
                run(engine, w, buf, typed, scan);
            }
            t1 = System.nanoTime();
            a1 = mx.getThreadAllocatedBytes(tid);
            System.out.printf("%s mode=%s round=%d scan100k ms/req=%.2f ns/row=%.1f bytes/req=%.0f bytes/row=%.2f reply_bytes=%d%n",
                    label, mode, round, (t1 - t0) / 1e6 / m, (t1 - t0) / (double) m / ROWS, (a1 - a0) / (double) m,
                    (a1 - a0) / (double) m / ROWS, bytesOut[0] / m);
        }
    }

    static void run(SqlEngine e, RespWriter w, ByteBuf buf, java.util.function.BiConsumer<SqlEngine, String> typed, String sql) {
        if (typed == null) {
            e.execute(sql, w);
        } else {
            typed.accept(e, sql);
        }
        if (buf.getByte(0) == '-' && w.chunks() == 0) {
            throw new IllegalStateException(buf.toString(java.nio.charset.StandardCharsets.UTF_8));
        }
        w.target().clear();
    }
}
