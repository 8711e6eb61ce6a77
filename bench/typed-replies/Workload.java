import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.SqlEngine;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;

import java.lang.management.ManagementFactory;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * One build's side of the A/B, loaded by AB in a class loader of its own (so A and B run in one
 * JVM, alternating, and load on the machine hits both alike). Statements run through
 * SqlEngine.execute into a RespWriter whose full 64 KiB chunks are dropped as if sent, on the
 * calling thread, as on the event loop. {@code apply(kind, n)} runs n statements of a kind and
 * returns {wall ns, thread CPU ns, bytes allocated by the thread, reply bytes}.
 */
public class Workload implements BiFunction<String, Integer, long[]> {
    static final int ROWS = 100_000;
    private final SqlEngine engine = new SqlEngine(new Catalog());
    private final RespWriter w = new RespWriter();
    private final ByteBuf buf = Unpooled.directBuffer(256 * 1024);
    private final long[] sent = new long[1];
    private final BiConsumer<SqlEngine, String> typed;
    private final String[] points = new String[ROWS];
    private int next;

    @SuppressWarnings("unchecked")
    public Workload(String mode) throws Exception {
        w.target(buf, x -> {
            sent[0] += x.target().readableBytes();
            x.target().clear();
        });
        // TypedRunner exists only for the new build: it is the QUERY command's sink.
        typed = mode.equals("typed") ? (BiConsumer<SqlEngine, String>) Class.forName("TypedRunner", true,
                getClass().getClassLoader()).getConstructor(RespWriter.class).newInstance(w) : null;
        exec("CREATE TABLE t (id int primary key, v int, f float, name text)", true);
        for (int from = 0; from < ROWS; from += 1000) {
            StringBuilder sb = new StringBuilder("INSERT INTO t VALUES ");
            for (int i = from; i < from + 1000; i++) {
                sb.append(i == from ? "" : ",").append('(').append(i).append(',').append(i % 97).append(',')
                  .append(i * 0.25 + 0.1).append(",'name-").append(i).append("')");
            }
            exec(sb.toString(), true);
        }
        for (int i = 0; i < ROWS; i++) {
            points[i] = "SELECT * FROM t WHERE id = " + ((i * 7919L) % ROWS);
        }
    }

    private void exec(String sql, boolean plain) {
        if (plain || typed == null) {
            engine.execute(sql, w);
        } else {
            typed.accept(engine, sql);
        }
        if (w.chunks() == 0 && buf.getByte(0) == '-') {
            throw new IllegalStateException(buf.toString(java.nio.charset.StandardCharsets.UTF_8));
        }
        sent[0] += buf.readableBytes();
        buf.clear();
    }

    @Override
    public long[] apply(String kind, Integer n) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        sent[0] = 0;
        long a0 = mx.getThreadAllocatedBytes(tid);
        long c0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            exec(kind.equals("point") ? points[next++ % ROWS] : "SELECT * FROM t", false);
        }
        long t1 = System.nanoTime();
        long c1 = mx.getCurrentThreadCpuTime();
        long a1 = mx.getThreadAllocatedBytes(tid);
        return new long[] {t1 - t0, c1 - c0, a1 - a0, sent[0]};
    }
}
