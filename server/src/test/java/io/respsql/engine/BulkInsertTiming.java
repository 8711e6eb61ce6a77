package io.respsql.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Not a test: in-process timing of 1,000-row INSERTs shaped as the analytics load's (order_items:
 * six numbers; orders: numbers, a TIMESTAMP and text) through {@link SqlEngine#execute}, read from
 * the text (plan cache on) and through the parser (cache off), alternated, in thread CPU time per
 * row (the shared VM's other load does not count). bench/request-path/README.md.
 * {@code java -cp ... io.respsql.engine.BulkInsertTiming [rows per round] [rounds]}.
 */
public final class BulkInsertTiming {
    private static final int BATCH = 1000;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String[] tables = {"order_items", "orders"};
        System.out.printf("%-12s %5s %14s %14s %8s%n", "table", "round", "parser ns/row", "stream ns/row", "ratio");
        for (String t : tables) {
            String[] batches = batches(t, rows / BATCH);
            // warm-up
            time(t, batches, rows / 5, true);
            time(t, batches, rows / 5, false);
            for (int r = 1; r <= rounds; r++) {
                long plain;
                long stream;
                if (r % 2 == 1) {
                    plain = time(t, batches, rows, false);
                    stream = time(t, batches, rows, true);
                } else {
                    stream = time(t, batches, rows, true);
                    plain = time(t, batches, rows, false);
                }
                System.out.printf("%-12s %5d %14.1f %14.1f %8.2f%n", t, r, plain / (double) rows, stream / (double) rows,
                        plain / (double) stream);
            }
        }
    }

    private static String ddl(String t) {
        return t.equals("orders")
                ? "CREATE TABLE orders (order_id INT PRIMARY KEY, customer_id INT, order_ts TIMESTAMP, order_ym INT, status TEXT, channel TEXT, total_cents BIGINT)"
                : "CREATE TABLE order_items (order_item_id INT PRIMARY KEY, order_id INT, customer_id INT, product_id INT, quantity INT, line_total_cents BIGINT)";
    }

    /** {@code n} batches of rows, keys 1, 2, ... (each run inserts into a fresh engine). */
    private static String[] batches(String t, int n) {
        String[] out = new String[n];
        java.util.Random r = new java.util.Random(4);
        String[] statuses = {"'delivered'", "'shipped'", "'cancelled'", "'returned'"};
        for (int b = 0; b < n; b++) {
            StringBuilder sb = new StringBuilder("INSERT INTO ").append(t).append(" VALUES ");
            for (int i = 0; i < BATCH; i++) {
                int id = b * BATCH + i + 1;
                sb.append(i == 0 ? "" : ",").append('(').append(id).append(',');
                if (t.equals("orders")) {
                    sb.append(r.nextInt(500_000)).append(",'2024-").append(String.format("%02d-%02d %02d:%02d:%02d", 1 + r.nextInt(12),
                            1 + r.nextInt(28), r.nextInt(24), r.nextInt(60), r.nextInt(60))).append("',2024").append(1 + r.nextInt(9))
                            .append(',').append(statuses[r.nextInt(4)]).append(",'web',").append(r.nextInt(1_000_000)).append(')');
                } else {
                    sb.append(r.nextInt(3_000_000)).append(',').append(r.nextInt(500_000)).append(',').append(r.nextInt(100_000))
                            .append(',').append(1 + r.nextInt(5)).append(',').append(r.nextInt(100_000)).append(')');
                }
            }
            out[b] = sb.toString();
        }
        return out;
    }

    /** CPU nanoseconds to insert {@code rows} rows into a fresh table (cache on: the text is streamed). */
    private static long time(String t, String[] batches, int rows, boolean stream) {
        SqlEngine e = new SqlEngine(new Catalog());
        if (!stream) {
            e.planCacheLimits(0, 0);
        }
        RespWriter w = new RespWriter();
        ByteBuf buf = Unpooled.buffer(1 << 12);
        EngineReplies.run(e, ddl(t), w.target(buf));
        int n = rows / BATCH;
        String[] texts = java.util.Arrays.copyOf(batches, n);
        long t0 = CPU.getCurrentThreadCpuTime();
        for (String s : texts) {
            buf.clear();
            EngineReplies.run(e, s, w.target(buf));
            if (buf.getByte(0) != '+') {
                throw new IllegalStateException(buf.toString(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        long cpu = CPU.getCurrentThreadCpuTime() - t0;
        if (stream && e.bulkInsertsStreamed() != n) {
            throw new IllegalStateException("streamed " + e.bulkInsertsStreamed() + " of " + n);
        }
        return cpu;
    }
}
