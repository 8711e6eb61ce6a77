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
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * NUMERIC grouping and matching keys by value (textfn), over the PostgreSQL protocol against
 * PostgreSQL 15 itself: GROUP BY, DISTINCT, UNION/INTERSECT/EXCEPT, COUNT/SUM(DISTINCT), window
 * PARTITION BY, IN (subquery), hash joins and anti-joins over 1, 1.0, 1.00, -0.0, NULL and values
 * beyond 18 digits, mixed with float8 and int. Without ORDER BY the rows are compared as a
 * multiset (PostgreSQL's hash order is not ours); the value a group shows is the first one seen,
 * as PostgreSQL's hash aggregate and hashed set operations show it (the inserted order makes it
 * one value per group).
 */
class NumericKeysPgTest {
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
        both("CREATE TABLE k (id INT, x NUMERIC, p NUMERIC(30,4), f FLOAT8, i INT)");
        both("INSERT INTO k VALUES (1, 1.0, 1.0, 1, 1), (2, 1.00, 1, 1.0, 1), (3, 1, 1.00, 1, 1), (4, -0.0, 0, -0.0, 0),"
                + " (5, 0, -0.0, 0, 0), (6, NULL, NULL, NULL, NULL), (7, 12345678901234567890.10, 12345678901234567890.1, 2, 2),"
                + " (8, 12345678901234567890.1000, 12345678901234567890.10, 2, 2), (9, 12345678901234567890.2, 12345678901234567890.2, 3, 3),"
                + " (10, 2.50, 2.5, 2.5, 3), (11, 2.5, 2.50, 2.5, 3), (12, 'NaN', 'NaN', 'NaN', 4), (13, 'nan', 'NaN', 'NaN', 4),"
                + " (14, 100, 100, 100, 100), (15, 1e2, 100.0, 1e2, 100), (16, 0.000000000000000000001, 1, 1, 1),"
                + " (17, 0.0000000000000000000010, 1, 1, 1), (18, 123456789012345678, 1, 1, 1), (19, 123456789012345678.000, 1, 1, 1)");
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {ours, theirs, server, pg}) {
            if (c != null) {
                c.close();
            }
        }
    }

    private static void both(String sql) throws SQLException {
        for (Connection c : new Connection[] {theirs, ours}) {
            try (Statement st = c.createStatement()) {
                st.execute(sql);
            }
        }
    }

    /** Column types, then rows as text: sorted unless the query orders them. */
    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        String types;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            StringBuilder t = new StringBuilder("types:");
            for (int i = 1; i <= md.getColumnCount(); i++) {
                t.append(' ').append(md.getColumnTypeName(i));
            }
            types = t.toString();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.append(i == 1 ? "" : "|").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        if (!sql.contains("ORDER BY") || sql.contains("OVER")) {
            Collections.sort(out);
        }
        out.add(0, types);
        return out;
    }

    private static void same(String sql) throws SQLException {
        assertEquals(rows(theirs, sql), rows(ours, sql), sql);
    }

    @Test
    void groupingKeysAreValues() throws SQLException {
        String[] queries = {
            "SELECT x, count(*) FROM k GROUP BY x",
            "SELECT p, count(*), sum(i) FROM k GROUP BY p",
            "SELECT x, p, count(*) FROM k GROUP BY x, p",
            "SELECT x, count(*) FROM k WHERE id < 16 GROUP BY x HAVING count(*) > 1",
            "SELECT count(*) FROM (SELECT x FROM k GROUP BY x) g",
            "SELECT x FROM (SELECT x, count(*) FROM k GROUP BY x) g ORDER BY x",
            "SELECT x + 0, count(*) FROM k GROUP BY x + 0",
            "SELECT DISTINCT x FROM k",
            "SELECT DISTINCT p FROM k",
            "SELECT DISTINCT x, i FROM k",
            "SELECT count(DISTINCT x), count(DISTINCT p), sum(DISTINCT x), avg(DISTINCT p) FROM k WHERE id <> 12 AND id <> 13",
            "SELECT i, count(DISTINCT x) FROM k GROUP BY i",
            "SELECT x FROM k UNION SELECT p FROM k",
            "SELECT x FROM k INTERSECT SELECT p FROM k",
            "SELECT x FROM k EXCEPT SELECT p FROM k WHERE id < 10",
            "SELECT x FROM k UNION SELECT i FROM k",
            "SELECT x FROM k EXCEPT SELECT i FROM k",
            "SELECT i FROM k INTERSECT SELECT x FROM k",
            // (float8 beyond 1e15 or below 1e-4 is left out: the wire prints such doubles as 1.0E-21, not 1e-21)
            "SELECT x FROM k WHERE id < 16 AND id NOT IN (7, 8, 9) UNION SELECT f FROM k",
            "SELECT x, i FROM k UNION SELECT p, i FROM k",
            "SELECT x FROM k UNION ALL SELECT p FROM k",
            // window partitions compare NUMERIC by its nearest double (ValueBuffer): exact up to 15 significant digits
            "SELECT id, x, count(*) OVER (PARTITION BY x) FROM k WHERE id NOT IN (7, 8, 9, 18, 19) ORDER BY id",
            "SELECT id, p, sum(i) OVER (PARTITION BY p) FROM k WHERE id NOT IN (7, 8, 9) ORDER BY id",
            "SELECT id, rank() OVER (PARTITION BY i ORDER BY x) FROM k ORDER BY id",
        };
        for (String q : queries) {
            same(q);
        }
    }

    @Test
    void matchingKeysAreValues() throws SQLException {
        String[] queries = {
            "SELECT id FROM k WHERE x IN (SELECT p FROM k WHERE id > 1) ORDER BY id",
            "SELECT id FROM k WHERE x IN (SELECT i FROM k) ORDER BY id",
            "SELECT id FROM k WHERE i IN (SELECT x FROM k) ORDER BY id",
            "SELECT id FROM k WHERE x IN (SELECT f FROM k) ORDER BY id",
            "SELECT id FROM k WHERE x NOT IN (SELECT p FROM k WHERE p IS NOT NULL) ORDER BY id",
            "SELECT a.id, b.id FROM k a JOIN k b ON a.x = b.p ORDER BY 1, 2",
            "SELECT a.id, b.id FROM k a JOIN k b ON a.x = b.i ORDER BY 1, 2",
            "SELECT a.id, b.id FROM k a LEFT JOIN k b ON a.p = b.f ORDER BY 1, 2",
            "SELECT a.id FROM k a WHERE NOT EXISTS (SELECT 1 FROM k b WHERE b.i = a.x) ORDER BY 1",
            "SELECT a.id FROM k a WHERE EXISTS (SELECT 1 FROM k b WHERE b.p = a.x AND b.id <> a.id) ORDER BY 1",
        };
        for (String q : queries) {
            same(q);
        }
    }
}
