package io.respsql.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
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
 * A server in its own JVM with a 96 MB heap and maxmemory far above it, so only the JVM's own
 * OutOfMemoryError can stop the inserts: the server must answer -OOM, stay up, and keep exactly
 * the rows it acknowledged.
 */
class SmallHeapTest {
    private static final Pattern READY = Pattern.compile("ready on [^ ]+:(\\d+) ");

    @TempDir
    Path dir;

    @Test
    void runningOutOfHeapRepliesOomAndChangesNothing() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        // No snapshots, and a scratch dir: the stop at the end must not leave a file a later run loads.
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx96m", "-cp", System.getProperty("java.class.path"),
                "io.respsql.Main", "--port", "0", "--maxmemory", "10gb", "--save", "", "--dir", dir.toString());
        pb.redirectErrorStream(true);
        Process p = pb.start();
        List<String> lines = new CopyOnWriteArrayList<>();
        try {
            BufferedReader log = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            int port = -1;
            for (String line; port < 0 && (line = log.readLine()) != null; ) {
                lines.add(line);
                Matcher m = READY.matcher(line);
                if (m.find()) {
                    port = Integer.parseInt(m.group(1));
                }
            }
            assertTrue(port > 0, "the server did not start: " + lines);
            Thread drain = new Thread(() -> log.lines().forEach(lines::add), "server-log");
            drain.setDaemon(true);
            drain.start();
            try (RespConnection c = new RespConnection(TestServer.HOST, port)) {
                assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "h", "(id int primary key, s text)"));
                String pad = "p".repeat(200);
                long acknowledged = 0;
                String refused = null;
                for (int batch = 0; batch < 10_000 && refused == null; batch++) {
                    StringBuilder sb = new StringBuilder("INSERT INTO h VALUES ");
                    for (int i = 0; i < 2000; i++) {
                        int id = batch * 2000 + i;
                        sb.append(i == 0 ? "" : ",").append('(').append(id).append(",'").append(pad).append("')");
                    }
                    String reply = c.call("SQL", sb.toString());
                    if (reply.equals("+OK\r\n")) {
                        acknowledged += 2000;
                    } else {
                        refused = reply;
                    }
                }
                assertEquals("-OOM command not allowed when used memory > 'maxmemory'.\r\n", refused);
                assertTrue(acknowledged > 0);
                // Still serving, on this connection and new ones, with exactly the acknowledged rows.
                assertEquals(":" + acknowledged + "\r\n", c.call("SELECT", "COUNT(*)", "FROM", "h"));
                assertEquals(":" + acknowledged + "\r\n", c.call("SCANSELECT", "COUNT(*)", "FROM", "h", "WHERE", "id >= 0"));
                assertEquals(":1\r\n", c.call("DELETE", "FROM", "h", "WHERE", "id = 0"));
                // Storage stayed consistent: its accounting walks every text arena.
                assertTrue(c.call("INFO", "memory").contains("table_bytes:"));
                assertTrue(c.call("INFO", "tables").contains("table_h:rows=" + (acknowledged - 1) + ","));
                try (RespConnection fresh = new RespConnection(TestServer.HOST, port)) {
                    assertEquals("+PONG\r\n", fresh.call("PING"));
                    assertTrue(fresh.call("INFO", "errorstats").contains("errorstat_OOM:count=1"));
                }
            }
            // The log, complete once the process has ended: one startup line saying what an
            // operator needs, one line for the OOM, nothing for the hundreds of requests.
            p.destroy();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "server did not stop");
            drain.join(30_000);
            String startup = lines.stream().filter(l -> l.contains("ready on")).findFirst().orElse("(no startup line)");
            for (String want : new String[] {"RespSQL ", "ready on 127.0.0.1:" + port, "config file none", "Java 17",
                    "GC ", "max heap ", "maxmemory 10737418240 bytes", "JVM arguments [-Xmx96m"}) {
                assertTrue(startup.contains(want), want + " missing: " + startup);
            }
            assertEquals(1, lines.stream().filter(l -> l.contains("out of memory")).count(), String.join("\n", lines));
            assertTrue(lines.size() <= 4, "log lines: " + String.join("\n", lines));
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

}
