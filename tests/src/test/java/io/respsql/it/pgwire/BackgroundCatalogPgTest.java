package io.respsql.it.pgwire;

import io.respsql.it.RespConnection;
import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A query that reads the catalog (pg_class and the other system relations, {@code 'name'::regclass},
 * {@code oid::regclass}, pg_get_indexdef) and also a table, moved to a worker by its estimate
 * (bg-query-min-rows 1), answers as it does inline on the event loop: the worker's read view holds
 * only the plan's tables, so the whole catalog must come from the loop. Over pgwire and RESP.
 */
class BackgroundCatalogPgTest {
    private static TestServer server;
    private static Connection conn;
    private static RespConnection resp;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(c -> c.pgPort(0));
        conn = DriverManager.getConnection("jdbc:postgresql://" + server.host() + ":" + server.server().pgPort()
                + "/respsql", "tester", "");
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE bc_a (id INT PRIMARY KEY, v INT)");
            st.execute("CREATE TABLE bc_b (id INT PRIMARY KEY, w TEXT)");
            st.execute("CREATE INDEX bc_b_w ON bc_b (w)");
            st.execute("CREATE TABLE bc_c (id INT PRIMARY KEY, v INT)");
            st.execute("INSERT INTO bc_a VALUES (1, 10), (2, 20), (3, 30)");
            st.execute("INSERT INTO bc_b VALUES (1, 'x'), (2, 'y')");
            st.execute("INSERT INTO bc_c VALUES (1, 5), (2, 6), (3, 7), (4, 8)");
        }
        resp = new RespConnection(TestServer.HOST, server.port());
        assertEquals("+OK\r\n", resp.call("SQL", "SET sql_dialect TO postgresql"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (resp != null) {
            resp.close();
        }
        if (conn != null) {
            conn.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static final String[] QUERIES = {
        // a system relation joined with a table: every table listed, not only the plan's (bc_c)
        "SELECT c.relname, c.relkind FROM pg_class c, (SELECT MIN(v) AS m FROM bc_c) s"
                + " WHERE c.relname LIKE 'bc%' ORDER BY 1",
        // a relation's OID by name, beside a table the query reads (not that relation)
        "SELECT 'bc_b'::regclass::oid, COUNT(*) FROM bc_c",
        "SELECT 'bc_c'::regclass::oid, COUNT(*) FROM bc_c",
        "SELECT COUNT(*) FROM bc_c WHERE 'bc_b'::regclass::oid > 0",
        // an OID's name and an index's definition, read per row
        "SELECT c.oid::regclass, x.v FROM pg_class c JOIN bc_c x ON x.id = 1 WHERE c.relname LIKE 'bc%' ORDER BY 1",
        "SELECT pg_get_indexdef(i.indexrelid), x.v FROM pg_index i JOIN bc_c x ON x.id = 2"
                + " WHERE i.indrelid = 'bc_b'::regclass ORDER BY 1",
    };

    private static String answer(String sql) {
        List<String> rows = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    sb.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                rows.add(sb.toString());
            }
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState() + " " + e.getMessage();
        }
        return String.join("\n", rows);
    }

    private static void minRows(String n) throws IOException {
        assertEquals("+OK\r\n", resp.call("CONFIG", "SET", "bg-query-min-rows", n));
    }

    @Test
    void catalogQueriesOnAWorkerOverPgwireAnswerAsInline() throws Exception {
        for (String sql : QUERIES) {
            minRows("0");
            String inline = answer(sql);
            assertTrue(!inline.startsWith("ERROR") && !inline.isEmpty(), sql + ": " + inline);
            minRows("1");
            String worker = answer(sql);
            minRows("0");
            assertEquals(inline, worker, sql);
        }
    }

    @Test
    void catalogQueriesOnAWorkerOverRespAnswerAsInline() throws Exception {
        for (String sql : QUERIES) {
            minRows("0");
            String inline = resp.call("SQL", sql);
            assertTrue(!inline.startsWith("-"), sql + ": " + inline);
            minRows("1");
            String worker = resp.call("SQL", sql);
            minRows("0");
            assertEquals(inline, worker, sql);
        }
    }
}
