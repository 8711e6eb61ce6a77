package io.respsql.storage;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NULL bitmaps in every column type, the new types, and NULLs under copy-on-write captures. */
class NullStorageTest {
    private static ColumnSpec spec(String name, ColumnType type) {
        return new ColumnSpec(name, type, false, null);
    }

    /** t (i INT, l BIGINT, d FLOAT, s TEXT, b BOOLEAN, dt DATE, ts TIMESTAMP), no primary key. */
    private final Table t = new Table("t", List.of(spec("i", ColumnType.INT), spec("l", ColumnType.BIGINT),
            spec("d", ColumnType.FLOAT), spec("s", ColumnType.TEXT), spec("b", ColumnType.BOOLEAN),
            spec("dt", ColumnType.DATE), spec("ts", ColumnType.TIMESTAMP)), -1);
    private final IntColumn i = (IntColumn) t.column("i");
    private final LongColumn l = (LongColumn) t.column("l");
    private final DoubleColumn d = (DoubleColumn) t.column("d");
    private final TextColumn s = (TextColumn) t.column("s");
    private final IntColumn b = (IntColumn) t.column("b");
    private final IntColumn dt = (IntColumn) t.column("dt");
    private final LongColumn ts = (LongColumn) t.column("ts");

    private int row(int v) {
        int r = t.allocateRow();
        i.set(r, v);
        l.set(r, v * 10L);
        d.set(r, v + 0.5);
        s.set(r, ("s" + v).getBytes(StandardCharsets.UTF_8));
        b.set(r, v & 1);
        dt.set(r, v + 19000);
        ts.set(r, v * 1_000_000L);
        t.indexRow(r);
        return r;
    }

    @Test
    void newTypesReportTheDeclaredTypeAndUseTheIntegerColumns() {
        assertEquals(ColumnType.BOOLEAN, b.type());
        assertEquals(ColumnType.DATE, dt.type());
        assertEquals(ColumnType.TIMESTAMP, ts.type());
        assertEquals(ColumnType.INT, b.type().storedAs());
        assertEquals(ColumnType.BIGINT, ts.type().storedAs());
        int r = row(3);
        assertEquals(1, b.get(r));
        assertEquals(19003L, dt.indexKey(r));
        assertEquals(3_000_000L, ts.indexKey(r));
    }

    @Test
    void typeNamesParse() {
        for (String n : List.of("INT", "integer", "SmallInt", "TINYINT", "mediumint")) {
            assertEquals(ColumnType.INT, ColumnType.parse(n), n);
        }
        for (String n : List.of("BIGINT", "long")) {
            assertEquals(ColumnType.BIGINT, ColumnType.parse(n), n);
        }
        for (String n : List.of("FLOAT", "double", "DOUBLE PRECISION", "double precision", "REAL", "numeric", "DECIMAL")) {
            assertEquals(ColumnType.FLOAT, ColumnType.parse(n), n);
        }
        for (String n : List.of("TEXT", "varchar", "CHAR", "character", "CHARACTER VARYING", "String", "CLOB")) {
            assertEquals(ColumnType.TEXT, ColumnType.parse(n), n);
        }
        assertEquals(ColumnType.BOOLEAN, ColumnType.parse("bool"));
        assertEquals(ColumnType.BOOLEAN, ColumnType.parse("BOOLEAN"));
        assertEquals(ColumnType.DATE, ColumnType.parse("date"));
        assertEquals(ColumnType.TIMESTAMP, ColumnType.parse("DateTime"));
        assertEquals(ColumnType.TIMESTAMP, ColumnType.parse("TIMESTAMP"));
        assertNull(ColumnType.parse("BLOB"));
        assertNull(ColumnType.parse("DOUBLE  PRECISION"));
        assertNull(ColumnType.parseLegacy("SMALLINT"), "the old engine keeps the 2010 names only");
        assertEquals(ColumnType.TEXT, ColumnType.parseLegacy("varchar"));
    }

    @Test
    void aColumnWithoutNullsHasNoBitmap() {
        for (int k = 0; k < 100; k++) {
            row(k);
        }
        long before = t.dataBytes();
        for (int c = 0; c < t.columnCount(); c++) {
            Column col = t.column(c);
            assertFalse(col.mayHaveNulls());
            assertEquals(0, col.nulls.length, col.name());
            assertFalse(col.isNull(5));
        }
        i.setNull(5);
        assertTrue(i.mayHaveNulls());
        assertEquals(1, i.nulls.length);
        assertTrue(t.dataBytes() > before, "the bitmap is counted");
        assertFalse(l.mayHaveNulls());
    }

    @Test
    void setNullClearsTheValueAndSettersClearTheBit() {
        int r0 = row(7);
        int r1 = row(8);
        for (int c = 0; c < t.columnCount(); c++) {
            t.column(c).setNull(r0);
        }
        for (int c = 0; c < t.columnCount(); c++) {
            Column col = t.column(c);
            assertTrue(col.isNull(r0), col.name());
            assertFalse(col.isNull(r1), col.name());
            assertTrue(col.mayHaveNulls());
        }
        assertEquals(0, i.get(r0));
        assertEquals(0L, l.get(r0));
        assertEquals(0.0, d.get(r0));
        assertEquals("", s.getString(r0));
        assertEquals(0, s.length(r0));
        assertEquals(0, b.get(r0));
        assertEquals(0L, ts.get(r0));
        assertEquals("s8", s.getString(r1));

        i.set(r0, 42);
        l.set(r0, 43);
        d.set(r0, 4.5);
        byte[] buf = "xxhelloxx".getBytes(StandardCharsets.UTF_8);
        s.set(r0, buf, 2, 5);
        b.set(r0, 1);
        dt.set(r0, 1);
        ts.set(r0, -1);
        for (int c = 0; c < t.columnCount(); c++) {
            assertFalse(t.column(c).isNull(r0), t.column(c).name());
        }
        assertEquals("hello", s.getString(r0));
        assertEquals(42, i.get(r0));

        s.setNull(r0);
        s.set(r0, new byte[0]);
        assertFalse(s.isNull(r0), "the empty string is not NULL");
        assertEquals("", s.getString(r0));
        i.setNull(r1);
        i.clear(r1);
        assertFalse(i.isNull(r1), "clear() drops the NULL bit");
    }

    @Test
    void nullBitsSurviveTheFirstChunkGrowingAndSpanChunks() {
        int first = row(0);
        d.setNull(first);
        s.setNull(first);
        int n = Chunks.SIZE + 300; // the first chunk grows from 1024 slots, then a second chunk
        for (int k = 1; k < n; k++) {
            row(k);
        }
        assertTrue(d.isNull(first));
        assertTrue(s.isNull(first));
        int far = Chunks.SIZE + 200;
        d.setNull(far);
        d.setNull(2000);
        for (int k = 0; k < n; k++) {
            assertEquals(k == first || k == far || k == 2000, d.isNull(k), "row " + k);
            assertEquals(k == first, s.isNull(k), "row " + k);
        }
        assertEquals(0.0, d.get(far), "a NULL reads as 0.0");
    }

    @Test
    void capturesKeepNullBitsAsTheyWere() {
        Catalog catalog = new Catalog();
        catalog.add(t);
        int r0 = row(1);
        int r1 = row(2);
        int r2 = row(3);
        i.setNull(r0);
        s.setNull(r0);
        CatalogImage image = catalog.capture();
        ColumnImage ci = image.tables().get(0).column(0);
        ColumnImage cs = image.tables().get(0).column(3);
        ColumnImage cd = image.tables().get(0).column(2);
        // writes after the capture: un-NULL r0, NULL r1 and r2 (d had no bitmap at all)
        i.set(r0, 99);
        s.set(r0, "new".getBytes(StandardCharsets.UTF_8));
        i.setNull(r1);
        d.setNull(r2);
        assertTrue(ci.isNull(r0));
        assertFalse(ci.isNull(r1));
        assertEquals(2, ci.getInt(r1));
        assertTrue(cs.isNull(r0));
        assertEquals(0, cs.textLength(r0));
        assertFalse(cd.hasNulls());
        assertFalse(cd.isNull(r2));
        assertEquals(3.5, cd.getDouble(r2));
        assertEquals(1L, ci.nullWord(0));
        assertTrue(ci.hasNulls());
        // and the table sees its own writes
        assertFalse(i.isNull(r0));
        assertTrue(i.isNull(r1));
        assertTrue(d.isNull(r2));
        image.release();
        // after release writes go in place; the image is not read again
        i.setNull(r2);
        assertTrue(i.isNull(r2));
    }

    @Test
    void aFirstChunkGrowingUnderACaptureLeavesTheCapturedBitmapAlone() {
        Catalog catalog = new Catalog();
        catalog.add(t);
        for (int k = 0; k < 10; k++) {
            row(k);
        }
        l.setNull(3);
        CatalogImage image = catalog.capture();
        ColumnImage cl = image.tables().get(0).column(1);
        for (int k = 10; k < 3000; k++) {
            row(k); // the first chunk grows past 1024 slots: a new array, and a new bitmap
        }
        l.setNull(4);
        l.set(3, 33);
        l.setNull(2500);
        assertTrue(cl.isNull(3));
        assertFalse(cl.isNull(4));
        assertEquals(40L, cl.getLong(4));
        assertEquals(1L << 3, cl.nullWord(0));
        assertEquals(0L, cl.nullWord(2500 / 64));
        assertFalse(l.isNull(3));
        assertTrue(l.isNull(4));
        assertTrue(l.isNull(2500));
        image.release();
    }

    @Test
    void declaredConstraintsAreKept() {
        Table p = new Table("p", List.of(new ColumnSpec("id", ColumnType.BIGINT, false, null),
                new ColumnSpec("n", ColumnType.TEXT, true, "'none'"), spec("x", ColumnType.INT)), 0);
        assertTrue(p.hasPrimaryKey());
        assertTrue(p.column("id").notNull(), "a primary key column is NOT NULL");
        assertTrue(p.column("n").notNull());
        assertEquals("'none'", p.column("n").defaultText());
        assertFalse(p.column("x").notNull());
        assertNull(p.column("x").defaultText());
        assertSame(p.column("id"), p.primaryColumn());
    }
}
