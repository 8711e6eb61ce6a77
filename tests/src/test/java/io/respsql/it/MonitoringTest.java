package io.respsql.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What monitoring tools read, over the wire as RESP2: INFO tables / keyspace / cpu as INFO
 * parsers split them, DBSIZE, LATENCY, CLIENT LIST's fd, COMMAND DOCS arguments, SHOW INDEXES,
 * SCAN / TYPE / MEMORY USAGE over the tables.
 */
class MonitoringTest extends ServerTestBase {
    private RespConnection c;

    @BeforeEach
    void fresh() throws Exception {
        c = server.raw();
        assertEquals("+OK\r\n", c.call("FLUSHALL"));
        assertEquals("+OK\r\n", c.call("CONFIG", "RESETSTAT"));
    }

    /** How INFO parsers (redis-py's, the exporter's) read a section: one value per key, split at the first ':'. */
    private static Map<String, String> parseInfo(String bulk) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : bulk.split("\r\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            fields.put(line.substring(0, colon), line.substring(colon + 1));
        }
        return fields;
    }

    private Map<String, String> info(String section) throws Exception {
        return parseInfo((String) Resp2.parse(c.call("INFO", section)));
    }

    /** {@code rows=3,data_bytes=...} as a map. */
    private static Map<String, String> values(String v) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String kv : v.split(",")) {
            int eq = kv.indexOf('=');
            out.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return out;
    }

    @Test
    void infoTablesHasOneKeyPerTableWithEscapedNames() throws Exception {
        c.call("CREATE", "TABLE", "emp", "(id int primary key, div int)");
        c.call("CREATE", "INDEX", "emp:div:index", "ON", "emp", "(div)");
        c.call("INSERT", "INTO", "emp", "VALUES", "(1,1),(2,1),(3,2)");
        c.call("CREATE", "TABLE", "a:b", "(id int)");
        c.call("INSERT", "INTO", "a:b", "VALUES", "(1)");
        c.call("CREATE", "TABLE", "été", "(id int)");
        Map<String, String> tables = info("tables");
        assertEquals(Set.of("table_emp", "table_a%3Ab", "table_%C3%A9t%C3%A9"), tables.keySet(), tables.toString());
        Map<String, String> emp = values(tables.get("table_emp"));
        assertEquals("3", emp.get("rows"));
        assertEquals("2", emp.get("indexes"));
        assertTrue(Long.parseLong(emp.get("data_bytes")) > 0 && Long.parseLong(emp.get("index_bytes")) > 0, emp.toString());
        assertEquals("1", values(tables.get("table_a%3Ab")).get("rows"));
        assertEquals("0", values(tables.get("table_%C3%A9t%C3%A9")).get("rows"));
        // MEMORY USAGE answers the same bytes (what redis-cli --memkeys adds up).
        assertEquals(Long.parseLong(emp.get("data_bytes")) + Long.parseLong(emp.get("index_bytes")),
                Resp2.parse(c.call("MEMORY", "USAGE", "emp")));
        assertNull(Resp2.parse(c.call("MEMORY", "USAGE", "nosuch")));
        assertEquals("-ERR syntax error\r\n", c.call("MEMORY", "USAGE", "emp", "FOO", "1"));
    }

    @Test
    void keyspaceCountsTablesAsDbsizeDoes() throws Exception {
        String empty = (String) Resp2.parse(c.call("INFO", "keyspace"));
        assertEquals("# Keyspace\r\n", empty, "no db0 line without tables, as Redis");
        assertEquals(":0\r\n", c.call("DBSIZE"));
        c.call("CREATE", "TABLE", "t1", "(id int)");
        c.call("CREATE", "TABLE", "t2", "(id int)");
        c.call("CREATE", "INDEX", "t2:i", "ON", "t2", "(id)");
        assertEquals("keys=2,expires=0,avg_ttl=0", info("keyspace").get("db0"));
        assertEquals(":2\r\n", c.call("DBSIZE"));
        c.call("DROP", "TABLE", "t1");
        assertEquals("keys=1,expires=0,avg_ttl=0", info("keyspace").get("db0"));
        assertEquals(":1\r\n", c.call("DBSIZE"));
        Map<String, String> all = parseInfo((String) Resp2.parse(c.call("INFO")));
        assertEquals("keys=1,expires=0,avg_ttl=0", all.get("db0"), "default INFO includes keyspace");
    }

    @Test
    void cpuComesFromTheProcess() throws Exception {
        Map<String, String> cpu = info("cpu");
        for (String f : List.of("used_cpu_sys", "used_cpu_user", "used_cpu_sys_children", "used_cpu_user_children",
                "used_cpu_sys_main_thread", "used_cpu_user_main_thread")) {
            assertTrue(cpu.get(f) != null && cpu.get(f).matches("\\d+\\.\\d{6}"), f + " in " + cpu);
        }
        double before = Double.parseDouble(cpu.get("used_cpu_user")) + Double.parseDouble(cpu.get("used_cpu_sys"));
        // The JVM running this test has used CPU; work on the server adds more.
        assertTrue(before > 0, cpu.toString());
        c.call("CREATE", "TABLE", "busy", "(id int primary key, v int)");
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 20000; i++) {
            rows.append(i == 0 ? "" : ",").append('(').append(i).append(',').append(i % 7).append(')');
        }
        long deadline = System.nanoTime() + 20_000_000_000L;
        double after;
        do {
            c.call("SQL", "INSERT INTO busy VALUES " + rows);
            c.call("DELETE", "FROM", "busy", "WHERE", "v >= 0");
            Map<String, String> now = info("cpu");
            after = Double.parseDouble(now.get("used_cpu_user")) + Double.parseDouble(now.get("used_cpu_sys"));
        } while (after <= before && System.nanoTime() < deadline);
        assertTrue(after > before, "CPU time did not grow: " + before + " -> " + after);
        assertTrue(parseInfo((String) Resp2.parse(c.call("INFO"))).containsKey("used_cpu_user"), "default INFO has cpu");
    }

    @SuppressWarnings("unchecked")
    @Test
    void latencyHistogramFromTheCommandStatistics() throws Exception {
        for (int i = 0; i < 50; i++) {
            assertEquals("+PONG\r\n", c.call("PING"));
        }
        c.call("CONFIG", "GET", "maxmemory");
        List<Object> reply = (List<Object>) Resp2.parse(c.call("LATENCY", "HISTOGRAM", "ping", "config", "nosuch"));
        Map<String, Object> byName = pairs(reply);
        // A container stands for its subcommands (CONFIG RESETSTAT counts itself after the reset, as in Redis).
        assertEquals(Set.of("ping", "config|get", "config|resetstat"), byName.keySet(), reply.toString());
        Map<String, Object> ping = pairs((List<Object>) byName.get("ping"));
        assertEquals(50L, ping.get("calls"));
        List<Object> buckets = (List<Object>) ping.get("histogram_usec");
        assertTrue(!buckets.isEmpty() && buckets.size() % 2 == 0, buckets.toString());
        long lastBound = 0;
        long lastCount = 0;
        for (int i = 0; i < buckets.size(); i += 2) {
            long bound = (Long) buckets.get(i);
            long count = (Long) buckets.get(i + 1);
            assertTrue(bound > lastBound && count > lastCount, "cumulative buckets: " + buckets);
            lastBound = bound;
            lastCount = count;
        }
        assertEquals(50L, lastCount, "the last bucket holds every call");
        // No arguments: every command called so far, including LATENCY HISTOGRAM itself.
        Map<String, Object> everything = pairs((List<Object>) Resp2.parse(c.call("LATENCY", "HISTOGRAM")));
        assertTrue(everything.keySet().containsAll(List.of("ping", "config|get", "latency|histogram")), everything.toString());
        assertEquals("+OK\r\n", c.call("CONFIG", "RESETSTAT"));
        assertEquals("*0\r\n", c.call("LATENCY", "HISTOGRAM", "ping"));
    }

    @Test
    void latencyMonitorOffRepliesAsRedis() throws Exception {
        assertEquals(List.of("latency-monitor-threshold", "0"), Resp2.parse(c.call("CONFIG", "GET", "latency-monitor-threshold")));
        c.call("SQL", "INSERT INTO nosuch VALUES (1)");
        assertEquals("*0\r\n", c.call("LATENCY", "LATEST"));
        assertEquals("*0\r\n", c.call("LATENCY", "HISTORY", "command"));
        assertEquals(":0\r\n", c.call("LATENCY", "RESET"));
        assertEquals("-ERR No samples available for event 'command'\r\n", c.call("LATENCY", "GRAPH", "command"));
        assertEquals("+OK\r\n", c.call("CONFIG", "RESETSTAT"));
        String quiet = (String) Resp2.parse(c.call("LATENCY", "DOCTOR"));
        assertFalse(quiet.contains("- ping:"), quiet);
        assertTrue(quiet.contains("latency monitor is off"), quiet);
        c.call("PING");
        String doctor = (String) Resp2.parse(c.call("LATENCY", "DOCTOR"));
        assertTrue(doctor.contains("- ping: 1 calls"), doctor);
        assertTrue(c.call("LATENCY", "HELP").startsWith("*"));
        assertEquals("-ERR unknown subcommand 'NOPE'. Try LATENCY HELP.\r\n", c.call("LATENCY", "NOPE"));
        assertEquals("-ERR wrong number of arguments for 'latency|history' command\r\n", c.call("LATENCY", "HISTORY"));
        String info = c.call("COMMAND", "INFO", "latency");
        assertTrue(info.contains("latency|histogram") && info.contains("@admin"), info);
    }

    @SuppressWarnings("unchecked")
    @Test
    void latencyMonitorRecordsSlowCommands() throws Exception {
        try {
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "latency-monitor-threshold", "1"));
            c.call("CREATE", "TABLE", "slow", "(id int primary key, v int)");
            StringBuilder rows = new StringBuilder();
            for (int i = 0; i < 50000; i++) {
                rows.append(i == 0 ? "" : ",").append('(').append(i).append(',').append(i % 7).append(')');
            }
            long before = System.currentTimeMillis() / 1000;
            // Inserting 50,000 rows and deleting them take well over a millisecond each.
            c.call("SQL", "INSERT INTO slow VALUES " + rows);
            c.call("DELETE", "FROM", "slow", "WHERE", "v >= 0");
            long after = System.currentTimeMillis() / 1000 + 1;
            List<Object> latest = (List<Object>) Resp2.parse(c.call("LATENCY", "LATEST"));
            assertEquals(1, latest.size(), latest.toString());
            List<Object> command = (List<Object>) latest.get(0);
            assertEquals("command", command.get(0));
            long time = (Long) command.get(1);
            long last = (Long) command.get(2);
            long max = (Long) command.get(3);
            assertTrue(time >= before - 1 && time <= after, latest.toString());
            assertTrue(last >= 1 && max >= last, latest.toString());
            List<Object> history = (List<Object>) Resp2.parse(c.call("LATENCY", "HISTORY", "command"));
            assertTrue(!history.isEmpty() && history.size() <= 2, history.toString());
            long highest = 0;
            for (Object sample : history) {
                highest = Math.max(highest, (Long) ((List<Object>) sample).get(1));
            }
            assertEquals(max, highest, "the max is the highest sample");
            assertTrue(((String) Resp2.parse(c.call("LATENCY", "GRAPH", "command"))).startsWith("command - high " + max + " ms"));
            assertTrue(((String) Resp2.parse(c.call("LATENCY", "DOCTOR"))).contains("- command: "));
            // PING is fast and far below 1 ms: no fast-command event.
            c.call("PING");
            assertEquals("*0\r\n", c.call("LATENCY", "HISTORY", "fast-command"));
            assertEquals(":0\r\n", c.call("LATENCY", "RESET", "fast-command"));
            assertEquals(":1\r\n", c.call("LATENCY", "RESET"));
            assertEquals("*0\r\n", c.call("LATENCY", "LATEST"));
        } finally {
            c.call("CONFIG", "SET", "latency-monitor-threshold", "0");
        }
    }

    @Test
    void clientListShowsTheSocketsFd() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "Linux /proc");
        try (RespConnection other = server.raw()) {
            long myId = (Long) Resp2.parse(c.call("CLIENT", "ID"));
            long otherId = (Long) Resp2.parse(other.call("CLIENT", "ID"));
            Map<Long, Integer> fds = new LinkedHashMap<>();
            for (String line : ((String) Resp2.parse(c.call("CLIENT", "LIST"))).split("\n")) {
                Map<String, String> f = new LinkedHashMap<>();
                for (String kv : line.split(" ")) {
                    f.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
                }
                fds.put(Long.parseLong(f.get("id")), Integer.parseInt(f.get("fd")));
            }
            int mine = fds.get(myId);
            int theirs = fds.get(otherId);
            assertNotEquals(mine, theirs);
            // The server runs in this JVM: its descriptors are this process's sockets.
            for (int fd : List.of(mine, theirs)) {
                assertTrue(fd >= 0, fds.toString());
                assertTrue(Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString().startsWith("socket:["), "fd " + fd);
            }
            assertTrue(((String) Resp2.parse(other.call("CLIENT", "INFO"))).contains(" fd=" + theirs + " "));
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void commandDocsDescribeTheSqlArguments() throws Exception {
        Map<String, Object> docs = pairs((List<Object>) Resp2.parse(c.call("COMMAND", "DOCS", "select", "show", "scan")));
        assertEquals(Set.of("select", "show", "scan"), docs.keySet());
        Map<String, Object> select = pairs((List<Object>) docs.get("select"));
        assertEquals("sql", select.get("group"));
        List<Object> args = (List<Object>) select.get("arguments");
        List<String> names = new ArrayList<>();
        Map<String, Object> from = null;
        for (Object a : args) {
            Map<String, Object> arg = pairs((List<Object>) a);
            names.add((String) arg.get("name"));
            if ("FROM".equals(arg.get("token"))) {
                from = arg;
            }
        }
        assertEquals(List.of("columns", "table", "condition", "order", "limit"), names);
        assertEquals("string", from.get("type"));
        Map<String, Object> where = pairs((List<Object>) args.get(2));
        assertEquals("WHERE", where.get("token"));
        assertEquals(List.of("optional"), where.get("flags"));
        Map<String, Object> limit = pairs((List<Object>) args.get(4));
        assertEquals("block", limit.get("type"));
        assertEquals(2, ((List<Object>) limit.get("arguments")).size());
        Map<String, Object> show = pairs((List<Object>) ((List<Object>) pairs((List<Object>) docs.get("show")).get("arguments")).get(0));
        assertEquals("oneof", show.get("type"));
        // Every command documents itself; a container its subcommands.
        Map<String, Object> latency = pairs((List<Object>) pairs((List<Object>) Resp2.parse(c.call("COMMAND", "DOCS", "latency"))).get("latency"));
        assertTrue(pairs((List<Object>) latency.get("subcommands")).containsKey("latency|histogram"));
    }

    @Test
    void showIndexes() throws Exception {
        c.call("CREATE", "TABLE", "emp", "(id int primary key, div int, name text)");
        c.call("CREATE", "INDEX", "emp:div:index", "ON", "emp", "(div)");
        c.call("CREATE", "TABLE", "dept", "(code int primary key)");
        assertEquals(List.of("emp:id:pk ON emp (id) PRIMARY KEY", "emp:div:index ON emp (div)"),
                Resp2.parse(c.call("SHOW", "INDEXES", "FROM", "emp")));
        assertEquals(List.of("emp:id:pk ON emp (id) PRIMARY KEY", "emp:div:index ON emp (div)",
                "dept:code:pk ON dept (code) PRIMARY KEY"), Resp2.parse(c.call("SHOW", "INDEXES")));
        assertEquals(List.of("dept:code:pk ON dept (code) PRIMARY KEY"), Resp2.parse(c.call("SQL", "SHOW INDEX IN dept")));
        assertEquals(List.of("emp", "dept"), Resp2.parse(c.call("SHOW", "TABLES")));
        assertEquals("-ERR table 'nope' does not exist\r\n", c.call("SHOW", "INDEXES", "FROM", "nope"));
        assertTrue(c.call("SHOW", "COLUMNS").startsWith("-ERR syntax error: expected TABLES or INDEXES after SHOW, found 'COLUMNS'"));
        c.call("DROP", "INDEX", "emp:div:index");
        assertEquals(List.of("emp:id:pk ON emp (id) PRIMARY KEY"), Resp2.parse(c.call("SHOW", "INDEXES", "FROM", "emp")));
    }

    @SuppressWarnings("unchecked")
    @Test
    void scanVisitsEveryTableOnceWhileTablesComeAndGo() throws Exception {
        Set<String> kept = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            c.call("CREATE", "TABLE", "s" + i, "(id int)");
            if (i % 2 == 0) {
                kept.add("s" + i);
            }
        }
        List<String> seen = new ArrayList<>();
        String cursor = "0";
        int calls = 0;
        do {
            List<Object> r = (List<Object>) Resp2.parse(c.call("SCAN", cursor, "COUNT", "7"));
            cursor = (String) r.get(0);
            List<Object> keys = (List<Object>) r.get(1);
            assertTrue(keys.size() <= 7, keys.toString());
            for (Object k : keys) {
                seen.add((String) k);
            }
            // Meanwhile odd tables are dropped and new ones created.
            c.call("DROP", "TABLE", "IF", "EXISTS", "s" + (2 * calls + 1));
            c.call("CREATE", "TABLE", "n" + calls, "(id int)");
            calls++;
        } while (!cursor.equals("0") && calls < 100);
        assertEquals("0", cursor);
        assertTrue(seen.containsAll(kept), "missing " + kept.stream().filter(k -> !seen.contains(k)).toList());
        assertEquals(seen.size(), new HashSet<>(seen).size(), "a table returned twice: " + seen);

        List<Object> all = (List<Object>) Resp2.parse(c.call("SCAN", "0", "MATCH", "s1*", "COUNT", "1000", "TYPE", "table"));
        assertEquals("0", all.get(0));
        for (Object k : (List<Object>) all.get(1)) {
            assertTrue(((String) k).startsWith("s1"), k.toString());
        }
        assertTrue(((List<Object>) all.get(1)).contains("s10"));
        assertEquals(List.of("0", List.of()), Resp2.parse(c.call("SCAN", "0", "COUNT", "1000", "TYPE", "string")));
        assertEquals("+table\r\n", c.call("TYPE", "s0"));
        assertEquals("+table\r\n", c.call("TYPE", "S0"));
        assertEquals("+none\r\n", c.call("TYPE", "nosuch"));
        assertEquals("-ERR invalid cursor\r\n", c.call("SCAN", "abc"));
        assertEquals("-ERR syntax error\r\n", c.call("SCAN", "0", "COUNT", "0"));
        assertEquals("-ERR value is not an integer or out of range\r\n", c.call("SCAN", "0", "COUNT", "x"));
        assertEquals("-ERR syntax error\r\n", c.call("SCAN", "0", "MATCH"));
    }

    /** A flat key/value array (a RESP2 map) as a map. */
    private static Map<String, Object> pairs(List<Object> flat) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < flat.size(); i += 2) {
            m.put((String) flat.get(i), flat.get(i + 1));
        }
        return m;
    }

    /** A RESP2 reply as Java values: simple and bulk strings as String, integers as Long, arrays as List, nulls as null. */
    static final class Resp2 {
        private final String s;
        private int pos;

        private Resp2(String s) {
            this.s = s;
        }

        static Object parse(String reply) {
            Resp2 p = new Resp2(reply);
            Object v = p.value();
            assertEquals(reply.length(), p.pos, "one reply, nothing after it: " + reply);
            return v;
        }

        private String line() {
            int end = s.indexOf("\r\n", pos);
            String l = s.substring(pos, end);
            pos = end + 2;
            return l;
        }

        private Object value() {
            char type = s.charAt(pos++);
            String l = line();
            switch (type) {
                case '+':
                    return l;
                case '-':
                    throw new AssertionError("error reply: " + l);
                case ':':
                    return Long.parseLong(l);
                case '$': {
                    int n = Integer.parseInt(l);
                    if (n < 0) {
                        return null;
                    }
                    // Lengths are bytes; the tests' bulk strings beyond ASCII are INFO's, read whole.
                    byte[] rest = s.substring(pos).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    String v = new String(rest, 0, n, java.nio.charset.StandardCharsets.UTF_8);
                    pos += v.length();
                    assertEquals("\r\n", s.substring(pos, pos + 2));
                    pos += 2;
                    return v;
                }
                case '*': {
                    int n = Integer.parseInt(l);
                    if (n < 0) {
                        return null;
                    }
                    List<Object> out = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        out.add(value());
                    }
                    return out;
                }
                default:
                    throw new AssertionError("not RESP2: " + type + l);
            }
        }
    }
}
