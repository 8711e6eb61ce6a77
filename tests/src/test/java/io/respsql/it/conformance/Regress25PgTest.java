package io.respsql.it.conformance;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 25's regression files, the causes taken on the regress25 branch, against PostgreSQL 15:
 * DATE and TIMESTAMP {@code 'infinity'}/{@code '-infinity'} (stored, compared, sorted, cast,
 * shifted, extracted, truncated, refused where PostgreSQL refuses), {@code ANALYZE} and
 * {@code VACUUM} (which check their tables), and the PostgreSQL settings a RESP session may SET
 * (the values RespSQL follows accepted, the others refused rather than ignored).
 */
class Regress25PgTest {
    private static final List<String> LOAD = List.of(
            "CREATE TABLE inf (id int4 PRIMARY KEY, d date, t timestamp)",
            "INSERT INTO inf VALUES (1, 'infinity', 'infinity'), (2, '-infinity', '-infinity'),"
                    + " (3, '2000-02-29', '2000-02-29 10:11:12.5'), (4, NULL, NULL), (5, '1970-01-01', 'epoch'),"
                    + " (6, ' Infinity ', 'INFINITY'), (7, '0044-03-15 BC', '1999-12-31 23:59:59')");

    private static final String[] SAME = {
        "SELECT id, d, t FROM inf ORDER BY id",
        "SELECT id FROM inf ORDER BY d NULLS FIRST, id",
        "SELECT id FROM inf ORDER BY t DESC NULLS LAST, id",
        "SELECT id FROM inf WHERE d > date '2000-01-01' ORDER BY id",
        "SELECT id FROM inf WHERE t < timestamp '1990-01-01' ORDER BY id",
        "SELECT id FROM inf WHERE d = 'infinity' ORDER BY id",
        "SELECT min(d), max(d), min(t), max(t), count(DISTINCT d) FROM inf",
        "SELECT id, CASE WHEN isfinite(d) THEN 'y' ELSE 'n' END, CASE WHEN isfinite(t) THEN 'y' ELSE 'n' END FROM inf ORDER BY id",
        "SELECT id, d::timestamp, t::date FROM inf ORDER BY id",
        "SELECT id, d + 1, d - 7, 3 + d FROM inf ORDER BY id",
        "SELECT id, t + interval '1 day', t - interval '1 mon', d + interval '2 hours' FROM inf ORDER BY id",
        "SELECT id, extract(year from t), extract(day from t), extract(hour from t) FROM inf ORDER BY id",
        "SELECT id, extract(epoch from t)::float8 FROM inf WHERE id IN (1, 2, 6, 7) ORDER BY id",
        "SELECT id, extract(century from d), extract(julian from d), extract(isoyear from d), extract(month from d),"
                + " extract(dow from d) FROM inf ORDER BY id",
        "SELECT id, date_part('millennium', t), date_part('decade', t), date_part('quarter', t) FROM inf ORDER BY id",
        "SELECT id, date_trunc('month', t), date_trunc('year', t) FROM inf ORDER BY id",
        "SELECT id, to_char(t, 'YYYY-MM-DD') FROM inf ORDER BY id",
        "SELECT id, t::text, d::text, 'x' || d FROM inf ORDER BY id",
        "SELECT 'infinity'::date, '-infinity'::date, 'infinity'::timestamp, '-INFINITY'::timestamp",
        "SELECT CASE WHEN 'infinity'::date > 'today'::date AND '-infinity'::date < 'today'::date AND 'infinity'::timestamp > now()"
                + " THEN 'ordered' END",
        "SELECT CASE WHEN date 'infinity' = timestamp 'infinity' AND date '-infinity' < timestamp '4713-01-01 BC' THEN 'same' END",
        "SELECT a.id, b.id FROM inf a JOIN inf b ON a.d = b.d ORDER BY 1, 2",
        "SELECT generate_series(timestamp '2022-01-01', timestamp 'infinity', interval '1 month') LIMIT 3",
        // review3 probes
        "SELECT id FROM inf WHERE d BETWEEN '-infinity' AND '2000-01-01' ORDER BY id",
        "SELECT id, date_trunc('day', t), t - interval '1 year', d + 10000000 FROM inf WHERE id IN (1, 2) ORDER BY id",
        "SELECT id, extract(dow from t), extract(week from d), date_part('doy', t) FROM inf ORDER BY id",
        "SELECT max(d) - 1, min(t) + interval '1 day' FROM inf",
        "SELECT id, to_char(d, 'YYYY'), extract(epoch from d) FROM inf ORDER BY id",
    };

    /** Column aliases on a table, Unicode and escape strings, string continuation, unistr and to_hex. */
    private static final String[] SAME_TEXT = {
        "SELECT * FROM inf AS x (a, b) ORDER BY a",
        "SELECT a, c FROM inf x (a, b, c) WHERE a < 4 ORDER BY a",
        "SELECT x.a, y.b FROM inf x (a, b) JOIN inf y (a2, b) ON x.a = y.a2 WHERE x.a IN (3, 5) ORDER BY 1",
        "SELECT x.b FROM inf x (a, b) JOIN inf y USING (t) WHERE y.id = 3",
        "SELECT U&'d\\0061t\\+000061', U&'d!0061t\\+000061' UESCAPE '!', U&'a\\\\b', U&' \\' UESCAPE '!', u&'\\00e9t\\00E9'",
        "SELECT U&\"d\\0061t\\+000061\", U&\"d*0061t*0061\" UESCAPE '*' FROM (SELECT 1 AS data) s",
        "SELECT E'd\\u0061t\\U00000061', E'\\101\\x42\\x4a', E'tab\\there', E'\\ud83d\\ude00'",
        "SELECT 'first line'\n' - next line'\n\t' - third line' AS three, 'a' || 'b'",
        "SELECT unistr('\\0064at\\+0000610'), unistr('d\\u0061t\\U000000610'), unistr('back\\\\slash'), unistr(NULL)",
        "SELECT CASE WHEN E'a'\n'\\n' = E'a\\n' THEN 'escaped' ELSE 'raw' END, E'a'\n'b'",
        "SELECT E'\\xZ', E'\\q'",
        "SELECT E'\\xc3\\xa9t\\303\\251', E'\\xe2\\x82\\xac = \\u20ac'",
        "SELECT to_hex(256*256*256 - 1), to_hex(-1), to_hex(256::bigint*256::bigint*256::bigint*256::bigint - 1),"
                + " to_hex(-1::int8), to_hex(0)",
    };

    private static final String[] ERRORS = {
        "SELECT date 'infinity' - date '2000-01-01'",
        "SELECT date '2000-01-01' - date '-infinity'",
        "SELECT timestamp 'infinity' - timestamp '2000-01-01'",
        "SELECT date 'infinitely'",
        "SELECT timestamp '-infinityx'",
        "SELECT timestamp '+infinity'",
        "SELECT U&'wrong: \\061'",
        "SELECT U&'wrong: \\+0061'",
        "SELECT U&'wrong: +0061' UESCAPE '+'",
        "SELECT U&'wrong: \\db99'",
        "SELECT E'\\u00'",
        "SELECT unistr('wrong: \\db99')",
        "SELECT unistr('wrong: \\xyz')",
        "SELECT unistr('wrong: \\+2FFFFF')",
        "SELECT to_hex(1.5)",
        "SELECT E'\\u0000'",
        "SELECT U&'\\0000'",
        "SELECT E'\\uD800'",
        "SELECT E'\\xff'",
        "SELECT E'\\xc3'",
        "SELECT E'\\xc3x'",
        "SELECT 'infinity'::timestamp - 'infinity'::timestamp",
        "ANALYZE no_such_table",
        "VACUUM no_such_table",
    };

    private static PgPair both;

    @BeforeAll
    static void start() throws Exception {
        both = PgPair.start("regress25", LOAD, true, c -> c.pgPort(0));
    }

    @AfterAll
    static void stop() throws Exception {
        if (both != null) {
            both.close();
        }
    }

    @Test
    void infinityRowsAreThoseOfPostgresql() throws Exception {
        List<String> failures = new ArrayList<>();
        for (String q : SAME) {
            String d = both.difference(q);
            if (d != null) {
                failures.add(d);
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void textFormsAreThoseOfPostgresql() throws Exception {
        List<String> failures = new ArrayList<>();
        for (String q : SAME_TEXT) {
            String d = both.difference(q);
            if (d != null) {
                failures.add(d);
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void errorsAreThoseOfPostgresql() throws Exception {
        List<String> failures = new ArrayList<>();
        String pgUrl = "jdbc:postgresql://127.0.0.1:" + both.pg.port() + "/" + both.pg.database();
        String ourUrl = "jdbc:postgresql://" + both.server.host() + ":" + both.server.server().pgPort() + "/respsql";
        try (java.sql.Connection p = java.sql.DriverManager.getConnection(pgUrl, both.pg.user(), "");
                java.sql.Connection r = java.sql.DriverManager.getConnection(ourUrl, "tester", "")) {
            for (String q : ERRORS) {
                String want = state(p, q);
                String got = state(r, q);
                if (want == null || !want.equals(got)) {
                    failures.add(q + ": PostgreSQL " + want + ", RespSQL " + got);
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void analyzeAndVacuumCheckTheirTablesAndChangeNothing() throws Exception {
        for (String q : List.of("ANALYZE", "ANALYZE inf", "analyze inf (d, t)", "VACUUM inf", "VACUUM ANALYZE inf",
                "VACUUM (VERBOSE, ANALYZE) inf", "VACUUM FULL")) {
            both.same(q); // both answer, neither with rows
            assertEquals("+OK\r\n", both.conn.call("SQL", q), q);
        }
        both.same("SELECT id, d, t FROM inf ORDER BY id");
        assertTrue(both.conn.call("SQL", "ANALYZE no_such_table").startsWith("-ERR relation \"no_such_table\" does not exist"));
        assertTrue(both.conn.call("SQL", "ANALYZE inf (d, nope)").startsWith("-ERR column \"nope\" of relation \"inf\" does not exist"));
        // the default dialect keeps its syntax error: SQLite's corpus has no ANALYZE
        assertEquals("+OK\r\n", both.conn.call("SQL", "SET sql_dialect TO sqlite"));
        try {
            assertTrue(both.conn.call("SQL", "ANALYZE inf").startsWith("-ERR syntax error"));
        } finally {
            assertEquals("+OK\r\n", both.conn.call("SQL", "SET sql_dialect TO postgresql"));
        }
    }

    @Test
    void settingsRespsqlFollowsAreAcceptedTheOthersRefused() throws Exception {
        assertEquals("+OK\r\n", both.conn.call("SQL", "SET datestyle TO iso"));
        assertEquals("+OK\r\n", both.conn.call("SQL", "SET DATESTYLE = 'ISO, MDY'"));
        assertEquals("$8\r\nISO, MDY\r\n", both.conn.call("SQL", "SHOW datestyle"));
        assertEquals("+OK\r\n", both.conn.call("SQL", "RESET datestyle"));
        assertEquals("+OK\r\n", both.conn.call("SQL", "SET IntervalStyle to postgres"));
        assertEquals("+OK\r\n", both.conn.call("SQL", "set standard_conforming_strings = on"));
        assertEquals("+OK\r\n", both.conn.call("SQL", "set escape_string_warning = off"));
        assertEquals("$3\r\noff\r\n", both.conn.call("SQL", "show escape_string_warning"));
        assertEquals("+OK\r\n", both.conn.call("SQL", "SET extra_float_digits = 0"));
        assertEquals("+OK\r\n", both.conn.call("SQL", "SET bytea_output TO escape"));
        // values RespSQL would not follow: refused, never kept
        assertTrue(both.conn.call("SQL", "SET datestyle TO German").startsWith("-ERR DateStyle"));
        assertTrue(both.conn.call("SQL", "SET IntervalStyle TO sql_standard").startsWith("-ERR IntervalStyle"));
        assertEquals("$8\r\npostgres\r\n", both.conn.call("SQL", "SHOW IntervalStyle"));
        assertTrue(both.conn.call("SQL", "set standard_conforming_strings = off").startsWith("-ERR standard_conforming_strings"));
        assertTrue(both.conn.call("SQL", "SET extra_float_digits = 7").startsWith("-ERR 7 is outside"));
        assertTrue(both.conn.call("SQL", "SET bytea_output TO base64").startsWith("-ERR invalid value"));
        assertEquals("+OK\r\n", both.conn.call("SQL", "RESET extra_float_digits"));
        assertEquals("$1\r\n1\r\n", both.conn.call("SQL", "SHOW extra_float_digits"));
        both.same("SELECT d FROM inf WHERE id = 3"); // dates still read and shown as PostgreSQL's ISO, MDY
    }

    /** The SQLSTATE a statement fails with, or null when it succeeds. */
    private static String state(java.sql.Connection c, String q) {
        try (java.sql.Statement st = c.createStatement()) {
            st.execute(q);
            return null;
        } catch (java.sql.SQLException e) {
            return e.getSQLState();
        }
    }
}
