package io.respsql.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the client against an in-test RESP server. */
class EndToEndTest {

    @TempDir
    Path tmp;

    record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = GenBenchmark.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static String[] args(FakeServer s, String... rest) {
        List<String> a = new ArrayList<>(List.of("-p", Integer.toString(s.port()), "--no-progress"));
        a.addAll(List.of(rest));
        return a.toArray(new String[0]);
    }

    private static final Function<List<String>, String> OK = cmd ->
            cmd.get(0).equals("PING") ? "+PONG\r\n" : "+OK\r\n";

    @Test
    void sendsExactlyNRequestsWithKeysOneToN() throws Exception {
        try (FakeServer s = new FakeServer(OK)) {
            Path json = tmp.resolve("insert.json");
            Run r = run(args(s, "-c", "7", "-n", "1001", "-s", "-m", "10", "-A", "OK", "--json", json.toString(),
                    "-Q", "INSERT", "INTO", "message_list", "VALUES", "(000000000001,000000000001,4)"));
            assertEquals(0, r.exit(), r.err());
            List<List<String>> reqs = s.requests();
            assertEquals(1001, reqs.size());
            assertEquals(7, s.connections.get());
            Set<Long> ids = new HashSet<>();
            Pattern p = Pattern.compile("\\((\\d{12}),(\\d{12}),4\\)");
            for (List<String> req : reqs) {
                assertEquals(List.of("INSERT", "INTO", "message_list", "VALUES"), req.subList(0, 4));
                Matcher m = p.matcher(req.get(4));
                assertTrue(m.matches(), req.get(4));
                long id = Long.parseLong(m.group(1));
                assertEquals(id % 10, Long.parseLong(m.group(2)));
                assertTrue(ids.add(id), "duplicate id " + id);
            }
            for (long id = 1; id <= 1001; id++) {
                assertTrue(ids.contains(id), "missing id " + id);
            }
            assertTrue(r.out().startsWith("  1001 requests completed in "), r.out());
            assertTrue(r.out().contains("\n  7 parallel clients\n\n"), r.out());
            assertTrue(r.out().contains("% <= 0 milliseconds\n") || r.out().contains("100.00% <= "), r.out());
            assertTrue(r.out().contains("Latency in microseconds (1001 samples):"), r.out());

            Map<String, Object> j = Json.obj(Json.parse(Files.readString(json)));
            assertEquals(1001.0, j.get("requests"));
            assertEquals(1001.0, j.get("latency_samples"));
            assertEquals(1001.0, j.get("completed"));
            assertEquals(Boolean.TRUE, j.get("ok"));
            long inHistogram = 0;
            for (Object b : Json.arr(j.get("histogram_ms"))) {
                inHistogram += (long) Json.dbl(Json.arr(b).get(1), 0);
            }
            assertEquals(1001, inHistogram);
            assertFalse(Json.arr(j.get("percentiles_us")).isEmpty());
        }
    }

    @Test
    void stepAndRandomKeys() throws Exception {
        try (FakeServer s = new FakeServer(OK)) {
            assertEquals(0, run(args(s, "-c", "3", "-n", "50", "-i", "3", "-A", "OK", "-Q", "SET", "k_000000000001", "v")).exit());
            Set<Long> keys = new HashSet<>();
            for (List<String> req : s.requests()) {
                keys.add(Long.parseLong(req.get(1).substring(2)));
            }
            Set<Long> expected = new HashSet<>();
            for (long k = 0; k < 50; k++) {
                expected.add(1 + 3 * k);
            }
            assertEquals(expected, keys);
        }
        try (FakeServer s = new FakeServer(OK)) {
            assertEquals(0, run(args(s, "-c", "4", "-n", "300", "-r", "5", "--seed", "1", "-A", "OK", "-Q", "SET", "k_000000000001", "v")).exit());
            Set<Long> keys = new HashSet<>();
            for (List<String> req : s.requests()) {
                keys.add(Long.parseLong(req.get(1).substring(2)));
            }
            assertEquals(Set.of(0L, 1L, 2L, 3L, 4L), keys);
        }
    }

    @Test
    void moreClientsThanRequestsStillSendsExactlyN() throws Exception {
        try (FakeServer s = new FakeServer(OK)) {
            Run r = run(args(s, "-c", "200", "-n", "37", "-s", "-A", "OK", "-Q", "SET", "k_000000000001", "v"));
            assertEquals(0, r.exit(), r.err());
            assertEquals(37, s.requests().size());
            assertEquals(200, s.connections.get());
        }
    }

    @Test
    void errorRepliesAreCountedAndFailTheRun() throws Exception {
        AtomicInteger n = new AtomicInteger();
        Function<List<String>, String> some = cmd -> {
            if (cmd.get(0).equals("PING")) {
                return "+PONG\r\n";
            }
            return n.incrementAndGet() % 10 == 0 ? "-ERR INSERT on Existing Data - use UPDATE\r\n" : "+OK\r\n";
        };
        try (FakeServer s = new FakeServer(some)) {
            Path json = tmp.resolve("err.json");
            Run r = run(args(s, "-c", "5", "-n", "100", "-s", "-A", "OK", "--json", json.toString(),
                    "-Q", "INSERT", "INTO", "t", "VALUES", "(000000000001,1)"));
            assertEquals(1, r.exit());
            assertEquals(100, s.requests().size());
            assertTrue(r.err().contains("10 of 100 replies were errors; first: -ERR INSERT on Existing Data - use UPDATE"),
                    r.err());
            Map<String, Object> j = Json.obj(Json.parse(Files.readString(json)));
            assertEquals(10.0, j.get("error_replies"));
            assertEquals(100.0, j.get("latency_samples"));
            assertEquals(Boolean.FALSE, j.get("ok"));
            assertEquals("-ERR INSERT on Existing Data - use UPDATE", j.get("first_error"));
        }
    }

    @Test
    void wrongReplyTypeFailsTheRun() throws Exception {
        try (FakeServer s = new FakeServer(OK)) {
            Run r = run(args(s, "-c", "2", "-n", "20", "-A", "INT", "-Q", "UPDATE", "t", "SET", "a=1"));
            assertEquals(1, r.exit());
            assertTrue(r.err().contains("20 of 20 replies were not of the expected type (INT, integer); first: status reply +OK"),
                    r.err());
        }
    }

    @Test
    void integerRepliesAreSummed() throws Exception {
        Function<List<String>, String> rows = cmd -> {
            if (cmd.get(0).equals("PING")) {
                return "+PONG\r\n";
            }
            long fk = Long.parseLong(cmd.get(5).substring(3));
            return ":" + (fk < 10 ? 100 : 0) + "\r\n";
        };
        try (FakeServer s = new FakeServer(rows)) {
            Path json = tmp.resolve("upd.json");
            Run r = run(args(s, "-c", "1", "-n", "10", "-s", "-A", "INT", "--json", json.toString(),
                    "-Q", "UPDATE", "message_list", "SET", "count=10", "WHERE", "fk=000000000001"));
            assertEquals(0, r.exit(), r.err());
            Map<String, Object> j = Json.obj(Json.parse(Files.readString(json)));
            assertEquals(900.0, j.get("int_reply_sum"));
            assertEquals(0.0, j.get("int_reply_min"));
            assertEquals(100.0, j.get("int_reply_max"));
            List<String> fks = new ArrayList<>();
            for (List<String> req : s.requests()) {
                fks.add(req.get(5));
            }
            assertEquals("fk=000000000001", fks.get(0));
            assertEquals("fk=000000000010", fks.get(9));
        }
    }

    @Test
    void multiBulkRepliesAreReadWhole() throws Exception {
        Function<List<String>, String> select = cmd -> cmd.get(0).equals("PING") ? "+PONG\r\n"
                : "*3\r\n$5\r\n1,1,7\r\n$5\r\n2,1,7\r\n$5\r\n3,2,4\r\n";
        try (FakeServer s = new FakeServer(select)) {
            Run r = run(args(s, "-c", "3", "-n", "99", "-q", "-A", "MULTI", "-Q", "SELECT", "*", "FROM", "t"));
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().matches("[0-9]+\\.[0-9]{2} requests per second\n\n"), r.out());
            assertEquals(99, s.requests().size());
        }
    }

    @Test
    void serverClosingTheConnectionFailsTheRun() throws Exception {
        AtomicInteger n = new AtomicInteger();
        Function<List<String>, String> dies = cmd -> cmd.get(0).equals("PING") ? "+PONG\r\n"
                : n.incrementAndGet() > 30 ? null : "+OK\r\n";
        try (FakeServer s = new FakeServer(dies)) {
            Run r = run(args(s, "-c", "2", "-n", "100", "-A", "OK", "-Q", "SET", "a", "b"));
            assertEquals(1, r.exit());
            assertTrue(r.err().contains("closed"), r.err());
            // The report counts what was answered, not what was asked for.
            assertTrue(r.out().startsWith("  30 requests completed in "), r.out());
        }
    }

    @Test
    void nothingListeningIsAFailure() throws Exception {
        int port;
        try (java.net.ServerSocket ss = new java.net.ServerSocket(0)) {
            port = ss.getLocalPort();
        }
        Run r = run("-p", Integer.toString(port), "-c", "2", "-n", "5", "-A", "OK", "-Q", "PING");
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("cannot connect"), r.err());
    }

    @Test
    void loopRunsBoundedRoundsAndKeysGoOnCounting() throws Exception {
        try (FakeServer s = new FakeServer(OK)) {
            Path json = tmp.resolve("loop.json");
            Run r = run(args(s, "-c", "2", "-n", "10", "-s", "-q", "-l", "--loops", "3", "--json", json.toString(),
                    "-A", "OK", "-Q", "SET", "k_000000000001", "v"));
            assertEquals(0, r.exit(), r.err());
            assertEquals(3, r.out().split("requests per second").length - 1, r.out());
            Set<Long> keys = new HashSet<>();
            for (List<String> req : s.requests()) {
                keys.add(Long.parseLong(req.get(1).substring(2)));
            }
            assertEquals(30, keys.size());
            assertTrue(keys.contains(1L) && keys.contains(30L));
            Map<String, Object> j = Json.obj(Json.parse(Files.readString(json)));
            assertEquals(30.0, j.get("requests"));
            assertEquals(3.0, j.get("rounds"));
        }
    }

    @Test
    void nioTransportAndSeveralThreadsWorkToo() throws Exception {
        try (FakeServer s = new FakeServer(OK)) {
            Run r = run(args(s, "--transport", "nio", "--threads", "2", "-c", "8", "-n", "500", "-s",
                    "-A", "OK", "-Q", "SET", "k_000000000001", "v"));
            assertEquals(0, r.exit(), r.err());
            Set<String> keys = new HashSet<>();
            for (List<String> req : s.requests()) {
                keys.add(req.get(1));
            }
            assertEquals(500, keys.size());
            assertTrue(r.out().contains("(500 samples)"), r.out());
        }
    }

    @Test
    void usageErrorsExitWithTwo() {
        Run r = run("-A", "OK");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("Usage: gen-benchmark"), r.err());
        assertEquals(0, run("--help").exit());
    }
}
