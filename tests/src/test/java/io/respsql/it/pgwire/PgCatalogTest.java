package io.respsql.it.pgwire;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** pg_catalog and information_schema answered from the catalog: SQL, psql's \dt \di \dn \l, pgjdbc's DatabaseMetaData. */
class PgCatalogTest {
    private static TestServer server;

    @BeforeAll
    static void start() throws SQLException {
        server = TestServer.start(c -> c.pgPort(0));
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE cat_t (id INT PRIMARY KEY, name TEXT NOT NULL, score FLOAT, born DATE DEFAULT '2000-01-01')");
            st.execute("CREATE INDEX cat_t_score ON cat_t (score)");
            st.execute("CREATE TABLE cat_u (a BIGINT, b TEXT, UNIQUE (a, b))");
            st.execute("CREATE VIEW cat_v AS SELECT id, name FROM cat_t");
            // no '_' in these names: pgjdbc sends them as LIKE patterns with '_' escaped by a backslash
            st.execute("CREATE TABLE catmeta (id INT PRIMARY KEY, name TEXT NOT NULL, score FLOAT, born DATE DEFAULT '2000-01-01')");
            st.execute("CREATE VIEW catview AS SELECT id FROM catmeta");
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(PgJdbcTest.url(server, ""), "tester", "");
    }

    private static List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
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

    @Test
    void informationSchemaViews() throws SQLException {
        assertEquals(List.of("cat_t|BASE TABLE", "cat_u|BASE TABLE", "cat_v|VIEW"), rows(
                "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'public'"
                        + " AND table_name LIKE 'cat!_%' ESCAPE '!' ORDER BY table_name"));
        assertEquals(List.of("1|id|NO|integer|<null>", "2|name|NO|text|<null>", "3|score|YES|double precision|<null>",
                "4|born|YES|date|'2000-01-01'"), rows("SELECT ordinal_position, column_name, is_nullable, data_type, column_default"
                + " FROM information_schema.columns WHERE table_name = 'cat_t' ORDER BY ordinal_position"));
        assertEquals(List.of("cat_t|cat_t_pkey|PRIMARY KEY|id|1", "cat_u|cat_u_a_b_key|UNIQUE|a|1", "cat_u|cat_u_a_b_key|UNIQUE|b|2"),
                rows("SELECT tc.table_name, tc.constraint_name, tc.constraint_type, k.column_name, k.ordinal_position"
                        + " FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage k"
                        + " ON k.constraint_name = tc.constraint_name WHERE tc.table_name <> 'catmeta' ORDER BY 1, 2, 5"));
        assertEquals(List.of("cat_v", "catview"), rows("SELECT table_name FROM information_schema.views ORDER BY 1"));
        // a table created now shows at once; one dropped is gone
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE cat_new (x INT)");
            assertEquals(List.of("1"), rows("SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'cat_new'"));
            st.execute("DROP TABLE cat_new");
            assertEquals(List.of("0"), rows("SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'cat_new'"));
        }
    }

    @Test
    void pgCatalogRelationsAndFunctions() throws SQLException {
        assertEquals(List.of("cat_t|r|4", "cat_t_pkey|i|1", "cat_t_score|i|1"), rows(
                "SELECT c.relname, c.relkind, c.relnatts FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n"
                        + " ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname LIKE 'cat_t%'"
                        + " ORDER BY 1"));
        assertEquals(List.of("id|integer|t", "name|text|t", "score|double precision|f", "born|date|f"), rows(
                "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull FROM pg_attribute a"
                        + " WHERE a.attrelid = 'cat_t'::regclass AND a.attnum > 0 ORDER BY a.attnum"));
        assertEquals(List.of("cat_t_pkey|t|t|1", "cat_t_score|f|f|3"), rows(
                "SELECT c.relname, i.indisunique, i.indisprimary, i.indkey FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                        + " WHERE i.indrelid = 'cat_t'::regclass ORDER BY 1"));
        assertEquals(List.of("CREATE INDEX cat_t_score ON public.cat_t USING btree (score)"), rows(
                "SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                        + " WHERE c.relname = 'cat_t_score'"));
        assertEquals(List.of("cat_u_a_b_key|u|{1,2}"), rows(
                "SELECT conname, contype, conkey FROM pg_constraint WHERE conrelid = 'cat_u'::regclass"));
        assertEquals(List.of("public|respsql|public|respsql"), rows(
                "SELECT current_schema(), current_database(), current_schema, current_catalog"));
        assertTrue(rows("SELECT version()").get(0).startsWith("PostgreSQL 15."), rows("SELECT version()").toString());
        assertEquals(List.of("respsql|UTF8"), rows("SELECT datname, pg_encoding_to_char(encoding) FROM pg_database"));
        assertEquals(List.of("0"), rows("SELECT COUNT(*) FROM pg_description"));
        assertEquals(List.of("respsql|t"), rows("SELECT rolname, rolsuper FROM pg_roles"));
        assertEquals(List.of("1259|cat_t"), rows("SELECT 'pg_class'::regclass, 'cat_t'::regclass::regclass"));
        assertEquals(List.of("pg_catalog|f", "public|t"), rows(
                "SELECT nspname, nspname !~ '^pg_' FROM pg_namespace WHERE nspname ~* '^P' ORDER BY 1"));
        assertEquals("42P01", assertThrowsState("SELECT 'nosuch'::regclass"));
    }

    private static String assertThrowsState(String sql) {
        try {
            rows(sql);
        } catch (SQLException e) {
            return e.getSQLState();
        }
        throw new AssertionError("no error: " + sql);
    }

    @Test
    void psqlDescribeCommands() throws Exception {
        assumeTrue(PgClientsTest.available("psql", "--version"), "psql (Debian postgresql-client) is not installed");
        PgClientsTest.Run dt = PgClientsTest.run(PgClientsTest.psql(server), Map.of(), "\\dt\n\\di\n\\dn\n\\l\n");
        assertEquals(0, dt.exit(), dt.err());
        assertEquals("""
                public|cat_t|table|respsql
                public|cat_u|table|respsql
                public|catmeta|table|respsql
                public|cat_t_pkey|index|respsql|cat_t
                public|cat_t_score|index|respsql|cat_t
                public|cat_u_a_b_key|index|respsql|cat_u
                public|catmeta_pkey|index|respsql|catmeta
                public|respsql
                respsql|respsql|UTF8|C.UTF-8|C.UTF-8||libc|
                """, dt.out());
    }

    @Test
    void jdbcDatabaseMetaDataTables() throws SQLException {
        try (Connection c = connect()) {
            DatabaseMetaData md = c.getMetaData();
            List<String> views = new ArrayList<>();
            try (ResultSet rs = md.getTables(null, "public", "cat%", new String[]{"TABLE", "VIEW"})) {
                while (rs.next()) {
                    views.add(rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
                }
            }
            assertEquals(List.of("cat_t:TABLE", "cat_u:TABLE", "catmeta:TABLE", "cat_v:VIEW", "catview:VIEW"), views);
        }
    }
}
