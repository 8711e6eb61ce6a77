package io.respsql.it.pgwire;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What PostgreSQL clients read from the catalog to describe a table (psql's \\d, pgjdbc's
 * DatabaseMetaData) and the binary NUMERIC pgjdbc sends and asks for once a statement is named
 * (tests/clients/pg-run.sh runs the clients themselves). Expected values are PostgreSQL 15's
 * answers to the same statements on the same tables.
 */
class PgDescribeTest {
    private static TestServer server;

    @BeforeAll
    static void start() throws SQLException {
        server = TestServer.start(c -> c.pgPort(0));
        try (Connection c = connect(""); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE catp (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE)");
            st.execute("CREATE TABLE catc (id BIGINT PRIMARY KEY, pid INT NOT NULL REFERENCES catp (id) ON DELETE CASCADE,"
                    + " qty INT DEFAULT 1 CHECK (qty > 0), at TIMESTAMP, price NUMERIC(8,2))");
            st.execute("CREATE INDEX catc_at ON catc (at DESC)");
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Connection connect(String options) throws SQLException {
        return DriverManager.getConnection(PgJdbcTest.url(server, options), "tester", "");
    }

    private static List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(""); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    String v = rs.getString(i);
                    sb.append(i > 1 ? "|" : "").append(v == null ? "<null>" : v);
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    private static String assertThrowsState(String sql) {
        try {
            rows(sql);
        } catch (SQLException e) {
            return e.getSQLState();
        }
        throw new AssertionError("no error: " + sql);
    }

    /** pg_constraint's foreign keys and CHECKs, pg_get_constraintdef, ::regtype, pg_collation: what psql's \\d reads. */
    @Test
    void constraintsAndTypesForDescribe() throws SQLException {
        assertEquals(List.of("catc_pid_fkey|f|catc|catp|{2}|{1}|catp_pkey|a|c|s|FOREIGN KEY (pid) REFERENCES catp(id) ON DELETE CASCADE",
                        "catc_pkey|p|catc|-|{1}|<null>|catc_pkey| | | |PRIMARY KEY (id)",
                        "catc_qty_check|c|catc|-|<null>|<null>|<null>| | | |CHECK (qty > 0)"),
                rows("SELECT con.conname, con.contype, con.conrelid::regclass, con.confrelid::regclass,"
                        // (a CHECK's conkey, the columns it names, is not kept: left out here)
                        + " CASE WHEN con.contype = 'c' THEN NULL ELSE con.conkey END, con.confkey,"
                        + " ic.relname, con.confupdtype, con.confdeltype, con.confmatchtype, pg_get_constraintdef(con.oid, true)"
                        + " FROM pg_constraint con LEFT JOIN pg_class ic ON ic.oid = con.conindid"
                        + " WHERE con.conrelid = 'catc'::regclass ORDER BY 1"));
        assertEquals(List.of("catp_name_key|UNIQUE (name)", "catp_pkey|PRIMARY KEY (id)"), rows(
                "SELECT conname, pg_catalog.pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'catp'::regclass ORDER BY 1"));
        // psql's \\d "Referenced by:" query, as psql 15 sends it
        assertEquals(List.of("catc_pid_fkey|catc|FOREIGN KEY (pid) REFERENCES catp(id) ON DELETE CASCADE"), rows(
                "SELECT conname, conrelid::pg_catalog.regclass AS ontable, pg_catalog.pg_get_constraintdef(oid, true) AS condef"
                        + " FROM pg_catalog.pg_constraint c WHERE confrelid IN (SELECT pg_catalog.pg_partition_ancestors('"
                        + oid("catp") + "') UNION ALL VALUES ('" + oid("catp") + "'::pg_catalog.regclass))"
                        + " AND contype = 'f' AND conparentid = 0 ORDER BY conname;"));
        // psql's \\d index list, as psql 15 sends it
        assertEquals(List.of("catc_pkey|t|t|CREATE UNIQUE INDEX catc_pkey ON public.catc USING btree (id)|PRIMARY KEY (id)|p",
                        "catc_at|f|f|CREATE INDEX catc_at ON public.catc USING btree (at DESC)|<null>|<null>"), rows(
                "SELECT c2.relname, i.indisprimary, i.indisunique, pg_catalog.pg_get_indexdef(i.indexrelid, 0, true),"
                        + " pg_catalog.pg_get_constraintdef(con.oid, true), contype"
                        + " FROM pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_index i"
                        + " LEFT JOIN pg_catalog.pg_constraint con ON (conrelid = i.indrelid AND conindid = i.indexrelid AND contype IN ('p','u','x'))"
                        + " WHERE c.oid = '" + oid("catc") + "' AND c.oid = i.indrelid AND i.indexrelid = c2.oid"
                        + " ORDER BY i.indisprimary DESC, c2.relname;"));
        assertEquals(List.of("at|id"), rows("SELECT pg_get_indexdef('catc_at'::regclass, 1, false), pg_get_indexdef('catc_pkey'::regclass, 1, true)"));
        // psql's \\d column list: format_type, pg_get_expr of the DEFAULT, pg_collation
        assertEquals(List.of("id|bigint|<null>|t|<null>", "pid|integer|<null>|t|<null>", "qty|integer|1|f|<null>",
                "at|timestamp without time zone|<null>|f|<null>", "price|numeric(8,2)|<null>|f|<null>"), rows(
                "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod),"
                        + " (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true) FROM pg_catalog.pg_attrdef d"
                        + " WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef), a.attnotnull,"
                        + " (SELECT c.collname FROM pg_catalog.pg_collation c, pg_catalog.pg_type t"
                        + " WHERE c.oid = a.attcollation AND t.oid = a.atttypid AND a.attcollation <> t.typcollation) AS attcollation"
                        + " FROM pg_catalog.pg_attribute a WHERE a.attrelid = '" + oid("catc") + "' AND a.attnum > 0"
                        + " AND NOT a.attisdropped ORDER BY a.attnum;"));
        assertEquals(List.of("integer|character varying|numeric|1043|23|public"), rows(
                "SELECT 23::regtype, 1043::pg_catalog.regtype::pg_catalog.text, 1700::regtype, 'varchar'::regtype::oid,"
                        + " 'int4'::regtype::oid, 2200::regnamespace"));
        assertEquals(List.of("catc"), rows("SELECT '" + oid("catc") + "'::regclass::regclass"));
        assertEquals(List.of("default", "C", "POSIX"), rows("SELECT collname FROM pg_collation ORDER BY oid"));
        assertEquals(List.of("32"), rows("SELECT setting FROM pg_catalog.pg_settings WHERE name='max_index_keys'"));
        assertEquals("42704", assertThrowsState("SELECT 'nosuchtype'::regtype"));
    }

    private static long oid(String table) throws SQLException {
        return Long.parseLong(rows("SELECT '" + table + "'::regclass::oid").get(0));
    }

    /**
     * A catalog query that goes to a worker (bg-query-min-rows 1: every read that touches a table
     * does) answers the catalog's rows: the worker binds it again against a read view of the
     * tables it read, which carries the system relations the plan built on the event loop (they
     * were missing: getColumns and getTables answered no rows on a fresh server when their first,
     * slower run moved to a worker).
     */
    @Test
    void catalogQueriesOnAWorkerSeeTheWholeCatalog() throws Exception {
        Object before = server.dispatch("CONFIG", "GET", "bg-query-min-rows");
        String old = String.valueOf(((List<?>) before).get(1));
        assertEquals("OK", server.dispatch("CONFIG", "SET", "bg-query-min-rows", "1"));
        try (Connection c = connect(""); Statement st = c.createStatement()) {
            st.execute("INSERT INTO catp VALUES (1, 'one')");
            st.execute("INSERT INTO catc (id, pid) VALUES (1, 1)");
            // reads a table (catc) beside pg_class: a worker would have had a read view of catc alone
            for (int i = 0; i < 3; i++) {
                assertEquals(List.of("catp|id|1", "catp|name|1"), rows(
                        "SELECT c.relname, a.attname, x.id FROM pg_catalog.pg_class c JOIN pg_catalog.pg_attribute a"
                                + " ON a.attrelid = c.oid CROSS JOIN catc x WHERE c.relname = 'catp' AND a.attnum > 0 ORDER BY a.attnum"));
            }
            st.execute("DELETE FROM catc");
            st.execute("DELETE FROM catp");
        } finally {
            server.dispatch("CONFIG", "SET", "bg-query-min-rows", old);
        }
    }

    /** pgjdbc's getTables and getColumns on these tables (its other metadata queries need arrays: not yet). */
    @Test
    void jdbcTablesAndColumns() throws SQLException {
        try (Connection c = connect("")) {
            DatabaseMetaData md = c.getMetaData();
            List<String> cols = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, "public", "catc", "%")) {
                while (rs.next()) {
                    cols.add(rs.getString("COLUMN_NAME") + "|" + rs.getInt("DATA_TYPE") + "|" + rs.getString("TYPE_NAME") + "|"
                            + rs.getInt("COLUMN_SIZE") + "|" + rs.getString("IS_NULLABLE") + "|" + rs.getString("COLUMN_DEF"));
                }
            }
            assertEquals(List.of("id|-5|int8|19|NO|null", "pid|4|int4|10|NO|null", "qty|4|int4|10|YES|1",
                    "at|93|timestamp|29|YES|null", "price|2|numeric|8|YES|null"), cols);
        }
    }

    /**
     * prepareThreshold=1: pgjdbc names the statement at once, then sends setBigDecimal in binary and
     * asks for NUMERIC results in binary (numeric_send's base-10000 digits, weight, sign, scale).
     */
    @Test
    void binaryNumericBothWays() throws SQLException {
        String[] values = {"0", "0.00", "1.05", "-0.05", "12345.67", "-99999999.99", "10000", "0.0001", "123456789012345678901234.5"};
        try (Connection c = connect("?prepareThreshold=1"); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE numbin (id INT PRIMARY KEY, v NUMERIC)");
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO numbin VALUES (?, ?)")) {
                for (int i = 0; i < values.length; i++) {
                    ins.setInt(1, i);
                    ins.setBigDecimal(2, new BigDecimal(values[i]));
                    ins.addBatch();
                }
                ins.executeBatch();
            }
            List<String> back = new ArrayList<>();
            try (PreparedStatement q = c.prepareStatement("SELECT v, v::text FROM numbin WHERE id >= ? ORDER BY id")) {
                for (int round = 0; round < 2; round++) { // the second execution is the named, binary one
                    back.clear();
                    q.setInt(1, 0);
                    try (ResultSet rs = q.executeQuery()) {
                        while (rs.next()) {
                            back.add(rs.getBigDecimal(1).toPlainString() + "=" + rs.getString(2));
                        }
                    }
                }
            }
            List<String> expected = new ArrayList<>();
            for (String v : values) {
                expected.add(v + "=" + v);
            }
            assertEquals(expected, back);
            st.execute("DROP TABLE numbin");
        }
    }
}
