package io.respsql.it.process;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;

/**
 * One client thread writing to table {@code t (id BIGINT PRIMARY KEY, v INT, seq INT)} as fast as
 * it can, on ids of its own. Statement {@code n} (1-based) of this writer either inserts
 * {@code rowsPerStatement} new rows {@code (id, 0, n)} or runs
 * {@code UPDATE t SET v = v + 1, seq = n WHERE id BETWEEN a AND b} over that many existing rows.
 *
 * <p>Every statement stamps the rows it touches with its number, so the last statement of this
 * writer that survived is the largest {@code seq} among its rows, and {@link #stateAfter(int)}
 * says exactly what its rows must hold if the first {@code k} statements (and nothing else) took
 * effect: a torn multi-row statement or a gap shows up as a difference.
 *
 * <p>A statement counts as acknowledged when its reply arrived; at most one statement is in
 * flight (sent, no reply) when the connection breaks.
 */
final class Writer extends Thread {
    static final String CREATE_TABLE = "CREATE TABLE t (id BIGINT PRIMARY KEY, v INT, seq INT)";
    static final String CREATE_INDEX = "CREATE INDEX t:v ON t (v)";
    private static final long ID_SPAN = 100_000_000L;
    private static final ProtocolCommand SQL = () -> "SQL".getBytes(StandardCharsets.US_ASCII);

    /** One statement: the ids it touches and whether it inserts them. */
    record Op(boolean insert, long from, int rows) {
        String sql(int seq) {
            if (insert) {
                StringBuilder sb = new StringBuilder("INSERT INTO t VALUES ");
                for (int i = 0; i < rows; i++) {
                    sb.append(i == 0 ? "" : ",").append('(').append(from + i).append(",0,").append(seq).append(')');
                }
                return sb.toString();
            }
            return "UPDATE t SET v = v + 1, seq = " + seq + " WHERE id BETWEEN " + from + " AND " + (from + rows - 1);
        }
    }

    final int index;
    private final long firstId;
    private final int rowsPerStatement;
    private final Random random;
    private final Jedis jedis;
    private final CountDownLatch firstAck;

    /** Statements in the order sent; statement n is ops.get(n - 1). Read after the thread ended. */
    private final List<Op> ops = new ArrayList<>();
    /** System.nanoTime() at which the reply of statement n arrived, at index n - 1. */
    private long[] ackNanos = new long[1024];
    private volatile int acked;
    private volatile boolean inFlight;
    private volatile boolean stop;
    private long nextId;
    private volatile Throwable unexpected;
    private volatile Throwable ended;

    Writer(int index, long seed, int rowsPerStatement, Jedis jedis, CountDownLatch firstAck) {
        super("writer-" + index);
        this.index = index;
        this.firstId = (index + 1) * ID_SPAN;
        this.nextId = firstId;
        this.rowsPerStatement = rowsPerStatement;
        this.random = new Random(seed * 1_000_003L + index);
        this.jedis = jedis;
        this.firstAck = firstAck;
        setDaemon(true);
    }

    /** Whether {@code id} belongs to this writer. */
    boolean owns(long id) {
        return id >= firstId && id < firstId + ID_SPAN;
    }

    static int ownerOf(long id) {
        return (int) (id / ID_SPAN) - 1;
    }

    private Op next() {
        int inserted = (int) (nextId - firstId);
        if (inserted < rowsPerStatement || random.nextInt(10) < 4) {
            Op op = new Op(true, nextId, rowsPerStatement);
            nextId += rowsPerStatement;
            return op;
        }
        return new Op(false, firstId + random.nextInt(inserted - rowsPerStatement + 1), rowsPerStatement);
    }

    @Override
    public void run() {
        try {
            while (!stop) {
                Op op = next();
                ops.add(op);
                int seq = ops.size();
                inFlight = true;
                Object reply = jedis.sendCommand(SQL, op.sql(seq));
                long now = System.nanoTime();
                Object expected = op.insert ? "OK" : (Object) (long) op.rows;
                Object got = reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : reply;
                if (!expected.equals(got)) {
                    throw new AssertionError("writer " + index + " statement " + seq + " (" + op.sql(seq) + ") replied " + got);
                }
                if (seq > ackNanos.length) {
                    ackNanos = Arrays.copyOf(ackNanos, ackNanos.length * 2);
                }
                ackNanos[seq - 1] = now;
                acked = seq;
                inFlight = false;
                if (seq == 1) {
                    firstAck.countDown();
                }
            }
        } catch (JedisConnectionException e) {
            ended = e; // the server went away: the statement in flight may or may not have applied
        } catch (JedisDataException | AssertionError e) {
            unexpected = e;
        } catch (Throwable e) {
            unexpected = e;
        }
    }

    void requestStop() {
        stop = true;
    }

    /** Statements whose reply arrived. */
    int acked() {
        return acked;
    }

    /** Whether a statement was sent and no reply came (only meaningful once the thread ended). */
    boolean hasInFlight() {
        return inFlight;
    }

    long ackNanos(int seq) {
        return ackNanos[seq - 1];
    }

    /** An error reply or a wrong reply; null when the writer only stopped or lost its server. */
    Throwable unexpected() {
        return unexpected;
    }

    Throwable ended() {
        return ended;
    }

    /** What this writer's rows hold (id → {v, seq}) when exactly its first {@code k} statements took effect. */
    Map<Long, List<Long>> stateAfter(int k) {
        Map<Long, List<Long>> rows = new HashMap<>();
        for (int n = 1; n <= k; n++) {
            Op op = ops.get(n - 1);
            for (long id = op.from; id < op.from + op.rows; id++) {
                if (op.insert) {
                    rows.put(id, List.of(0L, (long) n));
                } else {
                    rows.put(id, List.of(rows.get(id).get(0) + 1, (long) n));
                }
            }
        }
        return rows;
    }

    String describe(int k) {
        return "writer " + index + ": " + acked + " acknowledged, in flight " + hasInFlight() + ", survived "
                + k + (k > 0 ? " (last surviving: " + ops.get(k - 1).sql(k) + ")" : "");
    }
}
