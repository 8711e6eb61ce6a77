package io.respsql.exec.write;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.SqlEngine;
import io.respsql.exec.Headroom;
import io.respsql.protocol.RespWriter;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import io.respsql.KernelBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.util.concurrent.TimeUnit;

/**
 * UPDATE apply: a planned UPDATE run by {@link UpdateOperator#run} on message_list
 * (id int primary key, fk int indexed, count int), 1M rows (n, n % 100, 4) inserted in order, outside
 * a block (no undo log), as a cached plan runs. The plan is made once; each call finds the rows
 * through the index (or the scan) and writes them in place. Shapes:
 * <ul>
 *   <li>fkConst: {@code SET count = 5 WHERE fk = 7}, 10,000 strided rows, the constant write;</li>
 *   <li>fkIncr: {@code SET count = count + 1 WHERE fk = 7}, the increment over a row list
 *       (IntKernel.addWithin row by row: one cache miss per row);</li>
 *   <li>pkRangeIncr: {@code SET count = count + 1 WHERE id BETWEEN 1000 AND 100999}, the
 *       increment over an index range, 100,000 consecutive slots (the stretch kernel);</li>
 *   <li>allIncr: {@code SET count = count + 1}, the whole-table increment (firstOutside and
 *       addToLive over the live bitmap).</li>
 * </ul>
 * Time per statement. Expected allocation: a few bytes per statement, none per row.
 *
 * <pre>
 * java -jar jmh/target/respsql-jmh.jar UpdateApplyBenchmark -prof gc
 * </pre>
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class UpdateApplyBenchmark extends KernelBenchmark {
    static final int ROWS = 1_000_000;

    @Param({"fkConst", "fkIncr", "pkRangeIncr", "allIncr"})
    public String shape;

    private Catalog catalog;
    private UpdateOperator plan;
    private final IntArrayList buffer = new IntArrayList();
    private final Headroom headroom = new Headroom();
    private final RespWriter out = new RespWriter();
    private final ByteBuf reply = Unpooled.buffer(64);
    private long expected;

    @Setup
    public void setUp() {
        catalog = new Catalog();
        SqlEngine sql = new SqlEngine(catalog);
        out.target(reply);
        run(sql, "CREATE TABLE message_list (id int primary key, fk int, count int)");
        run(sql, "CREATE INDEX message_list_fk ON message_list (fk)");
        StringBuilder b = new StringBuilder();
        for (int n = 1; n <= ROWS; n++) {
            b.append(b.length() == 0 ? "INSERT INTO message_list VALUES " : ", ")
                    .append('(').append(n).append(", ").append(n % 100).append(", 4)");
            if (n % 10_000 == 0) {
                run(sql, b.toString());
                b.setLength(0);
            }
        }
        String text = switch (shape) {
            case "fkConst" -> "UPDATE message_list SET count = 5 WHERE fk = 7";
            case "fkIncr" -> "UPDATE message_list SET count = count + 1 WHERE fk = 7";
            case "pkRangeIncr" -> "UPDATE message_list SET count = count + 1 WHERE id BETWEEN 1000 AND 100999";
            case "allIncr" -> "UPDATE message_list SET count = count + 1";
            default -> throw new IllegalArgumentException(shape);
        };
        expected = switch (shape) {
            case "fkConst", "fkIncr" -> ROWS / 100;
            case "pkRangeIncr" -> 100_000;
            default -> ROWS;
        };
        plan = io.respsql.plan.WritePlanner.planUpdate(catalog, (Statement.Update) SqlParser.parse(text), text);
        if (update() != expected) {
            throw new IllegalStateException(text + " did not change " + expected + " rows");
        }
    }

    private void run(SqlEngine sql, String text) {
        reply.clear();
        sql.execute(text, out);
        if (reply.getByte(0) == '-') {
            throw new IllegalStateException(text + ": " + reply.toString(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    /** One statement: find the rows, write them. */
    @Benchmark
    public long update() {
        reply.clear();
        return plan.run(catalog, buffer, headroom, null, null, null);
    }
}
