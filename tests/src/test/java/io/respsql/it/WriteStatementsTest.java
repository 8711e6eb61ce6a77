package io.respsql.it;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.respsql.it.Resp.OK;
import static io.respsql.it.Resp.error;
import static io.respsql.it.Resp.integer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The write side of the SQL engine over the wire (issue 10): INSERT with column lists, DEFAULT,
 * NULL and NOT NULL; tables without a primary key; UNIQUE, multi-column and DESC indexes; views;
 * IF [NOT] EXISTS; DUMP replaying NULLs exactly; MULTI taking back the new statement kinds.
 * The data is read back through DUMP (the write side's own view of the rows).
 */
class WriteStatementsTest extends SqlTestBase {
    private List<String> dump(String table) {
        return SqlSession.Replies.bulks(s.sql("DUMP " + table));
    }

    private List<String> rowsOf(String table) {
        List<String> d = dump(table);
        List<String> rows = new ArrayList<>();
        for (String line : d) {
            if (line.startsWith("INSERT ")) {
                rows.add(line.substring(line.indexOf("VALUES (") + 8, line.length() - 1));
            }
        }
        return rows;
    }

    @Test
    void aColumnListInAnyOrderAndOmittedColumnsTakeTheirDefaultOrNull() {
        s.expectSql("CREATE TABLE d (id INT PRIMARY KEY, a INT DEFAULT 7, b TEXT, c FLOAT NOT NULL DEFAULT 1.5)", OK);
        s.expectSql("INSERT INTO d (b, id) VALUES ('x', 1)", OK);
        s.expectSql("INSERT INTO d (c, id, a) VALUES (2, 2, NULL)", OK);
        s.expectSql("INSERT INTO d (id) VALUES (3), (4)", OK);
        s.expectSql("INSERT INTO d VALUES (5, -6, 'it''s, quoted', 0.25)", OK);
        assertEquals(List.of("1,7,'x',1.5", "2,NULL,NULL,2", "3,7,NULL,1.5", "4,7,NULL,1.5", "5,-6,'it''s, quoted',0.25"),
                rowsOf("d"));
        assertEquals("CREATE TABLE d (id INT PRIMARY KEY, a INT DEFAULT 7, b TEXT, c FLOAT NOT NULL DEFAULT 1.5)", dump("d").get(0));
    }

    @Test
    void notNullIsCheckedForEveryRowAndNamesTheColumn() {
        s.expectSql("CREATE TABLE n (id INT PRIMARY KEY, v INT NOT NULL, w TEXT)", OK);
        s.expectSql("INSERT INTO n VALUES (1, 1, NULL)", OK);
        s.expectRejectedSql("INSERT INTO n (id, w) VALUES (2, 'x')", "ERR column 'v' of table 'n' cannot be NULL");
        s.expectRejectedSql("INSERT INTO n VALUES (2, 2, 'a'), (3, NULL, 'b')", "ERR column 'v' of table 'n' cannot be NULL");
        s.expectRejectedSql("INSERT INTO n VALUES (NULL, 2, 'a')", "ERR column 'id' of table 'n' cannot be NULL");
        assertEquals(List.of("1,1,NULL"), rowsOf("n"));
    }

    @Test
    void the2010ValueRulesStay() {
        s.expectSql("CREATE TABLE e (id INT PRIMARY KEY, division INT, salary FLOAT, name TEXT)", OK);
        s.expectSql("INSERT INTO e VALUES (000000000001, '5', 4, marieanne)", OK);
        s.expectSql("INSERT INTO e VALUES (2, 3, 4.0, foo-bar)", OK);
        s.expectSql("INSERT INTO e (name, salary, division, id) VALUES (hello world, 1e3, 4.0, 3)", OK);
        assertEquals(List.of("1,5,4,'marieanne'", "2,3,4,'foo-bar'", "3,4,1000,'hello world'"), rowsOf("e"));
        s.expectRejectedSql("INSERT INTO e VALUES (4, 1.5, 1, x)", "ERR value 1.5 is not a whole number for INT column 'division'");
        s.expectRejectedSql("INSERT INTO e VALUES (4, 2147483648, 1, x)", "ERR value 2147483648 is out of range for INT column 'division'");
        s.expectRejectedSql("INSERT INTO e VALUES (4, abc, 1, x)", "ERR value abc is not a valid INT for column 'division'");
        s.expectRejectedSql("INSERT INTO e VALUES (4, 'abc', 1, x)", "ERR value 'abc' is not a valid INT for column 'division'");
        s.expectRejectedSql("INSERT INTO e VALUES (1, 1, 1, x)",
                "ERR INSERT on Existing Data - use UPDATE (table 'e' already has id=1)");
        s.expectRejectedSql("INSERT INTO e VALUES (7, 1, 1, x), (7, 2, 2, y)",
                "ERR INSERT on Existing Data - use UPDATE (table 'e' already has id=7)");
        s.expectRejectedSql("INSERT INTO e (name) VALUES (x)", "ERR INSERT into 'e' must give primary key column 'id'");
        s.expectRejectedSql("INSERT INTO e (id, nope) VALUES (9, 1)", "ERR column 'nope' does not exist in table 'e'");
        s.expectRejectedSql("CREATE TABLE u (a BLOB)", "ERR unknown type 'BLOB' for column 'a' (use INT, BIGINT, FLOAT, TEXT, BOOLEAN, DATE or TIMESTAMP)");
        assertTrue(s.sql("INSERT INTO e VALUES (10, 1, 1, x) RETURN SIZE").startsWith(":"));
    }

    @Test
    void aTableWithoutPrimaryKeyHoldsDuplicatesAndNulls() {
        s.expectSql("CREATE TABLE p (a INT, b TEXT, c FLOAT)", OK);
        s.expectSql("INSERT INTO p VALUES (1, 'x', 1.5), (1, 'x', 1.5), (NULL, NULL, NULL)", OK);
        s.expectSql("INSERT INTO p (c) VALUES (2)", OK);
        assertEquals(List.of("1,'x',1.5", "1,'x',1.5", "NULL,NULL,NULL", "NULL,NULL,2"), rowsOf("p"));
        s.expectSql("SHOW INDEXES FROM p", Resp.EMPTY);
        s.expectSql("CREATE INDEX p_a ON p (a)", OK);
        s.expectSql("SHOW INDEXES FROM p", Resp.rows("p_a ON p (a)"));
    }

    @Test
    void uniqueIndexesRefuseDuplicatesButNotNulls() {
        s.expectSql("CREATE TABLE u (id INT PRIMARY KEY, e TEXT UNIQUE)", OK);
        s.expectSql("INSERT INTO u VALUES (1, 'a')", OK);
        s.expectRejectedSql("INSERT INTO u VALUES (2, 'a')", "ERR UNIQUE index 'u:e:unique' of table 'u' already has (e) = ('a')");
        s.expectRejectedSql("INSERT INTO u VALUES (2, 'b'), (3, 'c'), (4, 'b')",
                "ERR UNIQUE index 'u:e:unique' of table 'u' already has (e) = ('b')");
        s.expectSql("INSERT INTO u VALUES (5, NULL), (6, NULL)", OK);
        assertEquals(List.of("1,'a'", "5,NULL", "6,NULL"), rowsOf("u"));
        s.expectSql("SHOW INDEXES FROM u", Resp.rows("u:id:pk ON u (id) PRIMARY KEY", "u:e:unique ON u (e) UNIQUE"));
    }

    @Test
    void multiColumnDescAndUniqueIndexesAndIfNotExists() {
        s.expectSql("CREATE TABLE w (a INT, b INT, c TEXT)", OK);
        s.expectSql("INSERT INTO w VALUES (1, 1, 'x'), (1, 1, 'y'), (1, 2, NULL)", OK);
        s.expectRejectedSql("CREATE UNIQUE INDEX w_ab ON w (a, b)",
                "ERR cannot create UNIQUE index 'w_ab': table 'w' has more than one row with (a, b) = (1, 1)");
        s.expectSql("CREATE UNIQUE INDEX w_bc ON w (b DESC, c)", OK);
        s.expectSql("CREATE INDEX w_a ON w (a DESC, b)", OK);
        s.expectSql("CREATE INDEX IF NOT EXISTS w_a ON w (c)", OK);
        s.expectRejectedSql("CREATE INDEX w_a ON w (c)", "ERR index 'w_a' already exists");
        s.expectSql("SHOW INDEXES FROM w", Resp.rows("w_bc ON w (b DESC, c) UNIQUE", "w_a ON w (a DESC, b)"));
        s.expectRejectedSql("INSERT INTO w VALUES (9, 1, 'y')", "ERR UNIQUE index 'w_bc' of table 'w' already has (b, c) = (1, 'y')");
        s.expectSql("INSERT INTO w VALUES (9, 2, NULL)", OK); // NULL never equals NULL
        assertEquals(List.of("CREATE TABLE w (a INT, b INT, c TEXT)", "CREATE UNIQUE INDEX w_bc ON w (b DESC, c)",
                "CREATE INDEX w_a ON w (a DESC, b)"), dump("w").subList(0, 3));
        s.expectSql("CREATE TABLE IF NOT EXISTS w (z INT)", OK);
        assertEquals("CREATE TABLE w (a INT, b INT, c TEXT)", dump("w").get(0));
        s.expectSql("DROP INDEX IF EXISTS nope", OK);
        s.expectSql("DROP INDEX w_a", OK);
        s.expectSql("DROP TABLE IF EXISTS nope", integer(0));
        s.expectRejectedSql("DROP TABLE nope", "ERR table 'nope' does not exist");
    }

    @Test
    void aCompositePrimaryKeyIsAUniqueIndexOverNotNullColumns() {
        s.expectSql("CREATE TABLE k (a INT, b INT, v TEXT, PRIMARY KEY (a, b))", OK);
        s.expectSql("INSERT INTO k VALUES (1, 1, 'x'), (1, 2, 'y')", OK);
        s.expectRejectedSql("INSERT INTO k VALUES (1, 1, 'z')", "ERR UNIQUE index 'k:a,b:pk' of table 'k' already has (a, b) = (1, 1)");
        s.expectRejectedSql("INSERT INTO k VALUES (NULL, 1, 'z')", "ERR column 'a' of table 'k' cannot be NULL");
        assertEquals(List.of("1,1,'x'", "1,2,'y'"), rowsOf("k"));
    }

    @Test
    void descShowsNotNullAndDefault() {
        s.expectSql("CREATE TABLE d (id INT PRIMARY KEY, a INT NOT NULL DEFAULT 3, b TEXT DEFAULT 'z')", OK);
        s.expectSql("CREATE INDEX d:a:index ON d (a)", OK);
        List<String> lines = SqlSession.Replies.bulks(s.sql("DESC d"));
        assertEquals(List.of("id | INT | PRIMARY KEY", "a | INT | NOT NULL | DEFAULT 3 | INDEX d:a:index", "b | TEXT | DEFAULT 'z'"),
                lines.subList(0, 3));
    }

    @Test
    void viewsAreCreatedListedDumpedAndDroppedAndTheirNamesAreChecked() {
        s.expectSql("CREATE TABLE t (id INT PRIMARY KEY, v INT)", OK);
        s.expectSql("CREATE VIEW tv AS SELECT id FROM t", OK);
        s.expectSql("CREATE VIEW IF NOT EXISTS tv AS SELECT v FROM t", OK);
        s.expectRejectedSql("CREATE VIEW tv AS SELECT v FROM t", "ERR view 'tv' already exists");
        s.expectRejectedSql("CREATE VIEW t AS SELECT v FROM t", "ERR a table named 't' already exists");
        s.expectRejectedSql("CREATE TABLE tv (a INT)", "ERR a view named 'tv' already exists");
        s.expectRejectedSql("INSERT INTO tv VALUES (1)", "ERR cannot INSERT into view 'tv': views are read-only");
        s.expectRejectedSql("DROP TABLE tv", "ERR 'tv' is a view: use DROP VIEW");
        s.expectRejectedSql("DROP VIEW t", "ERR 't' is a table: use DROP TABLE");
        assertEquals(List.of("t", "tv"), s.tables());
        assertEquals(List.of("CREATE VIEW tv AS SELECT id FROM t"), dump("tv"));
        s.expectSql("SHOW INDEXES FROM tv", Resp.EMPTY);
        s.expectSql("DROP VIEW tv", OK);
        s.expectRejectedSql("DROP VIEW tv", "ERR view 'tv' does not exist");
        s.expectSql("DROP VIEW IF EXISTS tv", OK);
        assertEquals(List.of("t"), s.tables());
    }

    @Test
    void aDumpReplaysToTheSameTableNullsAndQuotesIncluded() {
        s.expectSql("CREATE TABLE r (id INT PRIMARY KEY, n INT, f FLOAT, s TEXT NOT NULL DEFAULT '', big BIGINT)", OK);
        s.expectSql("CREATE UNIQUE INDEX r_big ON r (big DESC)", OK);
        s.expectSql("INSERT INTO r VALUES (1, NULL, 0.1, 'a,b', 9000000000), (2, -3, NULL, 'it''s', NULL), (3, 4, 1e300, '', 1)", OK);
        List<String> before = dump("r");
        s.expectSql("DROP TABLE r", integer(3));
        for (String statement : before) {
            s.expectSql(statement, OK);
        }
        assertEquals(before, dump("r"));
    }

    @Test
    void booleanDateAndTimestampColumnsTakeTheirLiteralsAndDumpThemBack() {
        s.expectSql("CREATE TABLE ev (id INT PRIMARY KEY, ok BOOLEAN, d DATE, at TIMESTAMP)", OK);
        s.expectSql("INSERT INTO ev VALUES (1, TRUE, '2024-06-01', '2024-06-01 12:30:00'),"
                + " (2, 'false', DATE '1999-12-31', TIMESTAMP '2024-06-01 00:00:00.25'), (3, NULL, NULL, NULL)", OK);
        assertEquals(List.of("1,TRUE,DATE '2024-06-01',TIMESTAMP '2024-06-01 12:30:00'",
                "2,FALSE,DATE '1999-12-31',TIMESTAMP '2024-06-01 00:00:00.250000'", "3,NULL,NULL,NULL"), rowsOf("ev"));
        s.expectRejectedSql("INSERT INTO ev VALUES (4, TRUE, '2024-13-01', NULL)", "ERR value '2024-13-01' is not a valid DATE for column 'd'");
        s.expectRejectedSql("INSERT INTO ev VALUES (4, 2, NULL, NULL)", "ERR value 2 is not a valid BOOLEAN for column 'ok'");
        List<String> before = dump("ev");
        s.expectSql("DROP TABLE ev", integer(2));
        for (String statement : before) {
            s.expectSql(statement, OK);
        }
        assertEquals(before, dump("ev"));
    }

    @Test
    void aFailedStatementInMultiTakesBackTheNewStatementKinds() {
        s.expectSql("CREATE TABLE base (id INT PRIMARY KEY, v INT)", OK);
        s.expectSql("CREATE VIEW bv AS SELECT v FROM base", OK);
        assertEquals(OK, s.send("MULTI"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "CREATE TABLE x (id INT, v INT NOT NULL, u TEXT UNIQUE)"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "CREATE INDEX x_v ON x (v DESC, id)"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "INSERT INTO x (v, u) VALUES (1, 'a'), (2, NULL)"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "CREATE VIEW xv AS SELECT v FROM x"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "DROP VIEW bv"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "INSERT INTO base (id) VALUES (1)"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "INSERT INTO x (v) VALUES (NULL)"));
        String reply = s.send("EXEC");
        assertEquals(error("ERR EXEC aborted: statement 7 of 7 failed: column 'v' of table 'x' cannot be NULL;"
                + " no change of this transaction was kept"), reply);
        assertEquals(List.of("base", "bv"), s.tables());
        assertEquals(List.of("CREATE TABLE base (id INT PRIMARY KEY, v INT)"), dump("base"));
        s.expectSql("CREATE TABLE x (id INT)", OK); // the name is free again
    }

    @Test
    void insertSelectGathersEveryRowFirst() {
        s.expectSql("CREATE TABLE t (a INT, b TEXT)", OK);
        s.expectSql("INSERT INTO t VALUES (1, 'x'), (2, NULL)", OK);
        s.expectSql("INSERT INTO t SELECT * FROM t", OK);
        assertEquals(List.of("1,'x'", "2,NULL", "1,'x'", "2,NULL"), rowsOf("t"));
        s.expectSql("CREATE TABLE u (b TEXT, a INT DEFAULT 5, c INT)", OK);
        s.expectSql("INSERT INTO u (c, b) SELECT a, b FROM t WHERE a = 2", OK);
        assertEquals(List.of("NULL,5,2", "NULL,5,2"), rowsOf("u"));
        s.expectRejectedSql("INSERT INTO u (c) SELECT a, b FROM t", "ERR INSERT into 'u' has 2 values for 1 columns (the query's columns)");
        s.expectRejectedSql("CREATE VIEW nv AS SELECT x FROM nope", "ERR table 'nope' does not exist");
    }

    @Test
    void updateAndDeleteTakeAnyPredicateAndNulls() {
        s.expectSql("CREATE TABLE t (a INT, b TEXT, c INT NOT NULL DEFAULT 0)", OK);
        s.expectSql("INSERT INTO t (a, b) VALUES (1, 'x'), (1, 'x'), (2, NULL), (NULL, 'y')", OK);
        s.expectSql("UPDATE t SET b = NULL WHERE a = 1", integer(2));
        s.expectSql("UPDATE t SET c = c + 1 WHERE b IS NULL OR a IS NULL", integer(4));
        s.expectRejectedSql("UPDATE t SET c = NULL WHERE a = 2", "ERR column 'c' of table 't' cannot be NULL");
        s.expectSql("UPDATE t SET a = (SELECT MAX(c) FROM t) WHERE a IS NULL", integer(1));
        assertEquals(List.of("1,NULL,1", "1,NULL,1", "2,NULL,1", "1,'y',1"), rowsOf("t"));
        s.expectSql("DELETE FROM t WHERE b IS NULL AND a IN (SELECT a FROM t WHERE a = 1)", integer(2));
        s.expectSql("DELETE FROM t WHERE b LIKE 'y%'", integer(1));
        assertEquals(List.of("2,NULL,1"), rowsOf("t"));
        s.expectSql("CREATE UNIQUE INDEX t_a ON t (a)", OK);
        s.expectSql("INSERT INTO t (a) VALUES (3)", OK);
        s.expectRejectedSql("UPDATE t SET a = 2 WHERE a = 3", "ERR UNIQUE index 't_a' of table 't' already has (a) = (2)");
    }
}
