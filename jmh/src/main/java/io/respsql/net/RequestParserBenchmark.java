package io.respsql.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.respsql.config.ServerConfig;
import io.respsql.KernelBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;


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
public class RequestParserBenchmark extends KernelBenchmark {
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
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < PIPELINE; i++) {
            String id = Integer.toString(i * 37);
            b.writeBytes(switch (request) {
                case "ping" -> RequestPathBenchmark.encode("PING");
                case "words" -> RequestPathBenchmark.encode("SELECT", "v", "FROM", "kv", "WHERE", "id", "=", id);
                case "statement" -> RequestPathBenchmark.encode("SQL", "UPDATE message_list SET count = count + 1 WHERE id = " + id);
                default -> throw new IllegalArgumentException(request);
            });
        }
        byte[] bytes = b.toByteArray();
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
}
