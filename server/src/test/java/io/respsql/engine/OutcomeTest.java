package io.respsql.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@link SqlEngine#execute} returns beside its one reply: rows changed, a read, or the error. */
class OutcomeTest {
    private final SqlEngine engine = new SqlEngine(new Catalog());
    private final ByteBuf buf = Unpooled.buffer();
    private final RespWriter out = new RespWriter().target(buf);

    @AfterEach
    void release() {
        buf.release();
    }

    private Outcome run(String sql) {
        buf.clear();
        return engine.execute(sql, out);
    }

    private String reply() {
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void writesReportTheRowsTheyChanged() {
        assertEquals(1, run("CREATE TABLE t (id INT PRIMARY KEY, v INT)").changes());
        Outcome o = run("INSERT INTO t VALUES (1, 1), (2, 1), (3, 2)");
        assertTrue(o.ok());
        assertTrue(o.isWrite());
        assertEquals(3, o.changes());
        assertNull(o.error());
        assertEquals("+OK\r\n", reply());
        assertEquals(0, run("CREATE TABLE IF NOT EXISTS t (x INT)").changes()); // a no-op DDL changed nothing
    }

    @Test
    void readsAreOkAndChangeNothing() {
        run("CREATE TABLE t (id INT PRIMARY KEY)");
        assertSame(Outcome.READ, run("SHOW TABLES"));
        assertSame(Outcome.READ, run("DESC t"));
        assertFalse(Outcome.READ.isWrite());
        assertEquals(-1, Outcome.READ.changes());
    }

    @Test
    void aFailureCarriesTheErrorTheReplyCarries() {
        Outcome o = run("INSERT INTO nope VALUES (1)");
        assertFalse(o.ok());
        assertFalse(o.isWrite());
        assertEquals("ERR table 'nope' does not exist", o.error());
        assertEquals("-" + o.error() + "\r\n", reply());
        engine.writeGuard(() -> "READONLY You can't write against a read only replica.");
        o = run("CREATE TABLE u (id INT)");
        assertEquals("READONLY You can't write against a read only replica.", o.error());
        assertEquals("-" + o.error() + "\r\n", reply());
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
            assertEquals("-" + o.error() + "\r\n", reply(), c[0]);
        }
        assertNull(run("SELECT 1").sqlState());
        engine.writeGuard(() -> "READONLY You can't write against a read only replica.");
        assertEquals("25006", run("DELETE FROM t").sqlState());
    }
}
