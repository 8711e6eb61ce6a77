package io.respsql.storage;

import io.respsql.index.LongIntBTree;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TableTest {
    /** t (id INT PRIMARY KEY, fk INT, v BIGINT, f FLOAT, s TEXT) */
    private final Table t = new Table("t", List.of("id", "fk", "v", "f", "s"),
            List.of(ColumnType.INT, ColumnType.INT, ColumnType.BIGINT, ColumnType.FLOAT, ColumnType.TEXT), 0);
    private final IntColumn id = (IntColumn) t.column("id");
    private final IntColumn fk = (IntColumn) t.column("fk");
    private final LongColumn v = (LongColumn) t.column("v");
    private final DoubleColumn f = (DoubleColumn) t.column("f");
    private final TextColumn s = (TextColumn) t.column("s");

    /** Writes a row the way INSERT does: allocate, set every column, then index. */
    private int insert(int idValue, int fkValue, String text) {
        int row = t.allocateRow();
        id.set(row, idValue);
        fk.set(row, fkValue);
        v.set(row, idValue * 1_000_000_000L);
        f.set(row, idValue / 4.0);
        s.set(row, text.getBytes(StandardCharsets.UTF_8));
        t.indexRow(row);
        return row;
    }

    /** Rows under {@code key} in an index, in index order. */
    private static List<Integer> rowsAt(TableIndex ix, long key) {
        List<Integer> out = new ArrayList<>();
        LongIntBTree.Cursor c = ix.tree().cursor();
        for (boolean ok = c.seek(key); ok && c.key() == key; ok = c.next()) {
            out.add(c.row());
        }
        return out;
    }

    @Test
    void columnsAndPrimaryKey() {
        assertEquals("t", t.name());
        assertEquals(5, t.columnCount());
        assertSame(id, t.primaryColumn());
        assertSame(fk, t.column("FK"), "column names are case-insensitive");
        assertNull(t.column("nope"));
        assertEquals(3, t.column(3).position());
        assertEquals(ColumnType.FLOAT, t.column(3).type());
        assertEquals("t:id:pk", t.primaryIndex().name());
        assertTrue(t.primaryIndex().isPrimary());
        assertSame(t.primaryIndex(), t.indexOn(id));
        assertNull(t.indexOn(fk));
        assertTrue(t.isIndexed(id));
        assertFalse(t.isIndexed(fk));
    }

    @Test
    void primaryKeyNeedNotBeTheFirstColumn() {
        Table u = new Table("u", List.of("name", "code"), List.of(ColumnType.TEXT, ColumnType.BIGINT), 1);
        assertEquals("code", u.primaryColumn().name());
        assertEquals("u:code:pk", u.primaryIndex().name());
    }

    @Test
    void insertedRowsAreFoundByPrimaryKey() {
        int a = insert(10, 1, "ten");
        int b = insert(20, 1, "twenty");
        assertEquals(2, t.rowCount());
        assertEquals(a, t.findByPrimaryKey(10));
        assertEquals(b, t.findByPrimaryKey(20));
        assertEquals(-1, t.findByPrimaryKey(30));
        assertTrue(t.isLive(a));
        assertEquals(20_000_000_000L, v.get(b));
        assertEquals(5.0, f.get(b));
        assertEquals("twenty", s.getString(b));
    }

    @Test
    void deleteRemovesIndexEntriesAndFreesTheSlot() {
        t.createIndex("t:fk:index", fk);
        TableIndex byFk = t.indexOn(fk);
        int a = insert(1, 7, "a");
        int b = insert(2, 7, "b");
        t.deleteRow(a);
        assertEquals(1, t.rowCount());
        assertFalse(t.isLive(a));
        assertEquals(-1, t.findByPrimaryKey(1));
        assertEquals(List.of(b), rowsAt(byFk, 7));
        assertEquals("", s.getString(a), "a freed slot holds no old text");

        int again = insert(1, 8, "a again");
        assertEquals(a, again, "the freed slot is reused");
        assertEquals(again, t.findByPrimaryKey(1));
        assertEquals(List.of(b), rowsAt(byFk, 7));
        assertEquals(List.of(again), rowsAt(byFk, 8));
        assertEquals("a again", s.getString(again));
    }

    @Test
    void indexBuiltOverExistingRowsHoldsEveryRow() {
        List<Integer> fkIsThree = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            int row = insert(i, i % 7, "r" + i);
            if (i % 7 == 3) {
                fkIsThree.add(row);
            }
        }
        t.deleteRow(t.findByPrimaryKey(3));
        fkIsThree.remove(Integer.valueOf(3));
        TableIndex ix = t.createIndex("t:fk:index", fk);
        assertSame(ix, t.indexOn(fk));
        assertFalse(ix.isPrimary());
        assertTrue(ix.exact());
        assertEquals(999, ix.tree().size());
        assertEquals(fkIsThree, rowsAt(ix, 3));
    }

    @Test
    void textIndexesAreNotExact() {
        assertFalse(t.createIndex("t:s:index", s).exact());
        assertTrue(t.createIndex("t:f:index", f).exact());
    }

    @Test
    void indexedChangeMovesTheEntry() {
        TableIndex ix = t.createIndex("t:fk:index", fk);
        int a = insert(1, 5, "a");
        int b = insert(2, 5, "b");
        t.beforeIndexedChange(fk, a);
        fk.set(a, 6);
        t.afterIndexedChange(fk, a);
        assertEquals(List.of(b), rowsAt(ix, 5));
        assertEquals(List.of(a), rowsAt(ix, 6));
        assertEquals(2, ix.tree().size());
    }

    @Test
    void everyIndexOnAColumnIsMaintained() {
        TableIndex first = t.createIndex("t:fk:one", fk);
        TableIndex second = t.createIndex("t:fk:two", fk);
        int a = insert(1, 5, "a");
        t.beforeIndexedChange(fk, a);
        fk.set(a, 9);
        t.afterIndexedChange(fk, a);
        assertEquals(List.of(a), rowsAt(first, 9));
        assertEquals(List.of(a), rowsAt(second, 9));
        assertEquals(List.of(), rowsAt(second, 5));
    }

    @Test
    void dropIndexKeepsThePrimaryKey() {
        t.createIndex("t:fk:index", fk);
        assertFalse(t.dropIndex("t:id:pk"), "the primary key is not a droppable index");
        assertTrue(t.dropIndex("T:FK:INDEX"), "index names are case-insensitive");
        assertNull(t.indexOn(fk));
        assertFalse(t.isIndexed(fk));
        assertEquals(1, t.indexes().size());
        assertFalse(t.dropIndex("t:fk:index"));
    }

    @Test
    void rowsBeyondTheFirstChunk() {
        int n = Chunks.SIZE + 100;
        for (int i = 0; i < n; i++) {
            insert(i, i % 3, i % 1000 == 0 || i >= Chunks.SIZE ? "k" + i : "");
        }
        assertEquals(n, t.rowCount());
        int last = t.findByPrimaryKey(n - 1);
        assertEquals(n - 1, last);
        assertEquals((n - 1) % 3, fk.get(last));
        assertEquals((n - 1) * 1_000_000_000L, v.get(last));
        assertEquals("k" + (n - 1), s.getString(last));
        assertEquals("k65000", s.getString(t.findByPrimaryKey(65000)));
        assertEquals("", s.getString(t.findByPrimaryKey(65001)));
        for (int i = 0; i < n; i += 2) {
            t.deleteRow(t.findByPrimaryKey(i));
        }
        assertEquals(n / 2, t.rowCount());
        int seen = 0;
        for (int r = t.rows().nextLive(0); r >= 0; r = t.rows().nextLive(r + 1)) {
            assertEquals(1, id.get(r) % 2, "only odd ids remain");
            seen++;
        }
        assertEquals(n / 2, seen);
    }

    @Test
    void smallTablesStaySmall() {
        long empty = t.dataBytes();
        insert(0, 0, "x");
        long one = t.dataBytes();
        assertTrue(one < 64 * 1024, "a one-row table must not allocate whole 65,536-row chunks: " + one);
        for (int i = 1; i < 10; i++) {
            insert(i, 0, "x");
        }
        long ten = t.dataBytes();
        for (int i = 10; i < 1000; i++) {
            insert(i, 0, "x");
        }
        long thousand = t.dataBytes();
        assertTrue(empty <= one && one <= ten && ten <= thousand, empty + " " + one + " " + ten + " " + thousand);
        assertTrue(ten < 2 * one, "ten rows cost less than twice one row: " + ten + " vs " + one);
        assertTrue(thousand < 10 * ten, "a thousand rows cost less than ten times ten rows: " + thousand + " vs " + ten);
    }

    @Test
    void bytesPerRowApproachTheColumnWidths() {
        int n = 3 * Chunks.SIZE;
        for (int i = 0; i < n; i++) {
            insert(i, 0, "abcd");
        }
        double perRow = t.dataBytes() / (double) n;
        // id 4 + fk 4 + v 8 + f 8 + text reference 8 + text 4-byte length and 4 bytes = 40, plus the live bitmap
        assertTrue(perRow >= 40 && perRow < 44, "bytes per row " + perRow);
        assertTrue(t.indexBytes() > 0);
    }

    @Test
    void maybeCompactTextKeepsValues() {
        String big = "y".repeat(2000);
        for (int i = 0; i < 100; i++) {
            insert(i, 0, "keep " + i);
        }
        for (int round = 0; round < 10; round++) {
            for (int i = 0; i < 100; i++) {
                s.set(t.findByPrimaryKey(i), (big + round + i).getBytes(StandardCharsets.UTF_8));
            }
        }
        assertTrue(s.garbageBytes() > 1 << 20);
        t.maybeCompactText();
        assertEquals(0, s.garbageBytes());
        for (int i = 0; i < 100; i++) {
            assertEquals(big + 9 + i, s.getString(t.findByPrimaryKey(i)));
        }
    }

    @Test
    void indexesBuiltOverSortedAndUnsortedColumnsAreOrderedByKeyThenRow() {
        for (int i = 0; i < 3000; i++) {
            insert(i, 3000 - i / 2, "x"); // id ascending by slot, fk descending with duplicates
        }
        t.deleteRow(10);
        for (TableIndex ix : List.of(t.createIndex("t:id2", id), t.createIndex("t:fk2", fk))) {
            LongIntBTree.Cursor c = ix.tree().cursor();
            long lastKey = Long.MIN_VALUE;
            int lastRow = -1;
            int n = 0;
            for (boolean ok = c.first(); ok; ok = c.next()) {
                assertTrue(c.key() > lastKey || (c.key() == lastKey && c.row() > lastRow), ix.name());
                assertEquals(ix.column().indexKey(c.row()), c.key());
                lastKey = c.key();
                lastRow = c.row();
                n++;
            }
            assertEquals(2999, n);
        }
        assertEquals(List.of(8, 9), rowsAt(t.indexOn(fk), 2996));
    }
}
