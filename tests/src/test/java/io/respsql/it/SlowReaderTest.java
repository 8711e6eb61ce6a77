package io.respsql.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Output backpressure (issue 22): a background query's reply to a client that does not read is
 * produced only as fast as the client reads it once the connection's unsent output passes the
 * soft limit of {@code client-output-buffer-limit normal}; a client that reads nothing for the
 * soft limit's seconds, or whose output passes the hard limit, is disconnected and its statement
 * stops.
 */
class SlowReaderTest {
    /** About 12 MB of reply: far above the 1 MB soft limit the tests configure. */
    private static final int ROWS = 400_000;
    private static final long SOFT = 1L << 20;
    private static TestServer server;

    @BeforeAll
    static void fill() throws Exception {
        server = TestServer.start();
        try (Client c = new Client(server.port(), 0)) {
            c.send(RespConnection.encode("CREATE", "TABLE", "big", "(id int primary key, v int, t text)"));
            assertEquals("+OK", c.line());
            int batch = 10_000;
            for (int from = 1; from <= ROWS; from += batch) {
                StringBuilder sb = new StringBuilder(batch * 24).append("INSERT INTO big VALUES ");
                for (int id = from; id < from + batch; id++) {
                    sb.append(id == from ? "" : ",").append('(').append(id).append(',').append(v(id))
                      .append(",'row").append(id).append("')");
                }
                c.send(RespConnection.encode("SQL", sb.toString()));
            }
            for (int from = 1; from <= ROWS; from += batch) {
                assertEquals("+OK", c.line());
            }
        }
    }

    private static int v(int id) {
        return (int) ((id * 7919L) % 1000);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @AfterEach
    void defaults() {
        server.dispatch("CONFIG", "SET", "client-output-buffer-limit", "normal 256mb 16mb 60");
        server.dispatch("CONFIG", "SET", "bg-query-min-rows", "100000");
    }

    @Test
    void pastTheSoftLimitTheResultWaitsForTheReaderThenArrivesWhole() throws Exception {
        server.dispatch("CONFIG", "SET", "client-output-buffer-limit", "normal 64mb 1mb 60");
        try (Client slow = new Client(server.port(), 64 * 1024); RespConnection admin = server.raw()) {
            long pacedBefore = infoField(admin, "bg_queries_paced");
            slow.send(RespConnection.encode("CLIENT", "SETNAME", "slow"));
            assertEquals("+OK", slow.line());
            slow.send(RespConnection.encode("SELECT", "*", "FROM", "big"));
            // The worker reaches the soft limit and waits for the reader, which reads nothing.
            awaitField(admin, "bg_queries_waiting_for_reader", 1);
            // For a second of not reading, the statement stays parked and the server holds at most
            // the soft limit plus one 64 KB chunk of this client's reply.
            long maxOmem = 0;
            long end = System.nanoTime() + 1_000_000_000L;
            while (System.nanoTime() < end) {
                long omem = omem(admin, "slow");
                maxOmem = Math.max(maxOmem, omem);
                assertTrue(omem <= SOFT + 128 * 1024, "unsent output of a client that does not read: " + omem);
                assertEquals(1, infoField(admin, "bg_queries_running"));
                Thread.sleep(50); // sampling interval while the client does not read
            }
            long recentMax = infoField(admin, "client_recent_max_output_buffer");
            assertTrue(recentMax <= SOFT + 128 * 1024, "client_recent_max_output_buffer " + recentMax);
            assertTrue(maxOmem > SOFT / 2, "the reply did reach the soft limit: " + maxOmem);
            System.out.println("slow reader: unsent output held at most " + maxOmem + " bytes (soft limit " + SOFT
                    + "), reply about " + ROWS * 30L + " bytes");
            // Reading now yields every row, exactly.
            readAllRows(slow);
            slow.send(RespConnection.encode("PING"));
            assertEquals("+PONG", slow.line());
            assertTrue(infoField(admin, "bg_queries_paced") > pacedBefore);
            assertEquals(0, infoField(admin, "bg_queries_waiting_for_reader"));
            assertEquals(0, infoField(admin, "client_output_buffer_limit_disconnections"));
        }
    }

    @Test
    void aReaderThatReadsSlowlyGetsEveryRow() throws Exception {
        // The worker alternates between producing and waiting many times over.
        server.dispatch("CONFIG", "SET", "client-output-buffer-limit", "normal 64mb 256kb 60");
        try (Client slow = new Client(server.port(), 32 * 1024)) {
            slow.pauseEvery(256 * 1024, 20);
            slow.send(RespConnection.encode("SELECT", "*", "FROM", "big"));
            readAllRows(slow);
            slow.send(RespConnection.encode("PING"));
            assertEquals("+PONG", slow.line());
        }
    }

    @Test
    void aReaderThatStopsForTheSoftSecondsIsDisconnectedAndItsStatementStops() throws Exception {
        server.dispatch("CONFIG", "SET", "client-output-buffer-limit", "normal 64mb 1mb 1");
        try (Client stalled = new Client(server.port(), 64 * 1024); RespConnection admin = server.raw()) {
            long disconnections = infoField(admin, "client_output_buffer_limit_disconnections");
            long cancelled = infoField(admin, "bg_queries_cancelled");
            stalled.send(RespConnection.encode("SELECT", "*", "FROM", "big"));
            awaitField(admin, "bg_queries_waiting_for_reader", 1);
            long waitingSince = System.nanoTime();
            awaitField(admin, "client_output_buffer_limit_disconnections", disconnections + 1);
            long ms = (System.nanoTime() - waitingSince) / 1_000_000;
            assertTrue(ms >= 900, "disconnected after " + ms + " ms, before the soft limit's 1 s");
            assertEquals(0, infoField(admin, "bg_queries_running"));
            assertEquals(cancelled + 1, infoField(admin, "bg_queries_cancelled"));
            assertTrue(stalled.drainUntilClosed() < ROWS * 30L / 2);
            assertEquals("+PONG\r\n", admin.call("PING"));
        }
    }

    @Test
    void pastTheHardLimitTheClientIsDisconnectedAndItsStatementStops() throws Exception {
        // No soft limit: nothing waits, so the hard limit is what stops the reply.
        server.dispatch("CONFIG", "SET", "client-output-buffer-limit", "normal 2mb 0 0");
        try (Client greedy = new Client(server.port(), 64 * 1024); RespConnection admin = server.raw()) {
            long disconnections = infoField(admin, "client_output_buffer_limit_disconnections");
            long cancelled = infoField(admin, "bg_queries_cancelled");
            greedy.send(RespConnection.encode("SELECT", "*", "FROM", "big"));
            awaitField(admin, "client_output_buffer_limit_disconnections", disconnections + 1);
            awaitField(admin, "bg_queries_running", 0);
            assertEquals(cancelled + 1, infoField(admin, "bg_queries_cancelled"));
            long received = greedy.drainUntilClosed();
            assertTrue(received < ROWS * 30L / 2, "received " + received);
            assertEquals(":" + ROWS + "\r\n", admin.call("SELECT", "COUNT(*)", "FROM", "big"));
        }
    }

    @Test
    void clientKillStopsAStatementWaitingForItsReader() throws Exception {
        server.dispatch("CONFIG", "SET", "client-output-buffer-limit", "normal 64mb 1mb 60");
        try (Client slow = new Client(server.port(), 64 * 1024); RespConnection admin = server.raw()) {
            slow.send(RespConnection.encode("CLIENT", "ID"));
            String id = slow.line().substring(1);
            slow.send(RespConnection.encode("SELECT", "*", "FROM", "big"));
            awaitField(admin, "bg_queries_waiting_for_reader", 1);
            long t0 = System.nanoTime();
            assertEquals(":1\r\n", admin.call("CLIENT", "KILL", "ID", id));
            awaitField(admin, "bg_queries_running", 0);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("statement waiting for its reader stopped " + ms + " ms after CLIENT KILL");
            assertTrue(ms < 1000, "statement still running " + ms + " ms after CLIENT KILL");
            assertEquals(0, infoField(admin, "bg_queries_waiting_for_reader"));
        }
    }

    /** Reads the whole reply of SELECT * FROM big and checks every row exactly, once each. */
    private static void readAllRows(Client c) throws IOException {
        assertEquals("*" + ROWS, c.line());
        BitSet seen = new BitSet(ROWS + 1);
        long idSum = 0;
        for (int i = 0; i < ROWS; i++) {
            String header = c.line();
            String row = c.line();
            assertEquals("$" + row.length(), header);
            int comma = row.indexOf(',');
            int id = Integer.parseInt(row.substring(0, comma));
            assertEquals(id + "," + v(id) + ",row" + id, row);
            assertTrue(!seen.get(id), "row " + id + " twice");
            seen.set(id);
            idSum += id;
        }
        assertEquals(ROWS, seen.cardinality());
        assertEquals((long) ROWS * (ROWS + 1) / 2, idSum);
    }

    private static long omem(RespConnection admin, String name) throws IOException {
        for (String line : admin.call("CLIENT", "LIST").split("\n")) {
            if (line.contains(" name=" + name + " ")) {
                return Long.parseLong(line.replaceAll(".* omem=(\\d+).*", "$1").trim());
            }
        }
        throw new AssertionError("client " + name + " not listed");
    }

    static long infoField(RespConnection c, String field) throws IOException {
        String info = c.call("INFO");
        int at = info.indexOf("\n" + field + ":");
        assertTrue(at >= 0, field + " not in INFO");
        int from = at + field.length() + 2;
        return Long.parseLong(info.substring(from, info.indexOf('\r', from)));
    }

    private static void awaitField(RespConnection c, String field, long value) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        long now;
        while ((now = infoField(c, field)) != value) {
            assertTrue(System.nanoTime() < deadline, field + " is " + now + ", expected " + value);
            Thread.sleep(5);
        }
    }

    /** A raw socket client with a small receive buffer, so the kernel holds little of what it does not read. */
    static final class Client implements AutoCloseable {
        private final Socket socket = new Socket();
        private final InputStream in;
        private final OutputStream out;
        private final StringBuilder line = new StringBuilder();
        private long pauseBytes;
        private int pauseMillis;
        private long readSincePause;

        Client(int port, int receiveBuffer) throws IOException {
            if (receiveBuffer > 0) {
                socket.setReceiveBufferSize(receiveBuffer);
            }
            socket.connect(new InetSocketAddress(TestServer.HOST, port), 10_000);
            socket.setSoTimeout(120_000);
            in = new BufferedInputStream(socket.getInputStream(), 1 << 14);
            out = socket.getOutputStream();
        }

        /** Makes the reader sleep {@code millis} after each {@code bytes} read (a slow consumer). */
        void pauseEvery(long bytes, int millis) {
            pauseBytes = bytes;
            pauseMillis = millis;
        }

        void send(byte[] b) throws IOException {
            out.write(b);
            out.flush();
        }

        String line() throws IOException {
            line.setLength(0);
            while (true) {
                int c = in.read();
                if (c < 0) {
                    throw new EOFException("closed after '" + line + "'");
                }
                if (pauseBytes > 0 && ++readSincePause >= pauseBytes) {
                    readSincePause = 0;
                    try {
                        Thread.sleep(pauseMillis);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (c == '\n' && line.length() > 0 && line.charAt(line.length() - 1) == '\r') {
                    line.setLength(line.length() - 1);
                    return line.toString();
                }
                line.append((char) c);
            }
        }

        long drainUntilClosed() throws IOException {
            long n = 0;
            byte[] buf = new byte[1 << 16];
            try {
                for (int r; (r = in.read(buf)) >= 0; ) {
                    n += r;
                }
            } catch (IOException reset) {
                // closed by the server with data unread
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
