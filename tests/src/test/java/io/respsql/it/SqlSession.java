package io.respsql.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A raw connection that sends SQL statements written as redis-cli command lines
 * ({@code UPDATE message_list SET "count=100" WHERE "fk=000000000001"}), split into RESP
 * arguments as {@link Split} says, and returns each reply's exact wire text.
 */
final class SqlSession implements AutoCloseable {
    private final RespConnection conn;
    private final Split split;

    SqlSession(TestServer server, Split split) {
        this.conn = server.raw();
        this.split = split;
    }

    /** A session sending each statement as the single argument of {@code SQL}. */
    SqlSession(TestServer server) {
        this(server, Split.SQL);
    }

    RespConnection raw() {
        return conn;
    }

    Split split() {
        return split;
    }

    /** Sends a redis-cli command line, split per this session; returns the raw reply. */
    String call(String commandLine) {
        return send(split.apply(ShellWords.split(commandLine)));
    }

    /** Asserts the exact raw reply to a redis-cli command line. */
    void expect(String commandLine, String reply) {
        assertEquals(reply, call(commandLine), () -> split + ": " + commandLine);
    }

    /**
     * For a statement without ORDER BY: the reply is a multi-bulk of exactly these rows, in
     * whatever order.
     */
    void expectRowsInAnyOrder(String commandLine, String... rows) {
        String reply = call(commandLine);
        assertTrue(reply.startsWith("*" + rows.length + "\r\n"), () -> split + ": " + commandLine + " replied " + reply);
        List<String> actual = new ArrayList<>(Replies.bulks(reply));
        List<String> expected = new ArrayList<>(List.of(rows));
        Collections.sort(actual);
        Collections.sort(expected);
        assertEquals(expected, actual, () -> split + ": " + commandLine);
    }

    /** Sends {@code statement} as the one argument of SQL; returns the raw reply. */
    String sql(String statement) {
        return send("SQL", statement);
    }

    /** Asserts the exact raw reply to {@code SQL "<statement>"}. */
    void expectSql(String statement, String reply) {
        assertEquals(reply, sql(statement), statement);
    }

    /** Sends the arguments as they are; returns the raw reply. A null bulk fails the test. */
    String send(String... args) {
        String reply;
        try {
            reply = conn.call(args);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertFalse(reply.contains(Resp.NULL_BULK), () -> "null bulk in reply to " + String.join(" ", args) + ": " + reply);
        return reply;
    }

    /** The connection still answers. */
    void assertAlive() {
        assertEquals(Resp.PONG, send("PING"));
    }

    /**
     * Sends a statement that must fail and returns its error reply, after checking that the
     * connection still answers and that no table changed (every table's DUMP is the same).
     */
    String rejected(String... args) {
        Map<String, List<String>> before = snapshot();
        String reply = send(args);
        assertTrue(reply.startsWith("-ERR "), () -> "not an error: " + reply + " for " + String.join(" ", args));
        assertAlive();
        assertEquals(before, snapshot(), () -> "data changed by the failed " + String.join(" ", args));
        return reply;
    }

    /** {@link #rejected} for {@code SQL "<statement>"}, asserting the exact error message. */
    void expectRejectedSql(String statement, String error) {
        assertEquals(Resp.error(error), rejected("SQL", statement), statement);
    }

    /** {@link #rejected} for a redis-cli command line split per this session, asserting the exact message. */
    void expectRejected(String commandLine, String error) {
        assertEquals(Resp.error(error), rejected(split.apply(ShellWords.split(commandLine))), () -> split + ": " + commandLine);
    }

    /** The INFO line that ends every DESC reply. */
    record TableInfo(String line, long rows, long dataBytes, long indexBytes) {
    }

    private static final Pattern INFO = Pattern.compile(
            "INFO: rows=(\\d+) data_bytes=(\\d+) index_bytes=(\\d+) bytes_per_row=(?:0|\\d+\\.\\d\\d)");

    /** The INFO line of {@code DESC table}, checked against its documented form. */
    TableInfo info(String table) {
        List<String> lines = Replies.bulks(sql("DESC " + table));
        String line = lines.get(lines.size() - 1);
        Matcher m = INFO.matcher(line);
        assertTrue(m.matches(), line);
        return new TableInfo(line, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
    }

    List<String> tables() {
        return Replies.bulks(sql("SHOW TABLES"));
    }

    /** DUMP of every table, by name: the full state of the data. */
    Map<String, List<String>> snapshot() {
        Map<String, List<String>> all = new LinkedHashMap<>();
        for (String t : tables()) {
            all.put(t, Replies.bulks(sql("DUMP " + t)));
        }
        return all;
    }

    /** Drops every table (and so every index) and every view (SHOW TABLES lists views after the tables). */
    void dropAllTables() {
        for (String t : tables()) {
            String reply = sql("DROP TABLE " + t);
            if (reply.startsWith("-ERR '" + t + "' is a view")) {
                reply = sql("DROP VIEW " + t);
                assertEquals(Resp.OK, reply, t);
                continue;
            }
            assertTrue(reply.startsWith(":"), reply);
        }
    }

    @Override
    public void close() {
        try {
            conn.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Decoding of raw replies back into values. */
    static final class Replies {
        private Replies() {
        }

        /** The bulk strings of a multi-bulk reply; fails on any other reply. */
        static List<String> bulks(String raw) {
            assertTrue(raw.startsWith("*"), () -> "not a multi-bulk: " + raw);
            byte[] b = raw.getBytes(StandardCharsets.UTF_8);
            int pos = lineEnd(b, 0);
            int n = Integer.parseInt(new String(b, 1, pos - 1, StandardCharsets.US_ASCII));
            pos += 2;
            List<String> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                assertEquals('$', (char) b[pos], () -> "not a bulk string in: " + raw);
                int eol = lineEnd(b, pos);
                int len = Integer.parseInt(new String(b, pos + 1, eol - pos - 1, StandardCharsets.US_ASCII));
                out.add(new String(b, eol + 2, len, StandardCharsets.UTF_8));
                pos = eol + 2 + len + 2;
            }
            assertEquals(b.length, pos, () -> "trailing bytes in: " + raw);
            return out;
        }

        private static int lineEnd(byte[] b, int from) {
            for (int i = from; i + 1 < b.length; i++) {
                if (b[i] == '\r' && b[i + 1] == '\n') {
                    return i;
                }
            }
            throw new AssertionError("no CRLF after byte " + from);
        }

        static long integer(String raw) {
            assertTrue(raw.startsWith(":") && raw.endsWith("\r\n"), () -> "not an integer: " + raw);
            return Long.parseLong(raw.substring(1, raw.length() - 2));
        }
    }
}
