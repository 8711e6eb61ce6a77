package io.respsql.it.process;

import io.respsql.it.RespConnection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Data that exercises everything a snapshot or log must carry (every column type, -0.0 and
 * fractions, quotes, UTF-8 and empty text, secondary indexes, deleted rows, updated primary keys,
 * dropped tables and indexes), and the raw DUMP of every table to compare before and after.
 */
final class Fixture {
    private Fixture() {
    }

    /** Tables, indexes and rows, with deletes and primary-key updates. */
    static List<String> first() {
        List<String> s = new ArrayList<>();
        s.add("CREATE TABLE types (id INT PRIMARY KEY, b BIGINT, f FLOAT, s TEXT)");
        s.add("CREATE INDEX types:b ON types (b)");
        s.add("CREATE INDEX types:f ON types (f)");
        s.add("CREATE INDEX types:s:index ON types (s)");
        s.add("INSERT INTO types VALUES (1, 9223372036854775807, -0.0, 'it''s'),"
                + " (2, -9223372036854775808, 0.1, 'héllo wörld 日本語 🎉'), (3, 0, 0.30000000000000004, ''),"
                + " (4, 42, -2.5, 'a,b \"quoted\" \\ back'), (-2147483648, 7, 3.141592653589793, 'min'),"
                + " (2147483647, 8, 1.0E300, 'max'), (5, -1, 4.9E-324, ' spaces  ')");
        StringBuilder many = new StringBuilder("INSERT INTO types VALUES ");
        for (int i = 10; i < 80; i++) {
            many.append(i == 10 ? "" : ", ").append('(').append(i).append(", ").append(i * 1_000_003L)
                    .append(", ").append(i / 7.0).append(", 'row ").append(i).append("')");
        }
        s.add(many.toString());
        s.add("DELETE FROM types WHERE id BETWEEN 20 AND 29");
        s.add("UPDATE types SET id = id + 1000 WHERE id BETWEEN 40 AND 45");
        s.add("UPDATE types SET s = 'changed', f = f * 2 WHERE id = 50");
        s.add("CREATE TABLE names (name TEXT PRIMARY KEY, n BIGINT)");
        s.add("CREATE INDEX names:n ON names (n)");
        s.add("INSERT INTO names VALUES ('zeta', 1), ('alpha', 2), ('', 3), ('ÿ', 4), ('o''brien', 5)");
        s.add("UPDATE names SET name = 'beta' WHERE name = 'zeta'");
        s.add("DELETE FROM names WHERE n = 3");
        s.add("CREATE TABLE empty (k BIGINT PRIMARY KEY, x INT)");
        s.add("CREATE INDEX empty:x ON empty (x)");
        s.add("CREATE TABLE gone (a INT)");
        s.add("INSERT INTO gone VALUES (1)");
        s.add("DROP TABLE gone");
        s.add("CREATE INDEX types:tmp ON types (b)");
        s.add("DROP INDEX types:tmp");
        return s;
    }

    /** More changes of every kind, on top of {@link #first()}. */
    static List<String> second() {
        List<String> s = new ArrayList<>();
        s.add("UPDATE types SET b = b + 1, f = f - 0.5 WHERE id BETWEEN 30 AND 39");
        s.add("DELETE FROM types WHERE id = 1");
        s.add("INSERT INTO types VALUES (1, 5, -0.0, 'again')");
        s.add("UPDATE names SET name = 'gamma', n = 99 WHERE name = 'alpha'");
        s.add("DROP INDEX types:f");
        s.add("INSERT INTO empty VALUES (5, 5)");
        s.add("DELETE FROM empty WHERE k = 5");
        s.add("UPDATE types SET id = id - 2000 WHERE id BETWEEN 1040 AND 1042");
        s.add("CREATE TABLE later (id BIGINT PRIMARY KEY, t TEXT)");
        s.add("INSERT INTO later VALUES (1, 'x'), (2, '')");
        return s;
    }

    /** Runs each statement through {@code SQL}; fails on any error reply. */
    static void run(ServerProcess server, List<String> statements) {
        RespConnection c = server.raw();
        for (String st : statements) {
            String reply = call(c, "SQL", st);
            assertFalse(reply.startsWith("-"), () -> st + " -> " + reply);
        }
    }

    static String call(RespConnection c, String... args) {
        try {
            return c.call(args);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Table name → the raw wire reply of {@code DUMP table}, for every table. */
    static Map<String, String> dumps(ServerProcess server) {
        RespConnection c = server.raw();
        String tables = call(c, "SHOW", "TABLES");
        Map<String, String> out = new TreeMap<>();
        Matcher m = Pattern.compile("\\$\\d+\r\n([^\r]*)\r\n").matcher(tables);
        while (m.find()) {
            out.put(m.group(1), call(c, "DUMP", m.group(1)));
        }
        assertFalse(out.isEmpty(), "no tables: " + tables);
        return out;
    }

    /** The value of {@code field} in {@code INFO section}, or null when absent. */
    static String info(ServerProcess server, String section, String field) {
        return info(server.raw(), section, field);
    }

    static String info(RespConnection c, String section, String field) {
        String text = call(c, "INFO", section);
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(field) + ":([^\r\n]*)").matcher(text);
        return m.find() ? m.group(1) : null;
    }

    /**
     * Polls {@code INFO persistence} until {@code field} reads {@code value} (a background save or
     * rewrite has no event a client can wait on; the poll is bounded).
     */
    static void awaitInfo(ServerProcess server, String field, String value, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        RespConnection c = server.raw();
        String now;
        while (!value.equals(now = info(c, "persistence", field))) {
            assertTrue(System.nanoTime() < deadline, "INFO persistence " + field + " is " + now + ", not " + value
                    + " after " + timeout);
            Thread.sleep(10);
        }
    }
}
