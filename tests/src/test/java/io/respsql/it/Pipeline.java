package io.respsql.it;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Pipelined commands on one lettuce connection: everything is written before any reply is
 * awaited (flushed every {@link #FLUSH_EVERY} commands), then the replies are collected in order.
 */
final class Pipeline {
    private static final int FLUSH_EVERY = 64;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private Pipeline() {
    }

    /**
     * Sends {@code commands} pipelined on {@code connection} (which must not be used by anyone
     * else meanwhile) and returns the replies in order, shaped as by {@link TestServer#dispatch}.
     * An error reply fails the test, naming the command.
     */
    static List<Object> run(StatefulRedisConnection<String, String> connection, List<String[]> commands) {
        List<RedisFuture<Object>> futures = send(connection, commands);
        List<Object> replies = new ArrayList<>(futures.size());
        for (int i = 0; i < futures.size(); i++) {
            replies.add(reply(futures.get(i), commands.get(i)));
        }
        return replies;
    }

    /** Sends pipelined and waits for every reply; the futures hold replies or errors. */
    static List<RedisFuture<Object>> send(StatefulRedisConnection<String, String> connection, List<String[]> commands) {
        RedisAsyncCommands<String, String> async = connection.async();
        List<RedisFuture<Object>> futures = new ArrayList<>(commands.size());
        connection.setAutoFlushCommands(false);
        try {
            for (String[] command : commands) {
                futures.add(TestServer.dispatchAsync(async, command));
                if (futures.size() % FLUSH_EVERY == 0) {
                    connection.flushCommands();
                }
            }
            connection.flushCommands();
        } finally {
            connection.setAutoFlushCommands(true);
        }
        awaitAll(futures);
        return futures;
    }

    /** Waits until every future completed, normally or not. */
    static void awaitAll(List<? extends RedisFuture<?>> futures) {
        CompletableFuture<?>[] all = new CompletableFuture<?>[futures.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = futures.get(i).toCompletableFuture();
        }
        try {
            CompletableFuture.allOf(all).handle((v, e) -> null).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("replies did not arrive within " + TIMEOUT, e);
        } catch (ExecutionException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The reply of a completed future; an error reply fails the test. */
    static Object reply(RedisFuture<Object> future, String... command) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw new AssertionError(describe(command) + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static String describe(String... command) {
        String s = String.join(" ", command);
        return s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }
}
