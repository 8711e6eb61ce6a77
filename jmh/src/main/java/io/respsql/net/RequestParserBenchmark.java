package io.respsql.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.respsql.config.ServerConfig;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Decode alone: {@link RequestParser} over one read holding 16 pipelined RESP requests, as
 * ClientConnection drives it (begin, next/reset per request, end), without the dispatcher. The
 * read is a retained duplicate of one pooled direct buffer (netty's recycled wrapper), so the figure
 * is the parse and the copy of each argument into its reused slot. Expected allocation: 0 B/op.
 *
 * <pre>
 * java -jar jmh/target/respsql-jmh.jar RequestParserBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled"})
public class RequestParserBenchmark {
    private static final int PIPELINE = 16;

    /**
     * ping: PING; words: SELECT v FROM kv WHERE id = N as 8 arguments (redis-cli without quotes);
     * statement: SQL and the UPDATE as one argument (a client library's quoted statement).
     */
    @Param({"ping", "words", "statement"})
    public String request;

    private ByteBuf source;
    private RequestParser parser;

    @Setup
    public void setUp() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < PIPELINE; i++) {
            String id = Integer.toString(i * 37);
            b.append(switch (request) {
                case "ping" -> encode("PING");
                case "words" -> encode("SELECT", "v", "FROM", "kv", "WHERE", "id", "=", id);
                case "statement" -> encode("SQL", "UPDATE message_list SET count = count + 1 WHERE id = " + id);
                default -> throw new IllegalArgumentException(request);
            });
        }
        byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
        source = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length);
        source.writeBytes(bytes);
        parser = new RequestParser(1024 * 1024, new ServerConfig());
        if ((decode16() & 0xff) != PIPELINE) {
            throw new IllegalStateException("not " + PIPELINE + " requests");
        }
    }

    @TearDown
    public void tearDown() {
        source.release();
    }

    /** One read of 16 requests parsed; the figure is per request. */
    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public int decode16() {
        parser.begin(source.retainedDuplicate(), PooledByteBufAllocator.DEFAULT); // released by end()
        int requests = 0;
        int bytes = 0;
        while (parser.next()) {
            requests++;
            bytes += parser.args().length(0);
            parser.reset();
        }
        parser.end();
        return requests + (bytes << 8);
    }

    private static String encode(String... args) {
        StringBuilder sb = new StringBuilder().append('*').append(args.length).append("\r\n");
        for (String a : args) {
            sb.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
        }
        return sb.toString();
    }
}
