package io.respsql.engine;

import io.respsql.result.Outcome;
import io.respsql.result.ResultSink;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@link SqlEngine#execute} returns: everything the reply needs (rows changed, OK, an integer, lines, or the error). */
class OutcomeTest {
    private final SqlEngine engine = new SqlEngine(new Catalog());

    private Outcome run(String sql) {
        return engine.execute(sql, ResultSink.NONE);
    }

    @Test
    void writesReportTheRowsTheyChanged() {
        Outcome created = run("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
        assertEquals(Outcome.Reply.OK, created.reply());
        assertEquals(1, created.changes());
        Outcome o = run("INSERT INTO t VALUES (1, 1), (2, 1), (3, 2)");
        assertTrue(o.ok());
        assertTrue(o.isWrite());
        assertEquals(3, o.changes());
        assertNull(o.error());
        assertEquals(Outcome.Reply.OK, o.reply());
        assertEquals(0, run("CREATE TABLE IF NOT EXISTS t (x INT)").changes()); // a no-op DDL changed nothing
        o = run("UPDATE t SET v = 5 WHERE v = 1");
        assertEquals(Outcome.Reply.INTEGER, o.reply());
        assertEquals(2, o.value());
        assertEquals(2, o.changes());
        assertSame(o, run("UPDATE t SET v = 6 WHERE v = 5"), "a count of a few rows is a shared outcome");
        o = run("DELETE FROM t WHERE id = 3");
        assertEquals(1, o.value());
        assertEquals(1, o.changes());
    }

    @Test
    void theIntegerRepliesOfThe2010Dialect() {
        run("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
        run("CREATE INDEX t_v ON t (v)");
        Outcome size = run("INSERT INTO t VALUES (1, 1) RETURN SIZE");
        assertEquals(Outcome.Reply.INTEGER, size.reply());
        assertEquals(1, size.changes());
        assertEquals(engine.catalog().table("t").dataBytes() + engine.catalog().table("t").indexBytes(), size.value());
        Outcome dropped = run("DROP TABLE t");
        assertEquals(Outcome.Reply.INTEGER, dropped.reply());
        assertEquals(3, dropped.value(), "the table, its primary key and its index");
        assertEquals(1, dropped.changes());
        Outcome none = run("DROP TABLE IF EXISTS t");
        assertEquals(0, none.value());
        assertEquals(0, none.changes());
    }

    @Test
    void readsAreOkAndChangeNothing() {
        run("CREATE TABLE t (id INT PRIMARY KEY)");
        Outcome tables = run("SHOW TABLES");
        assertEquals(Outcome.Reply.LINES, tables.reply());
        assertEquals(List.of("t"), tables.lines());
        assertFalse(tables.isWrite());
        assertEquals(-1, tables.changes());
        List<String> desc = run("DESC t").lines();
        assertEquals(2, desc.size(), desc.toString());
        assertEquals("id | INT | PRIMARY KEY", desc.get(0));
        assertTrue(desc.get(1).startsWith("INFO: rows=0 "), desc.get(1));
        Outcome select = run("SELECT * FROM t");
        assertSame(Outcome.rows(), select);
        assertFalse(select.isWrite());
    }

    @Test
    void aFailureCarriesItsError() {
        Outcome o = run("INSERT INTO nope VALUES (1)");
        assertFalse(o.ok());
        assertFalse(o.isWrite());
        assertEquals(Outcome.Reply.ERROR, o.reply());
        assertEquals("ERR table 'nope' does not exist", o.error());
        engine.writeGuard(() -> "READONLY You can't write against a read only replica.");
        o = run("CREATE TABLE u (id INT)");
        assertEquals("READONLY You can't write against a read only replica.", o.error());
    }

    /** Each kind of failure carries PostgreSQL's SQLSTATE code, while the reply's text stays as it was. */
    @Test
    void aFailureCarriesItsSqlState() {
        run("CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL, s TEXT)");
        run("INSERT INTO t VALUES (1, 1, 'a'), (2, 2, 'b')");
        String[][] cases = {
            {"SELEKT 1", "42601"},
            {"SELECT 1 /* open", "42601"},
            {"SELECT * FROM nope", "42P01"},
            {"SELECT nope FROM t", "42703"},
            {"INSERT INTO t VALUES (1, 5, 'x')", "23505"},
            {"UPDATE t SET id = 2 WHERE id = 1", "23505"},
            {"INSERT INTO t VALUES (3, NULL, 'x')", "23502"},
            {"INSERT INTO t VALUES (3, 3000000000, 'x')", "22003"},
            {"SELECT (SELECT id FROM t)", "21000"},
            {"SELECT nofunc(1)", "42883"},
            {"CREATE TABLE t (x INT)", "42P07"},
            {"DROP INDEX nope", "42704"},
            {"SELECT v FROM t GROUP BY SUM(v)", "42803"},
            {"SELECT * FROM t FULL JOIN t AS u ON t.id = u.id", "0A000"},
            {"DEALLOCATE nope", "26000"},
        };
        for (String[] c : cases) {
            Outcome o = run(c[0]);
            assertFalse(o.ok(), c[0]);
            assertEquals(c[1], o.sqlState(), c[0] + " -> " + o.error());
        }
        assertNull(run("SELECT 1").sqlState());
        engine.writeGuard(() -> "READONLY You can't write against a read only replica.");
        assertEquals("25006", run("DELETE FROM t").sqlState());
    }
}
