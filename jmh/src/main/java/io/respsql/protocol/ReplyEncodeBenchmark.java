package io.respsql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;
import io.respsql.KernelBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Reply encode: a result of 1,000 rows (INT id, BIGINT total, FLOAT price, TEXT name, one NULL in
 * ten names) pushed through a {@link ResultSink} into {@link RespWriter}, as an operator tree's
 * output does: {@link TypedRows} (the QUERY command's typed form) and {@link Rows2010} (the 2010
 * form, a row as one comma-joined bulk string), RESP2 and RESP3. The target is one pooled buffer
 * cleared per result (the chunk hand-over to the socket is not part of it). Time per row.
 * Expected allocation: 0 B/op.
 *
 * <pre>
 * java -jar jmh/target/respsql-jmh.jar ReplyEncodeBenchmark -prof gc
 * </pre>
 */
public class ReplyEncodeBenchmark extends KernelBenchmark {
    private static final int ROWS = 1000;

    /** typed2, typed3: TypedRows under RESP2 and RESP3; rows2010: the 2010 form. */
    @Param({"typed2", "typed3", "rows2010"})
    public String form;

    private final int[] ids = new int[ROWS];
    private final long[] totals = new long[ROWS];
    private final double[] prices = new double[ROWS];
    private final byte[][] names = new byte[ROWS][];
    private final RespWriter writer = new RespWriter();
    private final ResultColumns columns = ResultColumns.of(List.of("id", "total", "price", "name"),
            List.of("INT", "BIGINT", "FLOAT", "TEXT"));
    private ResultSink sink;
    private ByteBuf target;

    @Setup
    public void setUp() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < ROWS; i++) {
            ids[i] = i + 1;
            totals[i] = rnd.nextLong(10_000_000_000L);
            prices[i] = Math.round(rnd.nextDouble() * 100_000) / 100.0; // two decimals, as money
            names[i] = i % 10 == 3 ? null : ("customer-" + rnd.nextInt(1_000_000)).getBytes(StandardCharsets.UTF_8);
        }
        target = PooledByteBufAllocator.DEFAULT.directBuffer(128 * ROWS);
        writer.target(target).protocol(form.equals("typed3") ? 3 : 2);
        sink = form.equals("rows2010") ? new Rows2010().on(writer) : new TypedRows().on(writer);
        if (encode() < ROWS * 10) {
            throw new IllegalStateException("reply too short");
        }
    }

    @TearDown
    public void tearDown() {
        target.release();
    }

    /** One result of 1,000 rows; the figure is per row. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int encode() {
        target.clear();
        ResultSink s = sink;
        s.columns(columns, ROWS);
        for (int i = 0; i < ROWS; i++) {
            s.beginRow();
            s.longValue(ids[i]);
            s.longValue(totals[i]);
            s.doubleValue(prices[i]);
            byte[] n = names[i];
            if (n == null) {
                s.nullValue();
            } else {
                s.textValue(n, 0, n.length);
            }
            s.endRow();
        }
        s.end();
        return target.writerIndex();
    }
}
