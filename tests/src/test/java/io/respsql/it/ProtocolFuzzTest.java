package io.respsql.it;

import org.junit.jupiter.api.Test;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Sends at least 100,000 generated inputs ({@link FuzzInputs}) to a server over real
 * connections and checks, for every byte the server sends back, that it is a sequence of
 * well-formed RESP frames ({@link RespFrameReader}); that no reply is an internal error and
 * nothing is logged as a warning or error; that a connection is closed only after a complete
 * {@code -ERR Protocol error} reply (or after the client's own end of input); and, after every
 * batch, that a separate control connection still gets PONG and the exact checksum of a control
 * table no input can name.
 *
 * <p>The server runs with its admin commands (FLUSHALL, FLUSHDB, CONFIG, CLIENT, SHUTDOWN, ...)
 * disabled by rename-command, as an exposed server would be; the inputs still send those names and
 * must get unknown-command errors.
 *
 * <p>{@code -Dfuzz.seed=N} replays a run (the seed is printed at the start and in every failure);
 * {@code -Dfuzz.inputs=N} changes how many inputs are sent (default 100,000); {@code -Dfuzz.verbose=true}
 * prints progress per batch and the error replies by kind.
 */
class ProtocolFuzzTest {
    private static final int MIN_INPUTS = 100_000;
    private static final int BATCH = 500;
    /** Every fourth batch is raw bytes, one connection per input; the others are pipelined frames. */
    private static final int RAW_EVERY = 4;
    private static final int READ_TIMEOUT_MILLIS = 30_000;
    private static final int CONTROL_ROWS = 1000;
    /** Planner differential checks after each framed batch. */
    private static final int DIFFERENTIAL_QUERIES = 20;

    private final long seed = Long.getLong("fuzz.seed", System.nanoTime() ^ System.currentTimeMillis() << 20);
    private final long target = Long.getLong("fuzz.inputs", MIN_INPUTS);

    private TestServer server;
    private RespConnection control;
    private String controlQuery;
    private String controlExpected;
    private LogTap log;
    /** Replies to framed inputs: how many were errors, how many results (a soup is mostly errors). */
    private long errorReplies;
    private long otherReplies;
    private long differentialChecks;
    private final java.util.Map<String, Integer> errorKinds = new java.util.TreeMap<>();

    @Test
    void generatedInputsNeverBreakTheServer() throws Exception {
        System.out.printf(Locale.ROOT, "ProtocolFuzzTest: seed %d (replay with -Dfuzz.seed=%d), %d inputs%n",
            seed, seed, target);
        long started = System.nanoTime();
        long cpuStart = cpuNanos();
        long framed = 0;
        long raw = 0;
        log = LogTap.install(true);
        try (TestServer s = startWithAdminCommandsDisabled()) {
            server = s;
            control = s.raw();
            createControlTable();
            for (int batch = 0; framed + raw < target; batch++) {
                long batchSeed = seed + 0x9E3779B97F4A7C15L * (batch + 1);
                FuzzInputs gen = new FuzzInputs(batchSeed);
                int n = (int) Math.min(BATCH, target - framed - raw);
                String where = "seed " + seed + ", batch " + batch;
                if (batch % RAW_EVERY == RAW_EVERY - 1) {
                    raw += rawBatch(gen, n, where);
                } else {
                    framed += framedBatch(gen, n, where);
                    checkIndexesAgreeWithScans(where);
                    checkPlansAgree(gen, where);
                }
                checkControl(where);
                if (Boolean.getBoolean("fuzz.verbose")) {
                    System.out.printf(Locale.ROOT, "ProtocolFuzzTest: %s done at %.1f s%n", where, (System.nanoTime() - started) / 1e9);
                }
                log.assertQuiet(where);
            }
        } finally {
            log.uninstall();
        }
        long total = framed + raw;
        System.out.printf(Locale.ROOT, "ProtocolFuzzTest: seed %d: %d inputs sent (%d framed and pipelined,"
            + " %d raw on their own connections) in %.1f s, %.1f s of CPU (server and client)%n", seed, total,
            framed, raw, (System.nanoTime() - started) / 1e9, (cpuNanos() - cpuStart) / 1e9);
        System.out.printf(Locale.ROOT, "ProtocolFuzzTest: framed inputs answered with %d results and %d error"
            + " replies; %d planner differential checks compared rows%n", otherReplies, errorReplies,
            differentialChecks);
        if (Boolean.getBoolean("fuzz.verbose")) {
            errorKinds.forEach((k, v) -> System.out.println(v + "\t" + k));
        }
        if (target >= MIN_INPUTS) {
            assertTrue(total >= MIN_INPUTS, "only " + total + " inputs were sent (seed " + seed + ")");
        }
    }

    /** The log check can fail: a warning logged by the server's logger is caught. */
    @Test
    void logTapCatchesWarnings() {
        LogTap tap = LogTap.install(false);
        try {
            org.slf4j.LoggerFactory.getLogger(io.respsql.command.CommandDispatcher.class)
                .warn("command x failed for client 1 (a test of the fuzz log check)");
            assertThrows(AssertionError.class, () -> tap.assertQuiet("a test"));
            tap.assertQuiet("nothing logged since");
        } finally {
            tap.uninstall();
        }
    }

    /**
     * Starts a server with the admin commands disabled by rename-command, as an exposed server
     * would be; the generator names them ({@link FuzzInputs#ADMIN_COMMANDS}) and must find them
     * gone. Renaming a command the server does not have fails its start, so those are left out:
     * the list may name commands a later version adds.
     */
    static TestServer startWithAdminCommandsDisabled() {
        List<String> names = new ArrayList<>(List.of(FuzzInputs.ADMIN_COMMANDS));
        while (true) {
            try {
                return TestServer.start(c -> names.forEach(n -> c.renameCommand(n, "")));
            } catch (IllegalArgumentException e) {
                String msg = String.valueOf(e.getMessage());
                int q = msg.indexOf("no such command '");
                String missing = q < 0 ? null : msg.substring(q + 17, msg.indexOf('\'', q + 17));
                if (missing == null || !names.remove(missing)) {
                    throw e;
                }
            }
        }
    }

    private void createControlTable() throws IOException {
        // The generator's names all start with "fz"; this one cannot be reached by any input.
        String table = "ctl_" + Long.toHexString(seed & 0xffffffffL) + "_" + System.nanoTime() % 100_000;
        assertEquals("+OK\r\n", control.call("CREATE", "TABLE", table, "(id int primary key, v bigint)"));
        long sum = 0;
        for (int i = 0; i < CONTROL_ROWS; i += 100) {
            StringBuilder values = new StringBuilder();
            for (int id = i; id < i + 100; id++) {
                long v = (long) id * id * 7919 + 3;
                sum += v;
                values.append(id > i ? "," : "").append('(').append(id).append(',').append(v).append(')');
            }
            assertEquals("+OK\r\n", control.call("INSERT", "INTO", table, "VALUES", values.toString()));
        }
        controlQuery = "SELECT COUNT(*), SUM(v) FROM " + table;
        String row = CONTROL_ROWS + "," + sum;
        controlExpected = "*1\r\n$" + row.length() + "\r\n" + row + "\r\n";
        assertEquals(controlExpected, control.call("SQL", controlQuery));
    }

    private void checkControl(String where) throws IOException {
        assertEquals("+PONG\r\n", control.call("PING"), "control PING after " + where);
        assertEquals(controlExpected, control.call("SQL", controlQuery), "control checksum after " + where);
    }

    /**
     * After a batch of fuzzed writes, every fuzz table must list the same rows through any access
     * path: a range over each column that covers every value (served by the primary key or an
     * index when the column has one) must return what a scan of the rows where the column is not
     * NULL returns. A write
     * that left an index out of step with the rows shows up here.
     */
    private void checkIndexesAgreeWithScans(String where) throws IOException {
        String[][] lowest = {
            {"id", "-9223372036854775808"}, {"a", "-9223372036854775808"}, {"b", "-9223372036854775808"},
            {"c", "-1.7976931348623157e308"}, {"d", "''"},
        };
        for (String table : FuzzInputs.TABLES) {
            String key = table.equals("fzt") ? "d" : "id";
            String all = control.call("SQL", "SELECT * FROM " + table + " ORDER BY " + key);
            if (all.startsWith("-")) {
                continue; // the batch dropped or reshaped the table
            }
            for (String[] col : lowest) {
                String sql = "SELECT * FROM " + table + " WHERE " + col[0] + " >= " + col[1] + " ORDER BY " + key;
                String ranged = control.call("SQL", sql);
                if (!ranged.startsWith("-")) {
                    // A NULL is in no range (and in no index): the scan of the non-NULL rows is the oracle.
                    String listing = control.call("SQL", "SELECT * FROM " + table + " WHERE " + col[0]
                        + " IS NOT NULL ORDER BY " + key);
                    assertEquals(listing, ranged, () -> "'" + sql + "' disagrees with the listing of " + table
                        + "'s non-NULL " + col[0] + " (" + where + "); " + explain(sql));
                }
            }
        }
    }

    /**
     * Differential check of the planner: a generated condition must select the same rows as its
     * double negation, which no key or index serves (a full scan with a filter). Conditions that
     * fail on either side (type errors, division by zero in a filtered row) are skipped.
     */
    private void checkPlansAgree(FuzzInputs gen, String where) throws IOException {
        for (int i = 0; i < DIFFERENTIAL_QUERIES; i++) {
            String[] tc = gen.tableAndCondition();
            String key = tc[0].equals("fzt") ? "d" : "id";
            String planned = "SELECT * FROM " + tc[0] + " WHERE " + tc[1] + " ORDER BY " + key;
            String scanned = "SELECT * FROM " + tc[0] + " WHERE NOT (NOT (" + tc[1] + ")) ORDER BY " + key;
            String a = control.call("SQL", planned);
            String b = control.call("SQL", scanned);
            if (!a.startsWith("-") && !b.startsWith("-")) {
                assertEquals(b, a, () -> "'" + planned + "' and its double negation select different rows ("
                    + where + "); " + explain(planned));
                differentialChecks++;
            }
        }
    }

    private String explain(String sql) {
        try {
            return "plan: " + control.call("SQL", "EXPLAIN " + sql).replace("\r\n", " ");
        } catch (IOException e) {
            return "no plan: " + e;
        }
    }

    // ---- pipelined frames --------------------------------------------------------------------

    private int framedBatch(FuzzInputs gen, int n, String where) throws Exception {
        List<byte[]> inputs = new ArrayList<>(n + FuzzInputs.RESET.length + 1);
        for (String[] words : FuzzInputs.RESET) {
            List<byte[]> w = new ArrayList<>();
            for (String word : words) {
                w.add(FuzzInputs.utf8(word));
            }
            inputs.add(FuzzInputs.frame(w));
        }
        int first = inputs.size();
        for (int i = 0; i < n; i++) {
            inputs.add(FuzzInputs.frame(gen.framed()));
        }
        // RESET ends what the inputs may have left open (a MULTI block, subscriptions, RESP3), then
        // a last PING shows that exactly one reply came per input.
        inputs.add(FuzzInputs.frame(List.of(FuzzInputs.utf8("RESET"))));
        inputs.add(FuzzInputs.frame(List.of(FuzzInputs.utf8("PING"))));

        try (Socket socket = connect()) {
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            // Written from another thread: the server stops reading while its replies wait, so
            // the replies must be read while the inputs are still being written.
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    for (byte[] in : inputs) {
                        out.write(in);
                    }
                    out.flush();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            RespFrameReader reader = new RespFrameReader(new BufferedInputStream(socket.getInputStream(), 1 << 16));
            for (int i = 0; i < inputs.size(); i++) {
                int index = i;
                java.util.function.Supplier<String> at = () -> where + ", input " + (index - first) + ": "
                    + FuzzInputs.show(inputs.get(index));
                RespFrameReader.Frame reply;
                try {
                    reply = reader.next();
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("no reply within " + READ_TIMEOUT_MILLIS + " ms (" + at.get() + ")", e);
                } catch (IOException e) {
                    throw new AssertionError("malformed reply stream: " + e.getMessage() + " (" + at.get() + ")", e);
                }
                if (reply == null) {
                    fail("server closed a connection of well-formed frames after " + i + " replies (" + at.get() + ")");
                }
                if (i < first) {
                    assertTrue(!reply.isError(), () -> "fuzz schema reset failed: " + reply + " (" + at.get() + ")");
                } else if (i == inputs.size() - 2) {
                    assertEquals("+RESET", reply.toString(), "reply to the closing RESET (" + where + ")");
                } else if (i == inputs.size() - 1) {
                    assertEquals("+PONG", reply.toString(), "reply to the closing PING (" + where + ")");
                } else {
                    checkReply(reply, at);
                    if (reply.isError()) {
                        errorReplies++;
                        if (Boolean.getBoolean("fuzz.verbose")) {
                            String key = reply.text().replaceAll("'.*", "");
                            errorKinds.merge(key.substring(0, Math.min(45, key.length())), 1, Integer::sum);
                        }
                    } else {
                        otherReplies++;
                    }
                }
            }
            try {
                writer.get(READ_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new AssertionError("writing the batch failed (" + where + ")", e.getCause());
            }
        }
        return n;
    }

    private static void checkReply(RespFrameReader.Frame reply, java.util.function.Supplier<String> at) {
        if (reply.isError()) {
            String text = reply.text();
            assertTrue(!text.contains("internal error"), () -> "internal error: " + reply + " (" + at.get() + ")");
            assertTrue(!text.contains("Protocol error"), () -> "protocol error for a well-formed frame: " + reply
                + " (" + at.get() + ")");
        }
    }

    // ---- raw bytes ---------------------------------------------------------------------------

    private int rawBatch(FuzzInputs gen, int n, String where) throws Exception {
        for (int i = 0; i < n; i++) {
            byte[] input = gen.raw();
            int index = i;
            rawInput(input, () -> where + ", raw input " + index + ": " + FuzzInputs.show(input));
        }
        return n;
    }

    /**
     * Sends one raw input, then ends the connection's input: whatever state the bytes left the
     * decoder in, the server must answer what was complete and close.
     */
    private void rawInput(byte[] input, java.util.function.Supplier<String> at) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        boolean reset = false;
        try (Socket socket = connect()) {
            try {
                OutputStream out = socket.getOutputStream();
                out.write(input);
                out.flush();
                socket.shutdownOutput();
            } catch (IOException e) {
                // The server may close in the middle of a large input after a protocol error.
                reset = true;
            }
            InputStream in = socket.getInputStream();
            byte[] buf = new byte[8192];
            try {
                int r;
                while ((r = in.read(buf)) >= 0) {
                    received.write(buf, 0, r);
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("server neither answered nor closed within " + READ_TIMEOUT_MILLIS
                    + " ms after the end of input (" + at.get() + ")", e);
            } catch (IOException e) {
                reset = true;
            }
        }
        // A reset (the server closing with input still unread) can only follow a large input.
        assertTrue(!reset || input.length > 32 * 1024, () -> "connection reset (" + at.get() + ")");
        RespFrameReader reader = new RespFrameReader(new ByteArrayInputStream(received.toByteArray()));
        List<RespFrameReader.Frame> replies = new ArrayList<>();
        try {
            RespFrameReader.Frame f;
            while ((f = reader.next()) != null) {
                replies.add(f);
            }
        } catch (EOFException e) {
            if (!(reset && replies.isEmpty() && received.size() == 0)) {
                fail("truncated reply (" + e.getMessage() + ") after " + replies + " (" + at.get() + ")");
            }
        } catch (IOException e) {
            fail("malformed reply stream: " + e.getMessage() + " after " + replies + " (" + at.get() + ")");
        }
        for (int i = 0; i < replies.size(); i++) {
            RespFrameReader.Frame reply = replies.get(i);
            assertTrue(!reply.text().contains("internal error"), () -> "internal error: " + reply + " (" + at.get() + ")");
            if (reply.text().startsWith("ERR Protocol error")) {
                assertEquals(replies.size() - 1, i, () -> "replies after a protocol error: " + replies + " (" + at.get() + ")");
            }
        }
    }

    private static long cpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : 0;
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        socket.connect(new InetSocketAddress(server.host(), server.port()), 10_000);
        return socket;
    }

    /**
     * Copies the server's log (slf4j-simple writes to System.err) so that a warning or error it
     * logs during a batch fails the test with the batch named.
     */
    static final class LogTap extends OutputStream {
        private final PrintStream original;
        private final boolean echo;
        private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

        private LogTap(PrintStream original, boolean echo) {
            this.original = original;
            this.echo = echo;
        }

        /** {@code echo}: also write through to the original stream. */
        static LogTap install(boolean echo) {
            LogTap tap = new LogTap(System.err, echo);
            System.setErr(new PrintStream(tap, true, StandardCharsets.UTF_8));
            return tap;
        }

        void uninstall() {
            System.setErr(original);
        }

        @Override
        public synchronized void write(int b) {
            if (echo) {
                original.write(b);
            }
            copy.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            if (echo) {
                original.write(b, off, len);
            }
            copy.write(b, off, len);
        }

        synchronized void assertQuiet(String where) {
            String text = copy.toString(StandardCharsets.UTF_8);
            copy.reset();
            for (String line : text.split("\n")) {
                if (line.contains("[WARN]") || line.contains("[ERROR]") || line.contains("internal error")) {
                    fail("server logged during " + where + ": " + text);
                }
            }
        }
    }
}
