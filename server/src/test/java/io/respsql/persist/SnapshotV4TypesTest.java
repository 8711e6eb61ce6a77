package io.respsql.persist;

import io.respsql.engine.SqlEngine;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.zip.CRC32C;

import static io.respsql.persist.SnapshotTesting.fixture;
import static io.respsql.persist.SnapshotTesting.load;
import static io.respsql.persist.SnapshotTesting.snapshot;
import static io.respsql.persist.SnapshotTesting.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Format version 4: a column's type modifier (varchar(n)) after its flags, and kinds of sections
 * after the prepared statements that a reader skips when it does not know them; version 3 still
 * loads ({@code dump-v3-types.rsql}, committed, written by {@link #versionThree}'s recipe from the
 * statements of {@link #sample}).
 */
/** Type modifiers (varchar(n)) in version 4, and the committed version-3 fixture of every column type; the
 * sections (sequences, constraints, unknown kinds) are {@link SnapshotV4Test}'s. */
class SnapshotV4TypesTest {
    private static SqlEngine sample() {
        SqlEngine e = new SqlEngine(new Catalog());
        for (String s : new String[] {
            "CREATE TABLE item (id INT PRIMARY KEY, qty INT NOT NULL DEFAULT 1, price FLOAT, label TEXT, ok BOOLEAN, d DATE)",
            "INSERT INTO item VALUES (1, 5, 1.5, 'one', TRUE, DATE '2024-01-02'), (2, 6, NULL, NULL, NULL, NULL), (3, 7, -0.25, 'trois é', FALSE, NULL)",
            "DELETE FROM item WHERE id = 2",
            "CREATE INDEX item_label ON item (label)",
            "CREATE VIEW cheap AS SELECT id, label FROM item WHERE price < 1",
            "PREPARE get SELECT label FROM item WHERE id = ?",
        }) {
            String reply = sql(e, s);
            assertTrue(!reply.startsWith("-"), s + ": " + reply);
        }
        return e;
    }

    /** A version-4 snapshot without type modifiers, made version 3: no section count, version 3, checksum again. */
    static byte[] versionThree(byte[] v4) {
        int tail = 4 + 8; // checksum, end marker
        byte[] v3 = new byte[v4.length - 4];
        System.arraycopy(v4, 0, v3, 0, v4.length - tail - 4);
        System.arraycopy(v4, v4.length - tail, v3, v3.length - tail, tail);
        ByteBuffer b = ByteBuffer.wrap(v3).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(8, 3);
        CRC32C crc = new CRC32C();
        crc.update(v3, 0, v3.length - tail);
        b.putInt(v3.length - tail, (int) crc.getValue());
        return v3;
    }

    @Test
    void theVersionThreeFixtureLoads() throws Exception {
        byte[] v3 = Files.readAllBytes(fixture("dump-v3-types.rsql"));
        assertEquals(3, v3[8]);
        Catalog catalog = load(v3);
        SqlEngine e = new SqlEngine(catalog);
        assertEquals("*2 $24 1,5,1.5,one,1,2024-01-02 $21 3,7,-0.25,trois é,0,", sql(e, "SELECT * FROM item ORDER BY id"));
        assertEquals("*1 $10 3,trois é", sql(e, "SELECT * FROM cheap"));
        assertEquals("[PREPARE get SELECT label FROM item WHERE id = ?]", e.preparedStatements().toString());
        assertEquals(-1, catalog.table("item").column("label").typeModifier());
        // (how the fixture was made: versionThree's recipe over sample(), when version 4 had no sections yet)
    }

    @Test
    void typeModifiersRoundTrip() throws IOException {
        SqlEngine e = new SqlEngine(new Catalog());
        assertEquals("+OK", sql(e, "CREATE TABLE v (id INT PRIMARY KEY, s VARCHAR(3), t CHARACTER VARYING(12), u TEXT DEFAULT 'x')"));
        byte[] snap = snapshot(e.catalog());
        assertEquals(4, snap[8]);
        Catalog loaded = load(snap);
        assertEquals(3, loaded.table("v").column("s").typeModifier());
        assertEquals(12, loaded.table("v").column("t").typeModifier());
        assertEquals(-1, loaded.table("v").column("u").typeModifier());
        assertEquals("'x'", loaded.table("v").column("u").defaultText());
    }

    /** charn: char(n) is n with ValueRules.CHAR_FLAG in the same modifier field; a modifier without it (an older snapshot's CHAR(n), as v here) stays varchar-like. */
    @Test
    void charModifiersRoundTrip() throws IOException {
        SqlEngine e = new SqlEngine(new Catalog());
        assertEquals("+OK", sql(e, "CREATE TABLE c (id INT PRIMARY KEY, a CHAR(4), b CHARACTER(2), v VARCHAR(4))"));
        // the RESP dialect keeps its rules: CHAR(n) is text of any length, stored as given, shown unpadded
        assertEquals("+OK", sql(e, "INSERT INTO c VALUES (1, 'abcdefg', 'x ', 'y')"));
        assertEquals("*1 $14 1,abcdefg,x ,y", sql(e, "SELECT * FROM c"));
        Catalog loaded = load(snapshot(e.catalog()));
        assertEquals(4, io.respsql.exec.write.ValueRules.charLength(loaded.table("c").column("a")));
        assertEquals(2, io.respsql.exec.write.ValueRules.charLength(loaded.table("c").column("b")));
        assertEquals(-1, io.respsql.exec.write.ValueRules.charLength(loaded.table("c").column("v")));
        assertEquals(4 | io.respsql.exec.write.ValueRules.CHAR_FLAG, loaded.table("c").column("a").typeModifier());
    }
}
