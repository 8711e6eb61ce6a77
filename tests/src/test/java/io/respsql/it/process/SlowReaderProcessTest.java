package io.respsql.it.process;

import io.respsql.it.RespConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22's slow-reader bound on a real server process with its default limits, at a size CI can
 * afford (scripts/slow-reader-check.sh runs it at 10M rows, bench/slow-reader/): a client that
 * stops reading a 70 MB result (four times the 16 MB soft limit, more than the bound if it were
 * all buffered), then reads it slowly, costs the server under 64 MB of RSS, and every row arrives.
 */
class SlowReaderProcessTest {
    private static final int ROWS = 4_000_000;
    private static final long MAX_GROWTH_KB = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void aSlowReaderOfALargeResultKeepsServerRssGrowthBounded() throws Exception {
        try (ServerProcess server = ServerProcess.start(dir, "--save", "", "--appendonly", "no");
             RespConnection admin = server.raw()) {
            load(admin);
            // One full-speed read first: the JIT and the buffer pools are warm before the baseline.
            try (Socket warm = new Socket(ServerProcess.HOST, server.port())) {
                warm.getOutputStream().write(concat(RespConnection.encode("SELECT", "*", "FROM", "big"),
                        RespConnection.encode("PING")));
                InputStream in = warm.getInputStream();
                byte[] buf = new byte[1 << 16];
                byte[] tail = new byte[7];
                int r;
                while ((r = in.read(buf)) > 0) {
                    shift(tail, buf, r);
                    if (new String(tail, java.nio.charset.StandardCharsets.US_ASCII).equals("+PONG\r\n")) {
                        break;
                    }
                }
            }
            long base = rssKb(server.pid());
            long maxGrowth = 0;
            try (Socket slow = new Socket()) {
                slow.setReceiveBufferSize(64 * 1024);
                slow.connect(new InetSocketAddress(ServerProcess.HOST, server.port()), 10_000);
                slow.setSoTimeout(60_000);
                slow.getOutputStream().write(RespConnection.encode("SELECT", "*", "FROM", "big"));
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (!admin.call("INFO", "stats").contains("bg_queries_waiting_for_reader:1\r\n")) {
                    assertTrue(System.nanoTime() < deadline, "the query never waited for its reader");
                    maxGrowth = Math.max(maxGrowth, rssKb(server.pid()) - base);
                    Thread.sleep(20);
                }
                // Not reading for a second: the server holds the soft limit (16 MB) and waits.
                long end = System.nanoTime() + 1_000_000_000L;
                while (System.nanoTime() < end) {
                    maxGrowth = Math.max(maxGrowth, rssKb(server.pid()) - base);
                    Thread.sleep(50); // sampling interval while the client does not read
                }
                // Then reading at about 16 MB/s, every row checked.
                InputStream in = new BufferedInputStream(slow.getInputStream(), 1 << 16);
                assertEquals("*" + ROWS, line(in));
                long ids = 0;
                long t0 = System.nanoTime();
                long read = 0;
                for (int i = 0; i < ROWS; i++) {
                    String header = line(in);
                    String row = line(in);
                    assertEquals("$" + row.length(), header);
                    int comma = row.indexOf(',');
                    int id = Integer.parseInt(row.substring(0, comma));
                    assertEquals(id % 1000, Integer.parseInt(row.substring(comma + 1)), row);
                    ids += id;
                    read += header.length() + row.length() + 4;
                    if ((i & 0x3fff) == 0) {
                        maxGrowth = Math.max(maxGrowth, rssKb(server.pid()) - base);
                        long ahead = read * 1_000_000_000L / (16L << 20) - (System.nanoTime() - t0);
                        if (ahead > 0) {
                            Thread.sleep(ahead / 1_000_000);
                        }
                    }
                }
                assertEquals((long) ROWS * (ROWS + 1) / 2, ids);
            }
            maxGrowth = Math.max(maxGrowth, rssKb(server.pid()) - base);
            System.out.println("slow reader of " + ROWS + " rows: server VmRSS grew at most " + maxGrowth / 1024 + " MB");
            assertTrue(maxGrowth < MAX_GROWTH_KB, "server RSS grew " + maxGrowth + " kB");
            assertTrue(admin.call("INFO", "stats").contains("client_output_buffer_limit_disconnections:0\r\n"));
        }
    }

    private static void load(RespConnection c) throws IOException {
        assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "big", "(id int primary key, v int)"));
        int batch = 20_000;
        int sent = 0;
        for (int from = 1; from <= ROWS; from += batch) {
            StringBuilder sb = new StringBuilder(batch * 16).append("INSERT INTO big VALUES ");
            for (int id = from; id < from + batch; id++) {
                sb.append(id == from ? "" : ",").append('(').append(id).append(',').append(id % 1000).append(')');
            }
            c.sendCommand("SQL", sb.toString());
            if (++sent == 8) { // pipelined, 8 at a time
                for (; sent > 0; sent--) {
                    assertEquals("+OK\r\n", c.readReply());
                }
            }
        }
        for (; sent > 0; sent--) {
            assertEquals("+OK\r\n", c.readReply());
        }
    }

    private static long rssKb(long pid) throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (l.startsWith("VmRSS:")) {
                return Long.parseLong(l.replaceAll("\\D", ""));
            }
        }
        throw new IOException("no VmRSS for " + pid);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder(24);
        for (int c; (c = in.read()) >= 0; ) {
            if (c == '\n' && sb.length() > 0 && sb.charAt(sb.length() - 1) == '\r') {
                sb.setLength(sb.length() - 1);
                return sb.toString();
            }
            sb.append((char) c);
        }
        throw new IOException("closed after '" + sb + "'");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** Keeps the last tail.length bytes seen. */
    private static void shift(byte[] tail, byte[] buf, int n) {
        for (int i = 0; i < n; i++) {
            System.arraycopy(tail, 1, tail, 0, tail.length - 1);
            tail[tail.length - 1] = buf[i];
        }
    }
}
