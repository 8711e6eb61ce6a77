package clients;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.postgresql.util.PSQLException;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The pgjdbc program of the PostgreSQL client matrix (tests/clients/pg-run.sh), in one of pgjdbc's
 * query modes: {@code simple} (preferQueryMode=simple: parameters interpolated, one Query message),
 * {@code extended} (the driver's defaults: unnamed Parse/Bind/Execute, a named server-side statement
 * from the 5th execution), {@code prepared} (prepareThreshold=1: named server-side statements and
 * binary transfer at once). Steps: tables, COPY in and out (CopyManager), typed values read back
 * exactly, executeBatch, errors as PSQLException with their SQLSTATE, Statement.cancel() of a long
 * query (a CancelRequest), DatabaseMetaData (getTables, getColumns, getPrimaryKeys, getIndexInfo,
 * getImportedKeys, getExportedKeys: the last four only with PG_CLIENTS_CATALOG=1, as they do not pass yet).
 * The transaction step (commit/rollback) runs unless PG_CLIENTS_TX=0.
 *
 * <p>Args: mode and the directory of items.csv. Env: PGHOST, PGPORT, PGUSER, PGDATABASE.
 */
public final class PgJdbcSession {
    private static String who;
    private static int failures;

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path csv = Path.of(args[1], "items.csv");
        who = "pgjdbc-" + mode;
        String options = switch (mode) {
            case "simple" -> "preferQueryMode=simple";
            case "extended" -> "preferQueryMode=extended";
            case "prepared" -> "prepareThreshold=1";
            default -> throw new IllegalArgumentException("mode: simple, extended or prepared, not " + mode);
        };
        String url = "jdbc:postgresql://" + env("PGHOST") + ":" + env("PGPORT") + "/" + env("PGDATABASE") + "?" + options;
        try (Connection c = DriverManager.getConnection(url, env("PGUSER"), "")) {
            session(c, csv);
        }
        System.exit(failures == 0 ? 0 : 1);
    }

    private static String env(String name) {
        return Objects.requireNonNull(System.getenv(name), name);
    }

    private static void step(String name, Object expected, Object actual) {
        if (Objects.equals(expected, actual)) {
            System.out.println(who + ": ok   " + name);
        } else {
            System.out.println(who + ": FAIL " + name + "\n    expected " + expected + "\n    got      " + actual);
            failures++;
        }
    }

    private static void session(Connection c, Path csv) throws Exception {
        CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pc_items (id INT PRIMARY KEY, name TEXT NOT NULL, note TEXT, born DATE,"
                    + " seen TIMESTAMP, score FLOAT, price NUMERIC(10,2), ok BOOLEAN)");
            try (InputStream in = Files.newInputStream(csv)) {
                step("COPY FROM STDIN (CopyManager.copyIn): rows", 4L,
                        copy.copyIn("COPY pc_items FROM STDIN WITH (FORMAT csv, HEADER)", in));
            }
        }

        // typed values, read twice: a PreparedStatement run 6 times crosses every prepareThreshold
        List<String> expected = List.of(
                "1|plain|null|2024-02-29|2024-02-29 13:45:06.5|0.1|12345.67|true",
                "2|a, b|say \"hi\"\nline two|1999-12-31|2000-01-01 00:00:00.0|-2.5|-0.05|false",
                "3|Łódź ✓ 東京 😀||1970-01-01|1970-01-01 00:00:00.000001|3.141592653589793|0.00|true",
                "4|nulls|null|null|null|null|null|null");
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, name, note, born, seen, score, price, ok FROM pc_items WHERE id >= ? ORDER BY id")) {
            for (int round = 1; round <= 6; round++) {
                ps.setInt(1, 1);
                List<String> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Date born = rs.getDate("born");
                        Timestamp seen = rs.getTimestamp("seen");
                        double score = rs.getDouble("score");
                        String scoreText = rs.wasNull() ? "null" : Double.toString(score);
                        BigDecimal price = rs.getBigDecimal("price");
                        boolean ok = rs.getBoolean("ok");
                        String okText = rs.wasNull() ? "null" : Boolean.toString(ok);
                        rows.add(rs.getInt("id") + "|" + rs.getString("name") + "|" + rs.getString("note") + "|" + born
                                + "|" + seen + "|" + scoreText + "|" + (price == null ? null : price.toPlainString()) + "|" + okText);
                    }
                    if (round == 1 || round == 6) {
                        step("typed values read back (execution " + round + ")", expected, rows);
                    }
                    if (round == 6) {
                        ResultSetMetaData md = rs.getMetaData();
                        List<String> types = new ArrayList<>();
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            types.add(md.getColumnTypeName(i));
                        }
                        step("column types", List.of("int4", "text", "text", "date", "timestamp", "float8", "numeric", "bool"), types);
                    }
                }
            }
        }

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        copy.copyOut("COPY (SELECT * FROM pc_items ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)", out);
        step("COPY TO STDOUT (CopyManager.copyOut): the file loaded, byte for byte",
                Files.readString(csv, StandardCharsets.UTF_8), out.toString(StandardCharsets.UTF_8));

        // executeBatch of a parameterized INSERT; parents and children for the metadata below
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pc_parent (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE)");
            st.execute("CREATE TABLE pc_child (id BIGINT PRIMARY KEY, parent_id INT NOT NULL REFERENCES pc_parent (id),"
                    + " qty INT DEFAULT 1, at TIMESTAMP, price NUMERIC(8,2))");
            st.execute("CREATE INDEX pc_child_at ON pc_child (at DESC)");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO pc_parent (id, name) VALUES (?, ?)")) {
            for (int i = 1; i <= 10; i++) {
                ps.setInt(1, i);
                ps.setString(2, i == 3 ? "it's, \"three\"" : "p" + i);
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            int[] ones = new int[10];
            Arrays.fill(ones, 1);
            step("executeBatch: update counts", Arrays.toString(ones), Arrays.toString(counts));
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO pc_child (id, parent_id, at, price) VALUES (?, ?, ?, ?)")) {
            for (int i = 1; i <= 20; i++) {
                ps.setLong(1, i);
                ps.setInt(2, (i % 10) + 1);
                ps.setTimestamp(3, Timestamp.valueOf(String.format("2024-01-01 00:00:%02d.25", i)));
                ps.setBigDecimal(4, new BigDecimal(i + ".05"));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), sum(price), min(at), max(qty) FROM pc_child WHERE parent_id IN"
                     + " (SELECT id FROM pc_parent WHERE name = 'it''s, \"three\"')")) {
            rs.next();
            step("batched rows read back", "2|14.10|2024-01-01 00:00:02.25|1",
                    rs.getLong(1) + "|" + rs.getBigDecimal(2).toPlainString() + "|" + rs.getTimestamp(3) + "|" + rs.getInt(4));
        }

        step("unique violation", "23505", sqlState(c, "INSERT INTO pc_items (id, name) VALUES (1, 'again')"));
        step("syntax error", "42601", sqlState(c, "SELEC 1"));
        step("undefined table", "42P01", sqlState(c, "SELECT * FROM pc_nosuch"));
        step("foreign key violation", "23503", sqlState(c, "INSERT INTO pc_child (id, parent_id) VALUES (99, 99)"));
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM pc_items")) {
            rs.next();
            step("the session goes on after errors", 4L, rs.getLong(1));
        }

        cancel(c);
        metadata(c);

        if (!"0".equals(System.getenv("PG_CLIENTS_TX"))) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO pc_items (id, name) VALUES (10, 'committed')");
                c.commit();
                st.executeUpdate("INSERT INTO pc_items (id, name) VALUES (11, 'rolled back')");
                c.rollback();
                try (ResultSet rs = st.executeQuery("SELECT string_agg(name, ',' ORDER BY id) FROM pc_items WHERE id >= 10")) {
                    rs.next();
                    step("transactions: commit keeps, rollback takes back", "committed", rs.getString(1));
                }
                c.commit();
            }
            c.setAutoCommit(true);
        }

        try (Statement st = c.createStatement()) {
            for (String t : List.of("pc_items", "pc_big", "pc_child", "pc_parent")) {
                st.execute("DROP TABLE " + t);
            }
        }
    }

    /** The SQLSTATE of the PSQLException that {@code sql} raises (null: none). */
    private static String sqlState(Connection c, String sql) {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
            return null;
        } catch (PSQLException e) {
            return e.getSQLState();
        } catch (SQLException e) {
            return "not a PSQLException: " + e;
        }
    }

    /** Statement.cancel() of a long query: a CancelRequest, sent again until the query ends. */
    private static void cancel(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pc_big (id INT PRIMARY KEY, v INT)");
            StringBuilder sb = new StringBuilder("INSERT INTO pc_big VALUES ");
            for (int i = 1; i <= 3000; i++) {
                sb.append(i == 1 ? "" : ",").append('(').append(i).append(',').append(i % 7).append(')');
            }
            st.execute(sb.toString());
        }
        Statement q = c.createStatement();
        CompletableFuture<String> run = CompletableFuture.supplyAsync(() -> {
            try (ResultSet rs = q.executeQuery("SELECT count(*) FROM pc_big a CROSS JOIN pc_big b CROSS JOIN pc_big c"
                    + " WHERE a.v + b.v + c.v = 1")) {
                return "finished";
            } catch (SQLException e) {
                return e.getSQLState();
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String outcome = "still running after 60 s";
        boolean first = true;
        while (System.nanoTime() < deadline) {
            // Statement.cancel() sends one CancelRequest per execution (then the statement counts as
            // cancelled); one that reaches the server before the query does is lost, as with
            // PostgreSQL, so later rounds send the connection's cancel (PGConnection.cancelQuery)
            if (first) {
                q.cancel();
                first = false;
            } else {
                c.unwrap(PGConnection.class).cancelQuery();
            }
            try {
                outcome = run.get(100, TimeUnit.MILLISECONDS);
                break;
            } catch (TimeoutException notYet) {
                // still running
            }
        }
        q.close();
        step("Statement.cancel() of a long query", "57014", outcome);
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM pc_big")) {
            rs.next();
            step("the session goes on after the cancel", 3000L, rs.getLong(1));
        }
    }

    private static List<String> rows(ResultSet rs, String... columns) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (String col : columns) {
                    sb.append(sb.length() == 0 ? "" : "|").append(rs.getString(col));
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    interface Check {
        Object get() throws SQLException;
    }

    /** A step whose SQLException is its failure (the session goes on with the next step). */
    private static void check(String name, Object expected, Check actual) {
        Object got;
        try {
            got = actual.get();
        } catch (SQLException e) {
            got = "SQLException " + e.getSQLState() + ": " + e.getMessage();
        }
        step(name, expected, got);
    }

    private static void metadata(Connection c) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        check("getTables", List.of("pc_big|TABLE", "pc_child|TABLE", "pc_items|TABLE", "pc_parent|TABLE"),
                () -> rows(md.getTables(null, "public", "pc\\_%", new String[]{"TABLE"}), "TABLE_NAME", "TABLE_TYPE"));
        check("getColumns", List.of(
                        "id|-5|int8|19|0|NO|null|1|NO",
                        "parent_id|4|int4|10|0|NO|null|2|NO",
                        "qty|4|int4|10|1|YES|1|3|NO",
                        "at|93|timestamp|29|1|YES|null|4|NO",
                        "price|2|numeric|8|1|YES|null|5|NO"),
                () -> rows(md.getColumns(null, "public", "pc\\_child", "%"), "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME",
                        "COLUMN_SIZE", "NULLABLE", "IS_NULLABLE", "COLUMN_DEF", "ORDINAL_POSITION", "IS_AUTOINCREMENT"));
        if (!"1".equals(System.getenv("PG_CLIENTS_CATALOG"))) {
            // pgjdbc's queries for these use arrays (conkey[pos.n], indoption[i] & 1),
            // information_schema._pg_expandarray(...).n and generate_series in FROM: not yet answered
            System.out.println(who + ": skip getPrimaryKeys, getIndexInfo, getImportedKeys, getExportedKeys"
                    + " (PG_CLIENTS_CATALOG=1 runs them)");
            return;
        }
        check("getPrimaryKeys", List.of("pc_child|id|1|pc_child_pkey"),
                () -> rows(md.getPrimaryKeys(null, "public", "pc_child"), "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"));
        check("getIndexInfo", List.of("false|pc_child_pkey|1|id|A", "true|pc_child_at|1|at|D"),
                () -> rows(md.getIndexInfo(null, "public", "pc_child", false, false), "NON_UNIQUE", "INDEX_NAME",
                        "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC").stream().map(s -> s.replaceFirst("^f\\|", "false|")
                        .replaceFirst("^t\\|", "true|")).sorted().toList());
        check("getIndexInfo (unique only)", List.of("pc_parent_name_key|name", "pc_parent_pkey|id"),
                () -> rows(md.getIndexInfo(null, "public", "pc_parent", true, false), "INDEX_NAME", "COLUMN_NAME")
                        .stream().sorted().toList());
        check("getImportedKeys", List.of("pc_parent|id|pc_child|parent_id|1|pc_child_parent_id_fkey|pc_parent_pkey"),
                () -> rows(md.getImportedKeys(null, "public", "pc_child"), "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_NAME",
                        "FKCOLUMN_NAME", "KEY_SEQ", "FK_NAME", "PK_NAME"));
        check("getExportedKeys", List.of("pc_parent|id|pc_child|parent_id|1|pc_child_parent_id_fkey|pc_parent_pkey"),
                () -> rows(md.getExportedKeys(null, "public", "pc_parent"), "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_NAME",
                        "FKCOLUMN_NAME", "KEY_SEQ", "FK_NAME", "PK_NAME"));
    }
}
