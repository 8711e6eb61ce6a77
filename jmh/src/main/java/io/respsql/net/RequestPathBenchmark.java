package io.respsql.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.respsql.client.ClientRegistry;
import io.respsql.command.CommandDispatcher;
import io.respsql.command.Commands;
import io.respsql.command.ServerContext;
import io.respsql.config.ServerConfig;
import io.respsql.engine.SqlEngine;
import io.respsql.info.InfoReport;
import io.respsql.info.ServerStats;
import io.respsql.persist.Persistence;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;
import io.respsql.KernelBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.charset.StandardCharsets;

/**
 * The request path without the socket: one read's bytes go into the client pipeline (RequestParser,
 * CommandDispatcher with its statistics, the command, RespWriter) and the reply comes out of it, on
 * netty's EmbeddedChannel with the server's pooled allocator and its real command table. The
 * EmbeddedChannel's own queues are part of the figure; the system calls of a real connection are not.
 *
 * <pre>
 * mvn -B -q -Pjmh -pl jmh -am package -DskipTests
 * java -jar jmh/target/respsql-jmh.jar RequestPathBenchmark -prof gc
 * </pre>
 */
public class RequestPathBenchmark extends KernelBenchmark {
    private static final int PIPELINE = 16;

    /** ping: PING; select: SELECT v FROM kv WHERE id = N; update: UPDATE kv SET v = v + 1 WHERE id = N. */
    @Param({"ping", "select", "update"})
    public String request;

    private EmbeddedChannel channel;
    private byte[] batch;

    @Setup
    public void setUp() {
        ServerConfig config = new ServerConfig();
        ServerStats stats = new ServerStats(config);
        Catalog catalog = new Catalog();
        SqlEngine sql = new SqlEngine(catalog);
        ClientRegistry clients = new ClientRegistry();
        ServerContext context = new ServerContext(config, stats, clients, catalog, sql,
                new InfoReport(config, stats, catalog), new Persistence(config, catalog, Runnable::run));
        CommandDispatcher dispatcher = new CommandDispatcher(Commands.standard(context), stats, config);
        channel = new EmbeddedChannel(new ClientConnection(config, stats, clients, dispatcher, new RespWriter(), 1024 * 1024));
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        exchange(encode("CREATE", "TABLE", "kv", "(id int primary key, v int)"));
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            values.append(i > 0 ? "," : "").append('(').append(i).append(',').append(i).append(')');
        }
        exchange(encode("INSERT", "INTO", "kv", "VALUES", values.toString()));
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < PIPELINE; i++) {
            String id = Integer.toString(i * 37);
            b.append(new String(switch (request) {
                case "ping" -> encode("PING");
                case "select" -> encode("SELECT", "v", "FROM", "kv", "WHERE", "id", "=", id);
                case "update" -> encode("UPDATE", "kv", "SET", "v", "=", "v", "+", "1", "WHERE", "id", "=", id);
                default -> throw new IllegalArgumentException(request);
            }, StandardCharsets.US_ASCII));
        }
        batch = b.toString().getBytes(StandardCharsets.US_ASCII);
        int replies = exchange(batch);
        if (replies == 0) {
            throw new IllegalStateException("no reply to " + request);
        }
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
    }

    /** One read of 16 pipelined requests; the figure is per request. */
    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public int pipelined16() {
        return exchange(batch);
    }

    private int exchange(byte[] bytes) {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length);
        in.writeBytes(bytes);
        channel.writeInbound(in);
        int n = 0;
        ByteBuf out;
        while ((out = channel.readOutbound()) != null) {
            n += out.readableBytes();
            out.release();
        }
        return n;
    }

    /** One request as a RESP array of bulk strings. */
    static byte[] encode(String... args) {
        StringBuilder sb = new StringBuilder().append('*').append(args.length).append("\r\n");
        for (String a : args) {
            sb.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
