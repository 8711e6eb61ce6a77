package io.respsql.storage;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CaptureTest {
    private final Catalog catalog = new Catalog();
    /** t (id INT PRIMARY KEY, v BIGINT, f FLOAT, s TEXT) with an index on v. */
    private final Table t = new Table("t", List.of("id", "v", "f", "s"),
            List.of(ColumnType.INT, ColumnType.BIGINT, ColumnType.FLOAT, ColumnType.TEXT), 0);
    private final IntColumn id = (IntColumn) t.column("id");
    private final LongColumn v = (LongColumn) t.column("v");
    private final DoubleColumn f = (DoubleColumn) t.column("f");
    private final TextColumn s = (TextColumn) t.column("s");

    CaptureTest() {
        catalog.add(t);
        t.createIndex("t:v", v);
        catalog.registerIndex("t:v", t);
    }

    private int insert(int key, String text) {
        int row = t.allocateRow();
        id.set(row, key);
        v.set(row, key * 10L);
        f.set(row, key / 2.0);
        s.set(row, text.getBytes(StandardCharsets.UTF_8));
        t.indexRow(row);
        return row;
    }

    private static String text(ColumnImage c, int row) {
        int len = c.textLength(row);
        return len == 0 ? "" : new String(c.textArray(row), c.textOffset(row), len, StandardCharsets.UTF_8);
    }

    /** Asserts the image holds rows 0..n-1 as {@link #insert} wrote them with text "r<key>". */
    private static void assertOriginal(TableImage img, int n) {
        assertEquals(n, img.rows().highWater());
        assertEquals(n, img.rows().liveCount());
        for (int row = 0; row < n; row++) {
            assertTrue(img.rows().isLive(row));
            assertEquals(row, img.column(0).getInt(row));
            assertEquals(row * 10L, img.column(1).getLong(row));
            assertEquals(row / 2.0, img.column(2).getDouble(row));
            assertEquals("r" + row, text(img.column(3), row));
        }
    }

    @Test
    void imageKeepsSchemaAndValuesWhileTheTableChanges() {
        int n = 3 * Chunks.SIZE + 17; // several chunks, the last one partial
        for (int i = 0; i < n; i++) {
            insert(i, "r" + i);
        }
        t.deleteRow(5);
        insert(5, "r5"); // reuses slot 5 from the free list
        CatalogImage image = catalog.capture();
        TableImage img = image.tables().get(0);
        assertEquals("t", img.name());
        assertEquals(0, img.primaryPosition());
        assertEquals(List.of("t:v"), img.indexNames());
        assertEquals(1, img.indexColumn(0));
        assertEquals(ColumnType.TEXT, img.column(3).type());
        assertEquals(0, img.rows().freeCount());

        // Updates of every type, text rewritten until the arena compacts, deletes, inserts, growth.
        for (int row = 0; row < n; row += 1000) {
            id.set(row, -row);
            v.set(row, -1);
            f.set(row, -0.0);
        }
        byte[] big = new byte[4096];
        boolean compacted = false;
        for (int round = 0; round < 3000 && !compacted; round++) {
            s.set(round % 50, big);
            long before = s.garbageBytes();
            t.maybeCompactText();
            compacted = s.garbageBytes() < before;
        }
        assertTrue(compacted, "the arena was compacted");
        for (int row = 1; row < n; row += 7) {
            t.deleteRow(row);
        }
        for (int i = 0; i < Chunks.SIZE; i++) {
            insert(n + i, "new");
        }
        assertOriginal(img, n);
        assertTrue(image.copiedChunks() > 0);

        catalog.drop(t);
        catalog.clear();
        assertOriginal(img, n);
        image.release();
    }

    @Test
    void freeListIsCopiedInOrder() {
        for (int i = 0; i < 10; i++) {
            insert(i, "r" + i);
        }
        t.deleteRow(7);
        t.deleteRow(2);
        t.deleteRow(4);
        CatalogImage image = catalog.capture();
        RowsImage rows = image.tables().get(0).rows();
        t.allocateRow();
        assertArrayEquals(new int[] {7, 2, 4}, rows.freeList());
        assertEquals(7, rows.liveCount());
        assertFalse(rows.isLive(2));
        assertTrue(rows.isLive(3));
        image.release();
    }

    @Test
    void smallFirstChunkThatGrowsAfterCaptureIsNotWrittenThrough() {
        for (int i = 0; i < 10; i++) {
            insert(i, "r" + i);
        }
        CatalogImage image = catalog.capture();
        TableImage img = image.tables().get(0);
        for (int i = 10; i < 5000; i++) { // the 1024-slot first chunk is resized
            insert(i, "x");
        }
        id.set(3, 99);
        assertOriginal(img, 10);
        image.release();
    }

    @Test
    void releaseStopsCopying() {
        for (int i = 0; i < 2 * Chunks.SIZE; i++) {
            insert(i, "r" + i);
        }
        CatalogImage image = catalog.capture();
        id.set(0, -1);
        long copied = image.copiedChunks();
        assertEquals(1, copied);
        id.set(1, -2); // same chunk, already private
        assertEquals(1, image.copiedChunks());
        image.release();
        v.set(0, 5);
        s.set(Chunks.SIZE, "x".getBytes(StandardCharsets.UTF_8));
        t.deleteRow(Chunks.SIZE + 1);
        assertEquals(1, image.copiedChunks(), "no copies after release");

        CatalogImage second = catalog.capture();
        v.set(0, 6);
        s.set(Chunks.SIZE, "y".getBytes(StandardCharsets.UTF_8));
        t.deleteRow(Chunks.SIZE + 2);
        // v chunk 0; s chunk 1; the delete clears id, v, f (chunk 1 each) and the bitmap's chunk 1
        assertEquals(6, second.copiedChunks());
        TableImage img = second.tables().get(0);
        assertEquals(5, img.column(1).getLong(0));
        assertEquals("x", text(img.column(3), Chunks.SIZE));
        assertFalse(img.rows().isLive(Chunks.SIZE + 1));
        assertTrue(img.rows().isLive(Chunks.SIZE + 2));
        second.release();
    }

    @Test
    void restoredRowsReuseSlotsInTheSavedOrder() {
        Table r = new Table("r", List.of("id"), List.of(ColumnType.INT), 0);
        long[] words = {0b1011L}; // slots 0, 1, 3 live; 2 and 4 free
        r.restoreRows(5, words, new int[] {4, 2});
        IntColumn rid = (IntColumn) r.column(0);
        rid.set(0, 10);
        rid.set(1, 11);
        rid.set(3, 13);
        r.restoreIndexes();
        assertEquals(3, r.rowCount());
        assertEquals(3, r.findByPrimaryKey(13));
        assertEquals(2, r.allocateRow(), "the last freed slot first");
        assertEquals(4, r.allocateRow());
        assertEquals(5, r.allocateRow());
    }
}
