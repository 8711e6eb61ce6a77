package io.respsql.it.conformance;

import io.respsql.it.RespConnection;
import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exact NUMERIC (issue 25) over the PostgreSQL protocol against PostgreSQL 15 itself: the same
 * statements through pgjdbc to both, every value compared as its text and every column's type
 * (numeric, OID 1700), errors by SQLSTATE; the 200,000-row sum of cents-valued prices; and the
 * values as RESP typed replies give them (bulk strings of the same text).
 */
class NumericPgTest {
    private static JdbcPair pair;
    private static TestServer server;
    private static Connection theirs;
    private static Connection ours;

    @BeforeAll
    static void start() throws Exception {
        pair = JdbcPair.start();
        server = pair.server();
        theirs = pair.theirs();
        ours = pair.ours();
    }

    @AfterAll
    static void stop() throws Exception {
        if (pair != null) {
            pair.close();
        }
    }

    private static List<String> same(String sql) throws SQLException {
        return pair.same(sql);
    }

    private static void both(String sql) throws SQLException {
        pair.both(sql);
    }

    static List<String> rows(Connection c, String sql) throws SQLException {
        return JdbcPair.rows(c, sql);
    }

    @Test
    void literalsAndArithmeticAreExact() throws SQLException {
        assertEquals(List.of("types: numeric", "0.3"), same("SELECT 0.1 + 0.2"));
        assertEquals(List.of("types: numeric", "0.33333333333333333333"), same("SELECT 1.0 / 3"));
        String[] queries = {
            "SELECT 2 / 3.0, 10.00 / 4, 1 / 3::numeric, 7.0 / 7, 100 / 0.7, 0.001 / 3, 123456.789 / 0.003",
            "SELECT 1.5 * 1.25, 0.1 - 0.3, -7.5 % 2, 7.25 * 1.1, 10.5 % 3, -0.0 + 0, 2 - 2.000",
            "SELECT 1e3, 1.5e-3, 12.5E2, 123456789012345678901234567890.5 + 1, 99999999999999999.99 * 100",
            "SELECT 12345678901234567890 * 98765432109876543210, 1 / 7.00000000000000000000001",
            "SELECT CAST('12.345' AS NUMERIC(5,2)), '2.5'::numeric(3,0), (-2.5)::numeric(3,0), '  -0.005 '::numeric(4,2)",
            "SELECT 12.5::int, (-12.5)::bigint, 12.5::float8, 12.25::text, 7::numeric, 7::numeric(5,2), 1.5::float8::numeric",
            "SELECT round(2.345, 2), round(-2.5), trunc(2.789, 1), abs(-1.50), ceil(1.01), floor(-1.01), sign(-3.3), mod(10.5, 3)",
            "SELECT round(1234.5678, -2), round(0.5), trunc(-2.789), round(2.5, 4), trunc(1.25, 5)",
            "SELECT 'NaN'::numeric, 'NaN'::numeric + 1, 'nan'::numeric = 'NaN'::numeric, 'NaN'::numeric > 1e30",
            "SELECT 1.5 = 1.50, 1.5 < 2, 2 > 1.99, 1.1 = 1.1::float8, 3 BETWEEN 2.5 AND 3.0, 2.0 IN (1, 2, 3)",
            "SELECT CASE WHEN 1 = 1 THEN 1.5 ELSE 2 END, COALESCE(NULL, 2.50), NULLIF(1.0, 1), GREATEST(1, 2.5)",
            "SELECT 'abc'::numeric",
            "SELECT 1.0 / 0",
            "SELECT 5.5 % 0",
            "SELECT 123.456::numeric(4,2)",
            "SELECT 99.995::numeric(4,2)",
            "SELECT 1e20::numeric::bigint",
            "SELECT 3000000000.4::int",
        };
        for (String q : queries) {
            same(q);
        }
    }

    @Test
    void columnsRoundOnStoreAndAggregateExactly() throws SQLException {
        both("CREATE TABLE price (id INT PRIMARY KEY, p NUMERIC(10,2), q NUMERIC, d DECIMAL(25,5), g INT)");
        both("INSERT INTO price VALUES (1, 1.005, 1.5, 12345678901234567890.123456, 1), (2, -1.005, 2.25, -0.000005, 1),"
                + " (3, 2, 0.10, 1, 2), (4, NULL, NULL, NULL, 2), (5, '19.99', '3', '7.5', 3), (6, 99999999.994, 1e-3, 2.5, 3)");
        String[] queries = {
            "SELECT * FROM price ORDER BY id",
            "SELECT sum(p), avg(p), min(p), max(p), count(p), sum(q), avg(q), min(q), max(q), sum(d), avg(d) FROM price",
            "SELECT g, sum(p), avg(q), max(d) FROM price GROUP BY g ORDER BY g",
            "SELECT id FROM price WHERE p > 1.5 ORDER BY id",
            "SELECT id FROM price WHERE p = 2 ORDER BY id",
            "SELECT id FROM price WHERE q <= 1.5 ORDER BY id",
            "SELECT id, p FROM price ORDER BY p DESC NULLS LAST, id",
            "SELECT id, p * 2, p / 3, p + q, p - d, -p FROM price ORDER BY id",
            "SELECT p, count(*) FROM price GROUP BY p ORDER BY p",
            "SELECT DISTINCT g, p > 0 FROM price ORDER BY 1, 2",
            "SELECT avg(id), avg(g), sum(g) FROM price",
            "SELECT x FROM (SELECT p + 1 AS x FROM price) s WHERE x > 2 ORDER BY x",
            "SELECT p FROM price WHERE id = 1 UNION ALL SELECT q FROM price WHERE id = 2 ORDER BY 1",
            "SELECT id, row_number() OVER (ORDER BY p DESC NULLS LAST, id), rank() OVER (PARTITION BY p > 1 ORDER BY q) FROM price ORDER BY id",
            // numbers matched by value, not by their text, in IN (subquery) and hash joins (1.0 = 1.00 = 1)
            "SELECT id FROM price WHERE p IN (SELECT g FROM price) ORDER BY id",
            "SELECT id FROM price WHERE q IN (SELECT 1.50 UNION ALL SELECT 0.1) ORDER BY id",
            "SELECT id FROM price WHERE q::float8 IN (SELECT q FROM price) ORDER BY id",
            "SELECT id FROM price WHERE q IN (SELECT 1.5::float8) ORDER BY id",
            "SELECT a.id, b.id FROM price a JOIN price b ON a.p = b.g ORDER BY 1, 2",
            "SELECT a.id, b.id FROM price a JOIN (VALUES (1.500), (2.25000), (0.1)) b(v) ON a.q = b.v ORDER BY 1",
            "SELECT a.id FROM price a WHERE NOT EXISTS (SELECT 1 FROM price b WHERE b.g = a.p) ORDER BY 1",
        };
        for (String q : queries) {
            same(q);
        }
        both("UPDATE price SET p = p * 1.1 WHERE id = 3");
        same("SELECT id, p FROM price ORDER BY id");
        same("INSERT INTO price VALUES (7, 123456789.5, 0, 0, 0)");
        same("UPDATE price SET p = p * 1000000 WHERE id = 5");
        same("INSERT INTO price VALUES (8, 'x1', 0, 0, 0)");
        same("SELECT id, p FROM price ORDER BY id");
        both("INSERT INTO price VALUES (9, 'NaN', 'NaN', 'nan', 4)"); // NaN in the scaled-long column too
        same("SELECT id, p, q, d FROM price ORDER BY p, id");
        same("SELECT g, sum(p), max(q), min(d), avg(p) FROM price GROUP BY g ORDER BY g");
        same("SELECT id FROM price WHERE p = 'NaN' OR q > 1e30 ORDER BY id");
    }

    @Test
    void twoHundredThousandCentsSumToTheCent() throws SQLException {
        both("CREATE TABLE item (id INT PRIMARY KEY, price NUMERIC(10,2))");
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            if (i % 2000 == 0) {
                b.setLength(0);
                b.append("INSERT INTO item VALUES ");
            } else {
                b.append(", ");
            }
            b.append('(').append(i).append(", ").append(999 + (i % 7)).append('.').append(i % 100 < 10 ? "0" : "").append(i % 100).append(')');
            if (i % 2000 == 1999) {
                both(b.toString());
            }
        }
        List<String> r = same("SELECT sum(price), avg(price), min(price), max(price), count(*) FROM item");
        assertTrue(r.get(1).startsWith("200"), r.toString());
        same("SELECT sum(price * 3), sum(price) / 7 FROM item WHERE id % 3 = 0");
    }

    @Test
    void respTypedRepliesCarryTheText() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "SET sql_dialect TO postgresql"));
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE rn (id INT PRIMARY KEY, v NUMERIC(6,3))"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO rn VALUES (1, 2.5), (2, -0.0005)"));
            String typed = c.call("QUERY", "SELECT id, v, v * 2, 0.1 + 0.2 FROM rn ORDER BY id");
            assertEquals("*4\r\n*4\r\n$2\r\nid\r\n$1\r\nv\r\n$5\r\nv * 2\r\n$9\r\n0.1 + 0.2\r\n"
                    + "*4\r\n$3\r\nINT\r\n$7\r\nNUMERIC\r\n$7\r\nNUMERIC\r\n$7\r\nNUMERIC\r\n"
                    + "*4\r\n:1\r\n$5\r\n2.500\r\n$5\r\n5.000\r\n$3\r\n0.3\r\n"
                    + "*4\r\n:2\r\n$6\r\n-0.001\r\n$6\r\n-0.002\r\n$3\r\n0.3\r\n", typed); // -0.0005 rounds away from zero
            // the default dialect keeps NUMERIC a FLOAT and 0.1 + 0.2 a double
            assertEquals("+OK\r\n", c.call("SQL", "SET sql_dialect TO sqlite"));
            assertEquals("*1\r\n$19\r\n0.30000000000000004\r\n", c.call("SQL", "SELECT 0.1 + 0.2"));
            assertEquals("*2\r\n$5\r\n2.500\r\n$6\r\n-0.001\r\n", c.call("SQL", "SELECT v FROM rn ORDER BY id"));
        }
    }
}
