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
}
