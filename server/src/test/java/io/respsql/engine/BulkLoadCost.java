package io.respsql.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;

import java.lang.management.ManagementFactory;

/**
 * Not a test: the streamed bulk INSERT's cost per row for the analytics load's three shapes
 * (customers: INT and three TEXT and BIGINT; orders: a TIMESTAMP and two TEXT among numbers;
 * order_items: six numbers), 1,000-row statements through {@link SqlEngine#execute} in process,
 * as thread CPU ns per row and heap bytes allocated per row (the latter exact: the shared VM's
 * load does not touch it). Uses only SqlEngine's public calls, so one build of this class runs
 * against an older server jar too: {@code java -cp <server-all.jar>:server/target/test-classes
 * io.respsql.engine.BulkLoadCost [rows] [rounds]} (bench/request-path/bulk-load-cost-*.txt).
 */
public final class BulkLoadCost {
    private static final int BATCH = 1000;
    private static final com.sun.management.ThreadMXBean MX = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 500_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String[] tables = {"customers", "orders", "order_items"};
        System.out.printf("%-12s %5s %12s %14s%n", "table", "round", "cpu ns/row", "alloc B/row");
        for (String t : tables) {
            String[] batches = batches(t, rows / BATCH);
            run(t, batches, true); // warm-up: the JIT's work is not measured
            run(t, batches, true);
            for (int r = 1; r <= rounds; r++) {
                long[] m = run(t, batches, false);
                System.out.printf("%-12s %5d %12.1f %14.1f%n", t, r, m[0] / (double) rows, m[1] / (double) rows);
            }
        }
    }

    private static String ddl(String t) {
        return switch (t) {
            case "customers" -> "CREATE TABLE customers (customer_id INT PRIMARY KEY, email TEXT, country TEXT, tier TEXT, ltv_cents BIGINT)";
            case "orders" -> "CREATE TABLE orders (order_id INT PRIMARY KEY, customer_id INT, order_ts TIMESTAMP, order_ym INT, status TEXT,"
                    + " channel TEXT, total_cents BIGINT)";
            default -> "CREATE TABLE order_items (order_item_id INT PRIMARY KEY, order_id INT, customer_id INT, product_id INT,"
                    + " quantity INT, line_total_cents BIGINT)";
        };
    }

    /** {@code n} statements of rows as gen-benchmark's analytics load writes them, keys 1, 2, ... */
    private static String[] batches(String t, int n) {
        String[] out = new String[n];
        java.util.Random r = new java.util.Random(4);
        String[] countries = {"US", "IN", "GB", "DE", "FR", "BR", "JP", "CA", "AU", "MX"};
        String[] tiers = {"bronze", "silver", "gold", "platinum"};
        String[] statuses = {"delivered", "shipped", "cancelled", "returned"};
        for (int b = 0; b < n; b++) {
            StringBuilder sb = new StringBuilder("INSERT INTO ").append(t).append(" VALUES ");
            for (int i = 0; i < BATCH; i++) {
                int id = b * BATCH + i + 1;
                sb.append(i == 0 ? "" : ",").append('(').append(id).append(',');
                switch (t) {
                    case "customers" -> sb.append("'user").append(id).append("@mail").append(id % 20).append(".example','")
                            .append(countries[r.nextInt(10)]).append("','").append(tiers[r.nextInt(4)]).append("',")
                            .append(r.nextInt(1_000_000)).append(')');
                    case "orders" -> sb.append(r.nextInt(500_000)).append(",'2024-")
                            .append(String.format("%02d-%02d %02d:%02d:%02d", 1 + r.nextInt(12), 1 + r.nextInt(28), r.nextInt(24),
                                    r.nextInt(60), r.nextInt(60)))
                            .append("',2024").append(1 + r.nextInt(9)).append(",'").append(statuses[r.nextInt(4)]).append("','web',")
                            .append(r.nextInt(1_000_000)).append(')');
                    default -> sb.append(r.nextInt(3_000_000)).append(',').append(r.nextInt(500_000)).append(',')
                            .append(r.nextInt(100_000)).append(',').append(1 + r.nextInt(5)).append(',').append(r.nextInt(100_000))
                            .append(')');
                }
            }
            out[b] = sb.toString();
        }
        return out;
    }

    /** {CPU ns, bytes allocated} to insert every batch into a fresh table (the streamed path). */
    private static long[] run(String t, String[] batches, boolean warmUp) {
        SqlEngine e = new SqlEngine(new Catalog());
        RespWriter w = new RespWriter();
        ByteBuf buf = Unpooled.buffer(1 << 12);
        EngineReplies.run(e, ddl(t), w.target(buf));
        long tid = Thread.currentThread().getId();
        long a0 = MX.getThreadAllocatedBytes(tid);
        long c0 = MX.getCurrentThreadCpuTime();
        for (String s : batches) {
            buf.clear();
            EngineReplies.run(e, s, w.target(buf));
            if (buf.getByte(0) != '+') {
                throw new IllegalStateException(buf.toString(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        long cpu = MX.getCurrentThreadCpuTime() - c0;
        long alloc = MX.getThreadAllocatedBytes(tid) - a0;
        if (!warmUp && e.bulkInsertsStreamed() != batches.length) {
            throw new IllegalStateException("streamed " + e.bulkInsertsStreamed() + " of " + batches.length);
        }
        return new long[] {cpu, alloc};
    }
}
