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
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Large replies are streamed in chunks and bounded by client-output-buffer-limit: a client that
 * does not read is disconnected alone, one that reads gets every row.
 */
class StreamedRepliesTest {
    private static final int ROWS = 2_000_000;
    private static TestServer server;

    @BeforeAll
    static void fill() throws Exception {
        server = TestServer.start();
        try (RawClient c = new RawClient(server.port())) {
            c.send(RespConnection.encode("CREATE", "TABLE", "big", "(id int primary key, v int)"));
            assertEquals("+OK", c.line());
            int batch = 10_000;
            for (int from = 1; from <= ROWS; from += batch) {
                StringBuilder sb = new StringBuilder("INSERT INTO big VALUES ");
                for (int id = from; id < from + batch; id++) {
                    sb.append(id == from ? "" : ",").append('(').append(id).append(',').append(id % 1000).append(')');
                }
                c.send(RespConnection.encode("SQL", sb.toString()));
            }
            for (int from = 1; from <= ROWS; from += batch) {
                assertEquals("+OK", c.line());
            }
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @AfterEach
    void defaultLimits() {
        server.dispatch("CONFIG", "SET", "client-output-buffer-limit", "normal 256mb 16mb 60");
    }

    @Test
    void millionRowSelectArrivesCompleteAndInOrder() throws Exception {
        try (RawClient c = new RawClient(server.port())) {
            c.send(RespConnection.encode("SELECT", "*", "FROM", "big", "WHERE", "id <= 1000000"));
            assertEquals("*1000000", c.line());
            for (int id = 1; id <= 1_000_000; id++) {
                String expected = id + "," + (id % 1000);
                assertEquals("$" + expected.length(), c.line());
                assertEquals(expected, c.line());
            }
            // The connection is in a clean state after the streamed reply.
            c.send(RespConnection.encode("PING"));
            assertEquals("+PONG", c.line());
        }
    }

    @Test
    void clientOverTheOutputLimitIsDisconnectedAlone() throws Exception {
        // Past the 2 MB soft limit the query waits for its reader (SlowReaderTest); one that reads
        // nothing for 1 s is disconnected.
        server.dispatch("CONFIG", "SET", "client-output-buffer-limit", "normal 4mb 2mb 1");
        long fullReply = 0;
        try (RawClient greedy = new RawClient(server.port()); RespConnection other = server.raw()) {
            assertEquals("+PONG\r\n", other.call("PING"));
            // Nothing is read from greedy until the server has disconnected it. The two sockets are
            // served in no set order, so INFO is polled (bounded) until the disconnection shows.
            greedy.send(RespConnection.encode("SELECT", "*", "FROM", "big"));
            long deadline = System.nanoTime() + 60_000_000_000L;
            String stats = other.call("INFO", "stats");
            while (!stats.contains("client_output_buffer_limit_disconnections:1\r\n")) {
                assertTrue(System.nanoTime() < deadline, stats);
                Thread.sleep(20);
                stats = other.call("INFO", "stats");
            }
            long received = greedy.drainUntilClosed();
            for (int id = 1; id <= ROWS; id++) {
                int len = (id + "," + (id % 1000)).length();
                fullReply += 1 + Integer.toString(len).length() + 2 + len + 2;
            }
            assertTrue(received < fullReply / 4, "received " + received + " of " + fullReply + " bytes");
            // Everyone else is served as before.
            assertEquals(":2000000\r\n", other.call("SELECT", "COUNT(*)", "FROM", "big"));
            assertEquals("*1\r\n$3\r\n7,7\r\n", other.call("SELECT", "*", "FROM", "big", "WHERE", "id = 7"));
            String memory = other.call("INFO", "memory");
            assertTrue(memory.contains("used_memory:"), memory);
        }
    }

    @Test
    void clientOverTheSoftLimitForTooLongIsDisconnected() throws Exception {
        // No hard limit; over 1 MB unsent for more than 0 seconds is too long.
        server.dispatch("CONFIG", "SET", "client-output-buffer-limit", "normal 0 1mb 0");
        try (RawClient greedy = new RawClient(server.port()); RespConnection other = server.raw()) {
            long before = disconnections(other);
            greedy.send(RespConnection.encode("SELECT", "*", "FROM", "big"));
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (disconnections(other) == before) {
                assertTrue(System.nanoTime() < deadline, "not disconnected over the soft limit");
                Thread.sleep(20);
            }
            greedy.drainUntilClosed();
            assertEquals("+PONG\r\n", other.call("PING"));
        }
    }

    private static long disconnections(RespConnection c) throws IOException {
        String stats = c.call("INFO", "stats");
        return Long.parseLong(stats.replaceAll("(?s).*client_output_buffer_limit_disconnections:(\\d+).*", "$1"));
    }

    @Test
    void failureAfterPartOfAReplyLeftClosesTheConnection() throws Exception {
        // id * 10^15 overflows from id 9224 on: thousands of rows (several chunks) are sent first.
        try (RawClient c = new RawClient(server.port()); RespConnection other = server.raw()) {
            c.send(RespConnection.encode("SELECT", "id*1000000000000000", "FROM", "big", "WHERE", "id <= 20000"));
            assertEquals("*20000", c.line());
            int rows = 0;
            try {
                while (true) {
                    String header = c.line();
                    assertTrue(header.startsWith("$"), header);
                    c.line();
                    rows++;
                }
            } catch (EOFException closed) {
                // expected: no error can follow a partial frame
            }
            assertTrue(rows > 1000 && rows < 9224, "rows before close: " + rows);
            assertEquals("+PONG\r\n", other.call("PING"));
            // The same statement's error is a clean reply when nothing had left yet.
            assertTrue(other.call("SELECT", "id*1000000000000000", "FROM", "big", "WHERE", "id = 9999")
                    .startsWith("-ERR integer overflow in 9999 * 1000000000000000"));
        }
    }

    @Test
    void pipelineWithoutReadingKeepsOutputBounded() throws Exception {
        server.dispatch("CREATE", "TABLE", "small", "(id int primary key, name text)");
        for (int i = 0; i < 20; i++) {
            server.dispatch("INSERT", "INTO", "small", "VALUES", "(" + i + ",'name of row " + i + "')");
        }
        // Each request is answered with about 4 times its size.
        byte[] echo = RespConnection.encode("SELECT", "*", "FROM", "small");
        try (Socket flood = new Socket(); RespConnection other = server.raw()) {
            flood.connect(new InetSocketAddress(TestServer.HOST, server.port()));
            other.call("CLIENT", "SETNAME", "watcher");
            Thread writer = new Thread(() -> {
                try {
                    OutputStream out = flood.getOutputStream();
                    byte[] block = new byte[echo.length * 1000];
                    for (int i = 0; i < 1000; i++) {
                        System.arraycopy(echo, 0, block, i * echo.length, echo.length);
                    }
                    for (int i = 0; i < 50_000_000 / block.length; i++) { // 50 MB of requests, replies never read
                        out.write(block);
                    }
                } catch (IOException stopped) {
                    // the socket is closed at the end of the test
                }
            }, "flood-writer");
            writer.setDaemon(true);
            writer.start();
            // Wait until the server has stopped reading from the flood: its writer thread blocks.
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (writer.getState() != Thread.State.RUNNABLE || !blockedInWrite(writer)) {
                assertTrue(System.nanoTime() < deadline, "flood writer never blocked");
                Thread.sleep(50);
            }
            assertEquals("+PONG\r\n", other.call("PING"));
            String list = other.call("CLIENT", "LIST");
            long omem = -1;
            for (String line : list.split("\n")) {
                if (line.contains("cmd=select")) {
                    omem = Long.parseLong(line.replaceAll(".* omem=(\\d+).*", "$1").trim());
                }
            }
            assertTrue(omem >= 0, "the flooding client is still connected: " + list);
            System.out.println("pending output of a pipelining client that never reads: " + omem + " bytes");
            assertTrue(omem < 32L << 20, "pending output of a client that does not read: " + omem);
            String memory = other.call("INFO", "memory");
            assertTrue(memory.contains("used_memory:"), memory);
            flood.close();
            server.dispatch("DROP", "TABLE", "small");
            writer.join(10_000);
        }
    }

    /** Whether the thread sits in a socket write (the server stopped reading). */
    private static boolean blockedInWrite(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getMethodName().contains("write0") || e.getMethodName().contains("implWrite")
                    || e.getMethodName().equals("park")) {
                return true;
            }
        }
        return false;
    }

    /** A socket reading replies line by line from a large buffer, for replies of millions of rows. */
    static final class RawClient implements AutoCloseable {
        private final Socket socket = new Socket();
        private final InputStream in;
        private final OutputStream out;
        private final StringBuilder line = new StringBuilder();

        RawClient(int port) throws IOException {
            socket.connect(new InetSocketAddress(TestServer.HOST, port), 10_000);
            socket.setSoTimeout(120_000);
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            out = socket.getOutputStream();
        }

        void send(byte[] b) throws IOException {
            out.write(b);
            out.flush();
        }

        /** The next line without its CRLF. */
        String line() throws IOException {
            line.setLength(0);
            while (true) {
                int c = in.read();
                if (c < 0) {
                    throw new EOFException("closed after '" + line + "'");
                }
                if (c == '\n' && line.length() > 0 && line.charAt(line.length() - 1) == '\r') {
                    line.setLength(line.length() - 1);
                    return line.toString();
                }
                line.append((char) c);
            }
        }

        /** Reads until the server closes; returns the bytes read. */
        long drainUntilClosed() throws IOException {
            long n = 0;
            byte[] buf = new byte[1 << 16];
            try {
                for (int r; (r = in.read(buf)) >= 0; ) {
                    n += r;
                }
            } catch (IOException reset) {
                // closed by the server with data unread: a reset is a close too
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
