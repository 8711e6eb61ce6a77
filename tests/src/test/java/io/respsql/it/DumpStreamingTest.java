package io.respsql.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DUMP streams: a server in its own JVM with a 128 MB heap holds a 200,000-row table of about
 * 40 MB of text and dumps it whole (48 MB of INSERT lines). Made as a list of strings first, the
 * lines do not fit beside the table (the DUMP answers -OOM); made as they are written, the reply
 * goes out in chunks and the server stays inside its heap. Checked: every line, in key order.
 */
class DumpStreamingTest {
    private static final Pattern READY = Pattern.compile("ready on [^ ]+:(\\d+) ");
    private static final int ROWS = 200_000;
    private static final String PAD = "d".repeat(200);

    @TempDir
    Path dir;

    @Test
    void dumpOfALargeTableStreamsUnderASmallHeap() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                "io.respsql.Main", "--port", "0", "--maxmemory", "10gb", "--save", "", "--dir", dir.toString());
        pb.redirectErrorStream(true);
        Process p = pb.start();
        List<String> log = new CopyOnWriteArrayList<>();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            int port = -1;
            for (String line; port < 0 && (line = out.readLine()) != null; ) {
                log.add(line);
                Matcher m = READY.matcher(line);
                if (m.find()) {
                    port = Integer.parseInt(m.group(1));
                }
            }
            assertTrue(port > 0, "the server did not start: " + log);
            Thread drain = new Thread(() -> out.lines().forEach(log::add), "server-log");
            drain.setDaemon(true);
            drain.start();
            try (RespConnection c = new RespConnection(TestServer.HOST, port)) {
                assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE d (id INT PRIMARY KEY, s TEXT)"));
                for (int batch = 0; batch < ROWS / 2000; batch++) {
                    StringBuilder sb = new StringBuilder("INSERT INTO d VALUES ");
                    for (int i = 0; i < 2000; i++) {
                        // inserted out of key order: the dump must sort by the key
                        int id = (ROWS / 2000 - 1 - batch) * 2000 + i;
                        sb.append(i == 0 ? "" : ",").append('(').append(id).append(",'").append(PAD).append("')");
                    }
                    assertEquals("+OK\r\n", c.call("SQL", sb.toString()));
                }
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(TestServer.HOST, port), 10_000);
                s.setSoTimeout(60_000);
                OutputStream o = s.getOutputStream();
                o.write(RespConnection.encode("DUMP", "d"));
                o.flush();
                InputStream in = new BufferedInputStream(s.getInputStream(), 1 << 16);
                assertEquals("*" + (ROWS + 1), line(in));
                String create = "CREATE TABLE d (id INT PRIMARY KEY, s TEXT)";
                assertEquals("$" + create.length(), line(in));
                assertEquals(create, line(in));
                for (int id = 0; id < ROWS; id++) {
                    String want = "INSERT INTO d VALUES (" + id + ",'" + PAD + "')";
                    assertEquals("$" + want.length(), line(in), "row " + id);
                    assertEquals(want, line(in), "row " + id);
                }
                o.write(RespConnection.encode("PING"));
                o.flush();
                assertEquals("+PONG", line(in));
            }
            assertTrue(log.stream().noneMatch(l -> l.contains("out of memory")), String.join("\n", log));
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    /** One CRLF-terminated line of the reply, without the CRLF. */
    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int b; (b = in.read()) != '\r'; ) {
            if (b < 0) {
                throw new IOException("the server closed the connection after: " + sb);
            }
            sb.append((char) b);
        }
        assertEquals('\n', in.read());
        return sb.toString();
    }
}
