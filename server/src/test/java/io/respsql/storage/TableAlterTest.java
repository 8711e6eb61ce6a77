package io.respsql.storage;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ALTER TABLE's storage side: a new column of a large table shares one constant chunk (copied at
 * its first write, never shared with a capture's later view of it), shapes saved and restored,
 * TRUNCATE's detached storage given back.
 */
class TableAlterTest {
    private static final int ROWS = 3 * Chunks.SIZE + 100;

    private static Table table(Catalog catalog) {
        Table t = new Table("t", List.of(new ColumnSpec("id", ColumnType.INT, true, null), new ColumnSpec("v", ColumnType.BIGINT, false, null)), 0);
        for (int i = 0; i < ROWS; i++) {
            int row = t.allocateRow();
            ((IntColumn) t.column(0)).set(row, i);
            ((LongColumn) t.column(1)).set(row, i * 10L);
            t.indexRow(row);
        }
        catalog.add(t);
        return t;
    }

    @Test
    void aConstantColumnSharesOneChunkUntilWritten() {
        Catalog catalog = new Catalog();
        Table t = table(catalog);
        Column added = t.addColumn(new ColumnSpec("c", ColumnType.INT, false, "7"));
        IntColumn c = (IntColumn) t.fillColumn(added, 7L);
        assertSame(c, t.column("c"));
        assertEquals(2, c.position());
        assertSame(c.chunk(0), c.chunk(3)); // one array for every chunk
        assertFalse(c.mayHaveNulls());
        ReadView view = catalog.readView();
        c.set(5, 8);
        assertEquals(8, c.get(5));
        assertEquals(7, c.get(Chunks.SIZE + 5)); // the other chunks still share the constant
        assertNotSame(c.chunk(0), c.chunk(1));
        assertEquals(7, ((IntColumn) view.table("t").column("c")).get(5)); // the capture keeps what it saw
        view.release();
        c.set(Chunks.SIZE + 5, 9);
        assertEquals(7, c.get(2 * Chunks.SIZE + 5));
        assertEquals(9, c.get(Chunks.SIZE + 5));
        int row = t.allocateRow(); // past the covered chunks: a fresh chunk
        c.set(row, 1);
        assertEquals(1, c.get(row));

        Column nulls = t.addColumn(new ColumnSpec("n", ColumnType.TEXT, false, null));
        assertTrue(nulls.isNull(5) && nulls.isNull(3 * Chunks.SIZE + 1));
        ((TextColumn) nulls).set(5, new byte[] {'x'});
        assertFalse(nulls.isNull(5));
        assertTrue(nulls.isNull(6) && nulls.isNull(Chunks.SIZE + 6));
    }

    @Test
    void aSavedShapeComesBackWithItsColumnsAndIndexes() {
        Catalog catalog = new Catalog();
        Table t = table(catalog);
        t.createIndex("t_v", t.column("v"));
        Table.Shape saved = t.saveShape();
        Column v = t.column("v");
        assertEquals(List.of("t_v"), t.dropColumn(v));
        assertNull(t.column("v"));
        t.renameColumn(t.column("id"), "key");
        t.addColumn(new ColumnSpec("w", ColumnType.TEXT, false, null));
        t.restoreShape(saved);
        assertSame(v, t.column("v"));
        assertEquals(List.of("id", "v"), List.of(t.column(0).name(), t.column(1).name()));
        assertEquals(1, v.position());
        assertEquals(2, t.indexes().size());
        assertEquals(50L, ((LongColumn) v).get(5));
        assertEquals(5, t.findByPrimaryKey(5));
    }

    @Test
    void truncatedStorageComesBackWhole() {
        Catalog catalog = new Catalog();
        Table t = table(catalog);
        Table.Rows old = t.detachRows();
        assertEquals(0, t.rowCount());
        assertEquals(-1, t.findByPrimaryKey(5));
        int row = t.allocateRow();
        ((IntColumn) t.column(0)).set(row, 5);
        t.column(1).setNull(row);
        t.indexRow(row);
        assertEquals(row, t.findByPrimaryKey(5));
        t.attachRows(old);
        assertEquals(ROWS, t.rowCount());
        assertEquals(5, t.findByPrimaryKey(5));
        assertEquals(50L, ((LongColumn) t.column("v")).get(5));
    }
}
