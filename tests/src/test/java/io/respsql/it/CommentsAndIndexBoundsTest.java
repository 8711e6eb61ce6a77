package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22's two silent wrong answers, over the wire: SQL comments read as operators ({@code --}
 * as two minus signs, so {@code id = 7 -- 1} deleted row 8), and an index range one of whose
 * BETWEEN bounds is a column of the row (the range was cut by a bound not yet known, dropping rows
 * in SELECT and in UPDATE).
 */
class CommentsAndIndexBoundsTest extends SqlTestBase {

    @Test
    void dashDashIsACommentToTheEndOfTheLine() {
        s.expectSql("SELECT 5 -- 1", "*1\r\n$1\r\n5\r\n");
        s.expectSql("SELECT 5 --1\n - 1", "*1\r\n$1\r\n4\r\n");
        s.expectSql("SELECT 5--1", "*1\r\n$1\r\n5\r\n");
        s.expectSql("SELECT '--not a comment' -- but this is", "*1\r\n$15\r\n--not a comment\r\n");
        s.expectSql("CREATE TABLE tr (id int primary key, v int)", Resp.OK);
        s.expectSql("INSERT INTO tr VALUES (7, 70), (8, 80)", Resp.OK);
        // once a wrong-row DELETE: 7 -- 1 was 7 - (-1) = 8
        s.expectSql("DELETE FROM tr WHERE id = 7 -- 1", ":1\r\n");
        assertEquals(List.of("8,80"), sortedRows("SELECT * FROM tr"));
        // the same through the plan cache: a cached shape with another literal must not mistake a comment's digits
        s.expectSql("UPDATE tr SET v = 1 WHERE id = 8", ":1\r\n");
        s.expectSql("UPDATE tr SET v = 2 WHERE id = 8 -- 3", ":1\r\n");
        assertEquals(List.of("8,2"), sortedRows("SELECT * FROM tr"));
        s.expectSql("UPDATE tr SET v = 5 /* v = 6 */ WHERE id = 8", ":1\r\n");
        assertEquals(List.of("8,5"), sortedRows("SELECT * FROM tr"));
    }

    @Test
    void blockCommentsNestAsInPostgreSql() {
        s.expectSql("SELECT /* a comment */ 1", "*1\r\n$1\r\n1\r\n");
        s.expectSql("SELECT /* outer /* inner */ still outer */ 2", "*1\r\n$1\r\n2\r\n");
        s.expectSql("SELECT 3 /* multi\nline */ + 1", "*1\r\n$1\r\n4\r\n");
        s.expectSql("/* leading */ SELECT 6", "*1\r\n$1\r\n6\r\n");
        s.expectSql("-- leading line\nSELECT 7", "*1\r\n$1\r\n7\r\n");
        s.expectRejectedSql("SELECT 1 /* never closed", "ERR syntax error: unterminated /* comment starting at position 10");
        s.expectRejectedSql("SELECT 1 /* /* */", "ERR syntax error: unterminated /* comment starting at position 10");
    }

    @Test
    void commentsInEveryWayAStatementArrives() {
        s.expectSql("CREATE TABLE c (id int primary key, v int)", Resp.OK);
        // QUERY (the typed form)
        assertEquals("*3\r\n*1\r\n$1\r\nx\r\n*1\r\n$3\r\nINT\r\n*1\r\n:5\r\n", s.send("QUERY", "SELECT 5 AS x -- 1"));
        // the 2010 form, split into arguments: the server joins them with spaces
        assertEquals(Resp.OK, s.send("INSERT", "INTO", "c", "VALUES", "(1,10),(2,20) /* (3,30) */"));
        assertEquals(":1\r\n", s.send("DELETE", "FROM", "c", "WHERE", "id = 2 -- + 1"));
        assertEquals(List.of("1,10"), sortedRows("SELECT * FROM c"));
        // a leading comment does not hide the verb from the checks that read the first word
        s.expectSql("/* c */ INSERT INTO c VALUES (4, 40)", Resp.OK);
        // PREPARE: a ? inside a comment is not a parameter
        s.expectSql("PREPARE p UPDATE c SET v = ? /* was ? */ WHERE id = ? -- id ?", Resp.OK);
        assertEquals(":1\r\n", s.send("EXECUTE", "p", "11", "1"));
        s.expectSql("/* x */ PREPARE q SELECT v FROM c WHERE id = ? -- ?", Resp.OK);
        assertEquals("*1\r\n$2\r\n11\r\n", s.send("EXECUTE", "q", "1"));
        assertEquals(List.of("1,11", "4,40"), sortedRows("SELECT * FROM c"));
    }

    @Test
    void theLogReplaysCommentedStatementsAsTheyRan(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Map<String, List<Object>> before;
        try (TestServer t = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS))) {
            t.dispatch("SQL", "CREATE TABLE r (id int primary key, v int)");
            t.dispatch("SQL", "INSERT INTO r VALUES (1, 1), (2, 2), (3, 3)");
            t.dispatch("SQL", "UPDATE r SET v = v + 10 WHERE id = 2 -- 1");
            t.dispatch("SQL", "DELETE FROM r WHERE id = 1 /* OR id = 3 */");
            before = AofTest.dumpAll(t);
        }
        assertTrue(Files.readString(dir.resolve("appendonly.aof")).contains("-- 1"));
        try (TestServer t = TestServer.start(c -> c.dir(dir).appendOnly(true))) {
            assertEquals(before, AofTest.dumpAll(t));
            assertEquals(List.of("2,12", "3,3"), t.dispatch("SELECT", "*", "FROM", "r", "ORDER", "BY", "id"));
        }
    }

    /** The ten rows of the report: an index on the FLOAT column col1, BETWEEN 68 AND col4. */
    @Test
    void betweenWithAColumnBoundThroughAnIndex() {
        for (String t : new String[] {"tab0", "tab1"}) {
            s.expectSql("CREATE TABLE " + t + " (pk int primary key, col0 int, col1 FLOAT, col3 int, col4 FLOAT)", Resp.OK);
            s.expectSql("INSERT INTO " + t + " VALUES (0,1,70.5,3,80.5),(1,2,68,1,68),(2,3,69,2,60),(3,4,90,9,95.25),"
                    + "(4,5,67,1,100),(5,6,75,7,74.9),(6,7,100,1,200),(7,8,68.5,1,99),(8,9,NULL,1,99),(9,10,80,1,NULL)", Resp.OK);
        }
        s.expectSql("CREATE INDEX idx_tab1_1 ON tab1 (col1)", Resp.OK);
        String[] queries = {
            "SELECT pk FROM %s WHERE col1 BETWEEN 68 AND col4",
            "SELECT pk FROM %s WHERE col1 BETWEEN col3 AND 80",
            "SELECT pk FROM %s WHERE col1 BETWEEN col3 AND col4",
            "SELECT pk FROM %s WHERE col1 >= 68 AND col1 <= col4",
            "SELECT pk FROM %s WHERE NOT col1 BETWEEN 68 AND col4",
        };
        for (String q : queries) {
            List<String> plain = sortedRows(String.format(q, "tab0"));
            assertEquals(plain, sortedRows(String.format(q, "tab1")), q);
        }
        assertEquals(List.of("0", "1", "3", "6", "7"), sortedRows(String.format(queries[0], "tab1")));
        assertTrue(s.sql("EXPLAIN " + String.format(queries[0], "tab1")).contains("filter"),
                "the BETWEEN is tested on every row the range finds");
    }

    /** 400 random rows, indexes on f (FLOAT) and a (INT): reads and writes through the index and through a scan agree. */
    @Test
    void randomRowsReadAndWrittenThroughAnIndexAgreeWithAScan() {
        Random rnd = new Random(22);
        for (String t : new String[] {"plain", "indexed"}) {
            s.expectSql("CREATE TABLE " + t + " (id int primary key, a int, b int, f FLOAT, g FLOAT)", Resp.OK);
        }
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            values.append(i == 0 ? "" : ",").append('(').append(i).append(',').append(rnd.nextInt(1000)).append(',')
                    .append(rnd.nextInt(1000)).append(',').append(rnd.nextInt(100) + 0.5).append(',')
                    .append(rnd.nextInt(5) == 0 ? "NULL" : String.valueOf(rnd.nextInt(100))).append(')');
        }
        s.expectSql("INSERT INTO plain VALUES " + values, Resp.OK);
        s.expectSql("INSERT INTO indexed VALUES " + values, Resp.OK);
        s.expectSql("CREATE INDEX indexed:f ON indexed (f)", Resp.OK);
        s.expectSql("CREATE INDEX indexed:a ON indexed (a)", Resp.OK);
        String[] where = {"f BETWEEN 50 AND g", "a BETWEEN 50 AND b", "a BETWEEN b AND 700", "f BETWEEN g AND 90",
            "a BETWEEN 474 AND b", "a BETWEEN b - 100 AND b + 100"};
        for (String w : where) {
            List<String> plain = sortedRows("SELECT id FROM plain WHERE " + w);
            assertTrue(plain.size() > 10, w);
            assertEquals(plain, sortedRows("SELECT id FROM indexed WHERE " + w), w);
            String changedPlain = s.sql("UPDATE plain SET b = b + 1 WHERE " + w);
            assertEquals(changedPlain, s.sql("UPDATE indexed SET b = b + 1 WHERE " + w), w);
            assertEquals(s.sql("SELECT * FROM plain ORDER BY id"), s.sql("SELECT * FROM indexed ORDER BY id"), w);
            String deletedPlain = s.sql("DELETE FROM plain WHERE id % 7 = 0 AND " + w);
            assertEquals(deletedPlain, s.sql("DELETE FROM indexed WHERE id % 7 = 0 AND " + w), w);
        }
        assertEquals(s.sql("SELECT * FROM plain ORDER BY id"), s.sql("SELECT * FROM indexed ORDER BY id"));
    }

    private List<String> sortedRows(String sql) {
        List<String> rows = new ArrayList<>(SqlSession.Replies.bulks(s.sql(sql)));
        rows.sort(null);
        return rows;
    }

    /** The same class of bug as BETWEEN: an IN list one of whose values reads the row probed an index by it. */
    @Test
    void inListWithAValueThatReadsTheRowThroughAnIndex() {
        for (String t : new String[] {"u", "t"}) {
            s.expectSql("CREATE TABLE " + t + " (id int primary key, a int, b int)", Resp.OK);
            StringBuilder v = new StringBuilder();
            for (int i = 1; i <= 10; i++) {
                v.append(i == 1 ? "" : ",").append('(').append(i).append(',').append(i).append(',').append(11 - i).append(')');
            }
            s.expectSql("INSERT INTO " + t + " VALUES " + v, Resp.OK);
        }
        s.expectSql("CREATE INDEX ia ON t (a)", Resp.OK);
        assertEquals(List.of("3"), sortedRows("SELECT id FROM u WHERE a IN (3, b)"));
        assertEquals(List.of("3"), sortedRows("SELECT id FROM t WHERE a IN (3, b)"));
        assertEquals(List.of(), sortedRows("SELECT id FROM t WHERE a IN (b)"));
        assertEquals(sortedRows("SELECT id FROM u WHERE a IN (b - 1, b + 1, 4)"), sortedRows("SELECT id FROM t WHERE a IN (b - 1, b + 1, 4)"));
        assertEquals(":1\r\n", s.sql("UPDATE u SET b = b + 100 WHERE a IN (3, b)"));
        assertEquals(":1\r\n", s.sql("UPDATE t SET b = b + 100 WHERE a IN (3, b)"));
        assertEquals(":1\r\n", s.sql("DELETE FROM t WHERE a IN (10, b)"));
        assertEquals(":1\r\n", s.sql("DELETE FROM u WHERE a IN (10, b)"));
        assertEquals(s.sql("SELECT * FROM u ORDER BY id"), s.sql("SELECT * FROM t ORDER BY id"));
    }

    /** CAST of an infinite FLOAT to TEXT writes PostgreSQL's words, as NaN: the text compares equal to them. */
    @Test
    void infinityAsTextIsPostgreSqlsWord() {
        s.expectSql("SELECT CAST(CAST('Infinity' AS FLOAT) AS TEXT), CAST(CAST('-inf' AS FLOAT) AS TEXT), CAST(CAST('nan' AS FLOAT) AS TEXT)",
                "*1\r\n$22\r\nInfinity,-Infinity,NaN\r\n");
        s.expectSql("SELECT CAST(CAST('Infinity' AS FLOAT) AS TEXT) = 'Infinity'", "*1\r\n$1\r\n1\r\n");
    }
}
