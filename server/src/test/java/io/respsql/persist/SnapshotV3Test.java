package io.respsql.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.SqlEngine;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;
import io.respsql.storage.ColumnType;
import io.respsql.storage.PreparedDef;
import io.respsql.storage.Table;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.List;
import java.util.zip.CRC32C;

import static io.respsql.persist.SnapshotTesting.fixture;
import static io.respsql.persist.SnapshotTesting.load;
import static io.respsql.persist.SnapshotTesting.reply;
import static io.respsql.persist.SnapshotTesting.snapshot;
import static io.respsql.persist.SnapshotTesting.sql;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Format version 3 (prepared statements) and reading version 2. */
class SnapshotV3Test {
    private static String execute(SqlEngine engine, String name, String... values) {
        ByteBuf buf = Unpooled.buffer();
        EngineReplies.runPrepared(engine, name, List.of(values), new RespWriter().target(buf));
        return reply(buf);
    }

    /** A catalog with a table and prepared statements of every kind of parameter. */
    private static SqlEngine sample() {
        SqlEngine e = new SqlEngine(new Catalog());
        for (String s : new String[] {
                "CREATE TABLE kv (id INT PRIMARY KEY, v BIGINT, s TEXT, day DATE)",
                "INSERT INTO kv VALUES (1, 10, 'a?', '2024-01-02'), (2, 20, 'b', NULL)",
                // a '?' inside a quoted string is no parameter; the second one the value types
                "PREPARE Get SELECT v, s FROM kv WHERE id = ? AND s <> '?' AND ? = ?",
                "PREPARE gone SELECT 1",
                "PREPARE put INSERT INTO kv VALUES (?, ?, ?, ?)",
                "PREPARE none SELECT COUNT(*) FROM kv",
                "DEALLOCATE gone",
                "PREPARE none SELECT COUNT(*) FROM kv WHERE id > 0", // replaced: the newest text is kept
        }) {
            String r = sql(e, s);
            assertTrue(r.startsWith("+OK") || r.startsWith(":"), s + " -> " + r);
        }
        return e;
    }

    @Test
    void preparedStatementsRoundTripWithTheirParameterTypes() throws IOException {
        SqlEngine before = sample();
        byte[] snap = snapshot(before.catalog());
        assertEquals(4, snap[8]);
        Catalog loaded = load(snap);
        assertEquals(before.preparedStatements(), new SqlEngine(loaded).preparedStatements());
        assertEquals(List.of("PREPARE Get SELECT v, s FROM kv WHERE id = ? AND s <> '?' AND ? = ?",
                "PREPARE put INSERT INTO kv VALUES (?, ?, ?, ?)",
                "PREPARE none SELECT COUNT(*) FROM kv WHERE id > 0"), before.preparedStatements());
        for (PreparedDef p : before.catalog().preparedStatements()) {
            PreparedDef q = loaded.prepared(p.name());
            assertEquals(p.text(), q.text());
            assertArrayEquals(p.marks(), q.marks());
            assertEquals(p.params(), q.params());
        }
        PreparedDef get = loaded.prepared("get");
        assertEquals(List.of(new PreparedDef.Param(ColumnType.INT, "id"), new PreparedDef.Param(null, null),
                new PreparedDef.Param(null, null)), get.params());
        assertNull(loaded.prepared("gone"));

        SqlEngine after = new SqlEngine(loaded);
        assertEquals("*1 $5 10,a?", execute(after, "get", "1", "x", "x"));
        assertEquals("*0", execute(after, "GET", "1", "x", "y"));
        assertEquals("-ERR value 'one' for parameter 1 of prepared statement 'Get' does not fit its type INT (column 'id')",
                execute(after, "get", "one", "1", "1"));
        assertEquals("+OK", execute(after, "put", "3", "30", "c", "2024-03-04"));
        assertEquals("-ERR value '1.5' for parameter 2 of prepared statement 'put' does not fit its type BIGINT (column 'v')",
                execute(after, "put", "4", "1.5", "d", "2024-03-04"));
        assertEquals(":3", execute(after, "none"));
    }

    /** The typing saved is the typing made at PREPARE time, not one made again against the loaded tables. */
    @Test
    void theTypesSavedAreThoseOfPrepareTime() throws IOException {
        SqlEngine e = new SqlEngine(new Catalog());
        assertEquals("+OK", sql(e, "PREPARE early SELECT * FROM later WHERE id = ?")); // no table yet: untyped
        assertEquals("+OK", sql(e, "CREATE TABLE later (id INT PRIMARY KEY)"));
        Catalog loaded = load(snapshot(e.catalog()));
        assertEquals(List.of(new PreparedDef.Param(null, null)), loaded.prepared("early").params());
    }

    /**
     * dump-v2.rsql was written by the version-2 writer (SnapshotWriter of commit 705399c) after:
     * CREATE TABLE item (id INT PRIMARY KEY, qty BIGINT NOT NULL DEFAULT 1, price FLOAT, label TEXT,
     * ok BOOLEAN, day DATE, at TIMESTAMP); INSERT (1, 5, 1.5, 'one', TRUE, '2024-01-02', '2024-01-02
     * 03:04:05'); INSERT (id, price, label) VALUES (2, NULL, 'two'); INSERT (3, 7, -0.25, 'trois é',
     * FALSE, NULL, NULL); DELETE id 2; CREATE INDEX item_label ON item (label DESC, qty); CREATE VIEW
     * cheap (id, label) AS SELECT id, label FROM item WHERE price < 1; PREPARE get ... (which
     * version 2 did not carry).
     */
    @Test
    void theVersionTwoFixtureLoads() throws Exception {
        Catalog catalog = new Catalog();
        SnapshotReader.Result r = SnapshotReader.load(fixture("dump-v2.rsql"), catalog);
        assertEquals(1, r.tables());
        assertEquals(2, r.rows());
        assertEquals(0, r.preparedStatements());
        assertTrue(catalog.preparedStatements().isEmpty());
        Table item = catalog.table("item");
        assertEquals(3, item.rows().highWater());
        assertEquals(1, item.peekRow(0)); // the deleted slot is reused first
        assertEquals(List.of("item:id:pk", "item_label"), item.indexes().stream().map(ix -> ix.name()).toList());
        assertEquals("1", item.column("qty").defaultText());
        assertTrue(item.column("qty").notNull());
        SqlEngine e = new SqlEngine(catalog);
        assertEquals("*2 $44 1,5,1.5,one,1,2024-01-02,2024-01-02 03:04:05 $22 3,7,-0.25,trois é,0,,",
                sql(e, "SELECT * FROM item ORDER BY id"));
        assertEquals("*1 $10 3,trois é", sql(e, "SELECT * FROM cheap"));
        assertEquals("*2 $8 trois é $3 one", sql(e, "SELECT label FROM item ORDER BY label DESC"));

        // written again as version 4 (with an empty prepared section) and read back the same
        String before = SnapshotV2Test.describe(catalog);
        byte[] again = snapshot(catalog);
        assertEquals(4, again[8]);
        assertEquals(before, SnapshotV2Test.describe(load(again)));
    }

    @Test
    void aParameterMarkThatIsNotAQuestionMarkIsCorrupt() throws IOException {
        SqlEngine e = new SqlEngine(new Catalog());
        assertEquals("+OK", sql(e, "PREPARE p SELECT ?"));
        byte[] snap = snapshot(e.catalog());
        // the section: count 1, name "p", text "SELECT ?", 1 parameter, mark 7, type 0; then the
        // (version 4) section count, checksum, end marker
        int section = snap.length - 8 - 4 - 4 - (4 + 4 + 1 + 4 + 8 + 4 + 4 + 1);
        ByteBuffer b = ByteBuffer.wrap(snap).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1, b.getInt(section));
        int markAt = section + 4 + 5 + 12 + 4;
        assertEquals(7, b.getInt(markAt));
        b.putInt(markAt, 6); // the space before the '?'
        CRC32C crc = new CRC32C();
        crc.update(snap, 0, snap.length - 12);
        b.putInt(snap.length - 12, (int) crc.getValue()); // a well-formed file, only the mark is wrong
        SnapshotException x = assertThrows(SnapshotException.class, () -> load(snap));
        assertTrue(x.getMessage().contains("prepared statement p: parameter mark at 6 is not a '?' of the text"),
                x.getMessage());
        Catalog untouched = new Catalog();
        assertThrows(SnapshotException.class, () -> SnapshotReader.load(
                Channels.newChannel(new ByteArrayInputStream(snap)), "test", untouched));
        assertTrue(untouched.preparedStatements().isEmpty());
    }
}
