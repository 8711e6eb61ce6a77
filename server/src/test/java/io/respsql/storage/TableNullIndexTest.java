package io.respsql.storage;

import io.respsql.index.IndexKeys;
import io.respsql.index.LongIntBTree;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tables without a primary key, NULL-free indexes, multi-column UNIQUE indexes, work tables, views, undo. */
class TableNullIndexTest {
    private static ColumnSpec spec(String name, ColumnType type) {
        return new ColumnSpec(name, type, false, null);
    }

    /** t (a INT, s TEXT, f FLOAT), no primary key. */
    private final Table t = new Table("t", List.of(spec("a", ColumnType.INT), spec("s", ColumnType.TEXT),
            spec("f", ColumnType.FLOAT)), -1);
    private final IntColumn a = (IntColumn) t.column("a");
    private final TextColumn s = (TextColumn) t.column("s");
    private final DoubleColumn f = (DoubleColumn) t.column("f");

    /** Writes a row; a null argument stores NULL. Not indexed yet. */
    private int write(Integer av, String sv, Double fv) {
        int r = t.allocateRow();
        if (av == null) {
            a.setNull(r);
        } else {
            a.set(r, av);
        }
        if (sv == null) {
            s.setNull(r);
        } else {
            s.set(r, sv.getBytes(StandardCharsets.UTF_8));
        }
        if (fv == null) {
            f.setNull(r);
        } else {
            f.set(r, fv);
        }
        return r;
    }

    private int insert(Integer av, String sv, Double fv) {
        int r = write(av, sv, fv);
        t.indexRow(r);
        return r;
    }

    private static List<Integer> rows(LongIntBTree tree) {
        List<Integer> out = new ArrayList<>();
        LongIntBTree.Cursor c = tree.cursor();
        for (boolean ok = c.first(); ok; ok = c.next()) {
            out.add(c.row());
        }
        return out;
    }

    @Test
    void aTableWithoutPrimaryKeyHoldsDuplicates() {
        assertFalse(t.hasPrimaryKey());
        assertNull(t.primaryColumn());
        assertNull(t.primaryIndex());
        assertTrue(t.indexes().isEmpty());
        int r0 = insert(1, "x", 1.0);
        int r1 = insert(1, "x", 1.0);
        assertEquals(2, t.rowCount());
        assertTrue(r0 != r1);
        assertThrows(IllegalStateException.class, () -> t.findByPrimaryKey(1));
        t.deleteRow(r0);
        assertEquals(1, t.rowCount());
        Catalog catalog = new Catalog();
        catalog.add(t);
        assertSame(t, catalog.table("T"));
        CatalogImage image = catalog.capture();
        assertEquals(-1, image.tables().get(0).primaryPosition());
        assertTrue(image.tables().get(0).indexNames().isEmpty());
        image.release();
        assertEquals(2, catalog.drop(t) + 1, "the table and no index");
    }

    @Test
    void nullsStayOutOfIndexes() {
        int r0 = insert(1, "a", 1.0);
        int r1 = insert(null, null, null);
        int r2 = insert(2, "b", null);
        TableIndex ia = t.createIndex("t_a", a);
        TableIndex is = t.createIndex("t_s", s);
        assertEquals(List.of(r0, r2), rows(ia.tree()), "bulk load skips NULLs");
        assertEquals(List.of(r0, r2), rows(is.tree()));
        int r3 = insert(null, "c", 3.0);
        assertEquals(List.of(r0, r2), rows(ia.tree()), "indexRow skips NULLs");
        assertEquals(List.of(r0, r2, r3), rows(is.tree()));
        // NULL -> value, value -> NULL, NULL -> NULL
        t.beforeIndexedChange(a, r1);
        a.set(r1, 0);
        t.afterIndexedChange(a, r1);
        t.beforeIndexedChange(a, r0);
        a.setNull(r0);
        t.afterIndexedChange(a, r0);
        t.beforeIndexedChange(a, r3);
        a.setNull(r3);
        t.afterIndexedChange(a, r3);
        assertEquals(List.of(r1, r2), rows(ia.tree()));
        assertTrue(t.isIndexed(a));
        assertFalse(t.isIndexed(f));
        t.deleteRow(r0); // NULL in a: must not touch t_a
        t.deleteRow(r1);
        assertEquals(List.of(r2), rows(ia.tree()));
        assertEquals(List.of(r2, r3), rows(is.tree()));
        assertEquals(1, ia.tree().size());
        assertEquals(2, is.tree().size());
    }

    @Test
    void multiColumnUniqueIndex() {
        TableIndex ix = t.createIndex("t_sa", List.of(s, a), true, new boolean[] {false, true});
        assertSame(s, ix.column());
        assertEquals(List.of(s, a), ix.columns());
        assertTrue(ix.unique());
        assertFalse(ix.isPrimary());
        assertTrue(ix.descending(1));
        assertFalse(ix.descending()[0]);
        assertTrue(t.coveredByUnique(a));
        assertFalse(t.coveredByUnique(f));
        // texts sharing their 8-byte prefix key
        insert(1, "abcdefgh-one", 0.0);
        insert(2, "abcdefgh-one", 0.0);
        int r = write(1, "abcdefgh-two", 0.0);
        assertFalse(t.violatesUnique(ix, r), "same prefix key, different text");
        t.indexRow(r);
        int dup = write(2, "abcdefgh-one", 5.0);
        assertTrue(t.violatesUnique(ix, dup));
        a.setNull(dup);
        assertFalse(t.violatesUnique(ix, dup), "a NULL in the key never collides");
        a.set(dup, 3);
        assertFalse(t.violatesUnique(ix, dup));
        t.indexRow(dup);
        assertFalse(t.violatesUnique(ix, dup), "an indexed row does not collide with itself");
        int nulls1 = insert(7, "n", 0.0);
        a.setNull(nulls1);
        int nulls2 = write(null, "n", 0.0);
        assertFalse(t.violatesUnique(ix, nulls2), "the other row's NULL does not collide either");
        int gone = write(1, "abcdefgh-two", 0.0);
        assertTrue(t.violatesUnique(ix, gone));
        t.deleteRow(r);
        assertFalse(t.violatesUnique(ix, gone), "deleted rows do not count");
        assertEquals(4, ix.tree().size(), "rows with a NULL in a later column stay in the tree");
    }

    @Test
    void workTablesTruncateWithoutLeakingValues() {
        Table w = Table.workTable("w", List.of(spec("k", ColumnType.BIGINT), spec("s", ColumnType.TEXT)));
        assertTrue(w.isWorkTable());
        assertFalse(w.hasPrimaryKey());
        assertTrue(w.indexes().isEmpty());
        assertThrows(IllegalArgumentException.class, () -> new Catalog().add(w));
        LongColumn k = (LongColumn) w.column(0);
        TextColumn ws = (TextColumn) w.column(1);
        for (int run = 0; run < 3; run++) {
            w.truncate();
            assertEquals(0, w.rowCount());
            assertEquals(0, w.rows().highWater());
            for (int n = 0; n < 2000; n++) {
                int r = w.allocateRow();
                assertEquals(n, r, "slots restart at 0");
                assertFalse(k.isNull(r), "no NULL bit survives truncate");
                assertEquals("", ws.getString(r), "no text survives truncate");
                if (n % 3 == 0) {
                    k.setNull(r);
                    ws.setNull(r);
                } else {
                    k.set(r, n + run);
                    ws.set(r, ("v" + n + "-" + run).getBytes(StandardCharsets.UTF_8));
                }
            }
            assertEquals(2000, w.rowCount());
            assertEquals("v1-" + run, ws.getString(1));
            assertTrue(ws.isNull(3));
        }
    }

    @Test
    void truncateEmptiesIndexes() {
        Table p = new Table("p", List.of(spec("id", ColumnType.INT), spec("s", ColumnType.TEXT)), 0);
        TableIndex ix = p.createIndex("p_s", p.column("s"));
        for (int n = 0; n < 10; n++) {
            int r = p.allocateRow();
            ((IntColumn) p.column(0)).set(r, n);
            ((TextColumn) p.column(1)).set(r, ("s" + n).getBytes(StandardCharsets.UTF_8));
            p.indexRow(r);
        }
        p.truncate();
        assertEquals(0, p.primaryIndex().tree().size());
        assertEquals(0, p.indexes().get(1).tree().size());
        assertEquals(-1, p.findByPrimaryKey(3));
        assertEquals("p_s", ix.name());
    }

    @Test
    void viewsShareTheTableNamespace() {
        Catalog catalog = new Catalog();
        catalog.add(t);
        assertTrue(catalog.nameTaken("T"));
        assertFalse(catalog.nameTaken("v"));
        ViewDef v = new ViewDef("V", List.of("x"), "SELECT a FROM t");
        catalog.addView(v);
        assertTrue(catalog.nameTaken("v"));
        assertSame(v, catalog.view("v"));
        assertNull(catalog.table("v"));
        assertEquals(List.of(v), new ArrayList<>(catalog.views()));
        CatalogImage image = catalog.capture();
        assertEquals(List.of(v), image.views());
        image.release();
        assertSame(v, catalog.dropView("V"));
        assertNull(catalog.dropView("V"));
        catalog.addView(v);
        catalog.clear();
        assertTrue(catalog.views().isEmpty());
        assertFalse(catalog.nameTaken("v"));
    }

    @Test
    void rollbackRestoresNullsViewsAndIndexDefinitions() {
        Catalog catalog = new Catalog();
        catalog.add(t);
        TableIndex ia = t.createIndex("t_a", a);
        catalog.registerIndex("t_a", t);
        TableIndex ix = t.createIndex("t_sa", List.of(s, a), true, new boolean[] {true, false});
        catalog.registerIndex("t_sa", t);
        int r0 = insert(1, "one", 1.0);
        int r1 = insert(null, null, null);
        int r2 = insert(3, "three", null);
        ViewDef old = new ViewDef("old", List.of(), "SELECT 1");
        catalog.addView(old);

        UndoLog undo = new UndoLog(catalog);
        // UPDATE t SET a = NULL/5, s = 'x' ...
        int[] changed = {r0, r1};
        undo.changingCells(t, new Column[] {a, s}, changed, 2);
        t.beforeIndexedChange(a, r0);
        a.setNull(r0);
        t.afterIndexedChange(a, r0);
        t.beforeIndexedChange(a, r1);
        a.set(r1, 5);
        t.afterIndexedChange(a, r1);
        t.beforeIndexedChange(s, r0);
        s.set(r0, "x".getBytes(StandardCharsets.UTF_8));
        t.afterIndexedChange(s, r0);
        t.beforeIndexedChange(s, r1);
        s.set(r1, "x".getBytes(StandardCharsets.UTF_8));
        t.afterIndexedChange(s, r1);
        // DELETE the row with NULLs in it
        undo.deletingRows(t, new int[] {r2}, 1);
        t.deleteRow(r2);
        // CREATE VIEW, DROP VIEW, DROP INDEX
        undo.catalogChanging();
        catalog.addView(new ViewDef("fresh", List.of(), "SELECT 2"));
        undo.viewAdded("fresh");
        undo.catalogChanging();
        catalog.dropView("old");
        undo.viewDropped(old);
        undo.catalogChanging();
        undo.indexDropping(t, "t_sa");
        t.dropIndex("t_sa");
        catalog.unregisterIndex("t_sa");
        assertEquals(-1, t.indexPosition("t_sa"));
        assertEquals(List.of(ia), t.indexes());

        undo.rollback();
        assertEquals(3, t.rowCount());
        assertFalse(a.isNull(r0));
        assertEquals(1, a.get(r0));
        assertEquals("one", s.getString(r0));
        assertTrue(a.isNull(r1));
        assertTrue(s.isNull(r1));
        assertTrue(f.isNull(r1));
        assertTrue(t.isLive(r2));
        assertTrue(f.isNull(r2), "a deleted row's NULL comes back");
        assertEquals(3, a.get(r2));
        assertEquals(List.of(r0, r2), rows(ia.tree()), "the NULL row is out of the index again");
        assertNull(catalog.view("fresh"));
        assertSame(old, catalog.view("old"));
        int at = t.indexPosition("t_sa");
        assertTrue(at >= 0);
        TableIndex back = t.indexes().get(at);
        assertEquals(List.of(s, a), back.columns());
        assertTrue(back.unique());
        assertTrue(back.descending(0));
        assertFalse(back.descending(1));
        assertEquals(List.of(r0, r2), rows(back.tree()), "rebuilt without the NULL row");
        assertSame(t, catalog.indexOwner("t_sa"));
        assertEquals(ix.name(), back.name());
    }

    @Test
    void indexKeysOfTheNewTypesAreTheirLongValue() {
        Table n = new Table("n", List.of(spec("b", ColumnType.BOOLEAN), spec("d", ColumnType.DATE),
                spec("ts", ColumnType.TIMESTAMP)), -1);
        int r = n.allocateRow();
        ((IntColumn) n.column(0)).set(r, 1);
        ((IntColumn) n.column(1)).set(r, -365);
        ((LongColumn) n.column(2)).set(r, Long.MIN_VALUE + 1);
        TableIndex ix = n.createIndex("n_ts", n.column(2));
        assertEquals(1L, n.column(0).indexKey(r));
        assertEquals(-365L, n.column(1).indexKey(r));
        assertEquals(r, ix.tree().firstRow(Long.MIN_VALUE + 1));
        assertTrue(ix.exact());
        assertEquals(IndexKeys.ofText("abc".getBytes(StandardCharsets.UTF_8)),
                IndexKeys.ofTextPrefix("abcxyz".getBytes(StandardCharsets.UTF_8), 0, 3));
    }
}
