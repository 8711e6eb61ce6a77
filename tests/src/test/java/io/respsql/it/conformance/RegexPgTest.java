package io.respsql.it.conformance;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PostgreSQL's regular expression functions (textfn) over the PostgreSQL protocol against
 * PostgreSQL 15 itself: regexp_replace (flags, start, N, back references), regexp_count,
 * regexp_instr, regexp_like, regexp_substr, {@code ~} and {@code ~*}, ARE's classes and escapes
 * translated; what cannot be given ARE's meaning is refused with 2201B (PostgreSQL answers those:
 * a refusal, never a different answer); catastrophic backtracking ends at the statement timeout.
 */
class RegexPgTest {
    private static PgPeer pg;
    private static TestServer server;
    private static Connection theirs;
    private static Connection ours;

    @BeforeAll
    static void start() throws Exception {
        PgOracle.requirePostgresql();
        pg = PgPeer.start(PgOracle.repoRoot());
        server = TestServer.start(c -> c.pgPort(0));
        theirs = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + pg.database(), pg.user(), "");
        ours = DriverManager.getConnection("jdbc:postgresql://" + server.host() + ":" + server.server().pgPort() + "/respsql",
                "tester", "");
        for (Connection c : new Connection[] {theirs, ours}) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE rx (id INT, s TEXT, p TEXT)");
                st.execute("INSERT INTO rx VALUES (1, 'abc abc', 'b'), (2, 'Hello World', '[[:upper:]]'), (3, NULL, 'a'),"
                        + " (4, 'line1' || chr(10) || 'line2', '^l'), (5, 'x1y22z333', '[0-9]+'), (6, 'aaa', NULL)");
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {ours, theirs, server, pg}) {
            if (c != null) {
                c.close();
            }
        }
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            StringBuilder t = new StringBuilder("types:");
            for (int i = 1; i <= md.getColumnCount(); i++) {
                t.append(' ').append(md.getColumnTypeName(i));
            }
            out.add(t.toString());
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.append(i == 1 ? "" : "|").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    /** The same rows, or the same SQLSTATE when PostgreSQL fails. */
    private static void same(String sql) throws SQLException {
        List<String> expected;
        try {
            expected = rows(theirs, sql);
        } catch (SQLException e) {
            SQLException mine = assertThrows(SQLException.class, () -> rows(ours, sql), sql + ": PostgreSQL fails with " + e.getSQLState());
            assertEquals(e.getSQLState(), mine.getSQLState(), sql + ": " + mine.getMessage() + " / PostgreSQL: " + e.getMessage());
            return;
        }
        assertEquals(expected, rows(ours, sql), sql);
    }

    @Test
    void answersAsPostgresql() throws SQLException {
        String[] queries = {
            "SELECT regexp_replace('Thomas', '.[mN]a.', 'M'), regexp_replace('Thomas', '.[mN]a.', 'M', 'i')",
            "SELECT regexp_replace('foobarbaz', 'b(..)', 'X\\1Y', 'g'), regexp_replace('foobarbaz', 'b(..)', 'X\\&Y\\\\', 'g')",
            "SELECT regexp_replace('A PostgreSQL function', 'a|e|i|o|u', 'X', 1, 0, 'i'), regexp_replace('A PostgreSQL function', 'a|e|i|o|u', 'X', 1, 3, 'i')",
            "SELECT regexp_replace('A PostgreSQL function', 'a|e|i|o|u', 'X', 9), regexp_replace('abc', 'x*', '-', 'g'), regexp_replace('abc', '', '-', 'g')",
            "SELECT regexp_replace('1112223333', E'(\\\\d{3})(\\\\d{3})(\\\\d{4})', E'(\\\\1) \\\\2-\\\\3')",
            "SELECT regexp_count('123123123123123', '(12)3'), regexp_count('ABCABCAXYaxy', 'A.', 1, 'i'), regexp_count('abc', ''), regexp_count('abcabc', 'b', 3)",
            "SELECT regexp_instr('abcdefghi', 'd.f'), regexp_instr('ABCDEFGHI', 'd.q', 1, 1, 0, 'i'), regexp_instr('1a2b3c', '[a-z]', 1, 3, 1)",
            "SELECT regexp_instr('1234567890', '(123)(4(56)(78))', 1, 1, 0, 'i', 4), regexp_instr('1234567890', '(123)(4(56)(78))', 1, 1, 1, '', 3)",
            "SELECT regexp_like('Steven', '^Ste(v|ph)en$'), regexp_like('a' || chr(10) || 'd', 'a.d'), regexp_like('a' || chr(10) || 'd', 'a.d', 'n'), regexp_like('ABC', 'abc', 'i')",
            "SELECT regexp_substr('1234567890 1234557890', '(123)(4(5[56])(78))', 1, 2, 'i', 3), regexp_substr('abc', 'x'), regexp_substr('abcabc', 'b.', 2, 2)",
            "SELECT regexp_substr('the quick brown fox', '\\mq\\w+'), regexp_substr('the quick brown fox', 'o\\M'), regexp_like('foo bar', '\\yba'), regexp_like('ab', 'a\\Z')",
            "SELECT regexp_like('abc' || chr(10), 'c$'), regexp_like('abc' || chr(10), 'c$', 'n'), regexp_count('a1 b2 c3', '[[:alpha:]][[:digit:]]'), regexp_like('a]', '[]a]+$')",
            "SELECT regexp_substr('xxy', 'x*(xy)?'), regexp_substr('abcd', 'a|ab|abc'), regexp_substr('abcd', '(a|ab)(c|bcd)')",
            "SELECT regexp_replace('aaa', 'a', 'b', 'z')",
            "SELECT regexp_count('aaa', 'a', 0)",
            "SELECT regexp_instr('aaa', 'a', 1, 0)",
            "SELECT regexp_substr('aaa', 'a', 1, 1, 'g')",
            "SELECT regexp_like('abc', 'a(b')",
            "SELECT regexp_like('abc', '*a')",
            "SELECT id, regexp_like(s, p), regexp_count(s, p), regexp_replace(s, p, '<\\&>', 'g'), regexp_substr(s, p), s ~ p, s ~* p, s !~ p FROM rx ORDER BY id",
            "SELECT id FROM rx WHERE s ~ '^[A-Z]' OR s ~* 'ABC' ORDER BY id",
            "SELECT 'abc' SIMILAR TO 'abc', 'abc' SIMILAR TO 'a', 'abc' SIMILAR TO '%(b|d)%', 'abc' SIMILAR TO '(b|c)%', 'abc' NOT SIMILAR TO '_b_'",
            "SELECT 'a.c' SIMILAR TO 'a.c', 'abc' SIMILAR TO 'a.c', 'a%c' SIMILAR TO 'a#%c' ESCAPE '#', 'abc' SIMILAR TO 'a#%c' ESCAPE '#', 'ab' SIMILAR TO '[a-c]+', 'a$' SIMILAR TO 'a$'",
            "SELECT substring('foobar' SIMILAR '%#\"o_b#\"%' ESCAPE '#'), substring('foobar' SIMILAR '#\"o_b#\"%' ESCAPE '#'), substring('foobar' FROM '%#\"o_b#\"%' FOR '#')",
            "SELECT substring('abcdefg' SIMILAR 'a#\"%#\"g' ESCAPE '#'), substring('abcdefg' SIMILAR 'a*#\"%#\"g' ESCAPE '#'), substring('abcdefg' SIMILAR 'a#\"%#\"x' ESCAPE '#')",
            "SELECT substring('abcdefg' FROM 'c.e'), substring('abcdefg' FROM 'b(.)d'), substring('abcdefg' FROM 'x'), substring('foo' FROM 'f(x)?')",
            "SELECT 'abc' SIMILAR TO 'a#' ESCAPE '#', 'a' SIMILAR TO 'a#' ESCAPE '#', substring('abcdefg' SIMILAR 'a#\"%g' ESCAPE '#')",
            "SELECT 'abc' SIMILAR TO 'a' ESCAPE '##'",
            "SELECT overlay('Txxxxas' placing 'hom' from 2 for 4), overlay('Txxxxas' placing 'hom' from 2), overlay('abc' placing 'X' from 10), overlay('abcdef' placing 'X' from 2 for 0)",
            "SELECT overlay('abc' placing 'X' from 2 for -1), overlay('abc' placing 'X' from 1 for -5)",
            "SELECT overlay('abc' placing 'X' from 0)",
            "SELECT substring('abcdefg' SIMILAR 'a#\"%#\"g#\"x#\"' ESCAPE '#')",
            "SELECT regexp_like('line1' || chr(10) || 'line2', '^line2', 'n'), regexp_count('line1' || chr(10) || 'line2', '^l', 1, 'n'), regexp_count('x' || chr(10), '.', 1, 'p')",
        };
        for (String q : queries) {
            same(q);
        }
    }

    @Test
    void refusesWhatItCannotTranslate() throws SQLException {
        String[] refused = {
            "SELECT regexp_substr('abcabc', 'a.*?b.*')", // greedy and non-greedy mixed: ARE's whole-pattern preference
            "SELECT regexp_like('aaa', 'a*+')",          // a possessive quantifier in Java, an error in ARE
            "SELECT regexp_like('a', '[[.space.]]')",     // a collating element
        };
        for (String q : refused) {
            SQLException e = assertThrows(SQLException.class, () -> rows(ours, q), q);
            assertTrue(e.getSQLState().equals("2201B"), q + ": " + e.getSQLState() + " " + e.getMessage());
        }
    }

    @Test
    void catastrophicBacktrackingEndsAtTheStatementTimeout() throws SQLException {
        try (Statement st = ours.createStatement()) {
            st.execute("SET statement_timeout = 300");
            // constant (never folded at bind time) and from a table: both stop at the timeout
            for (String q : new String[] {"SELECT regexp_like(repeat('x', 40), '(x+x+)+\\1y')",
                "SELECT count(*) FROM rx WHERE repeat('x', 30 + id) ~ '(x+x+)+\\1y'"}) {
                long t0 = System.nanoTime();
                SQLException e = assertThrows(SQLException.class, () -> rows(ours, q), q);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertEquals("57014", e.getSQLState(), e.getMessage());
                assertTrue(ms < 10_000, q + " took " + ms + " ms");
            }
            st.execute("SET statement_timeout = 0");
            assertEquals(List.of("types: bool", "t"), rows(ours, "SELECT regexp_like('aaaab', '(a+a+)+\\1b')"));
        }
    }
}
