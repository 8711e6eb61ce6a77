package io.respsql.storage;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Read views: point-in-time read-only tables over a capture, several outstanding at once. */
class ReadViewTest {
    private final Catalog catalog = new Catalog();
    private final Table t = newTable("t");

    /** t (id INT PRIMARY KEY, v BIGINT, f FLOAT NOT NULL DEFAULT 1.5, s TEXT, d DATE) with an index on v. */
    private Table newTable(String name) {
        Table table = new Table(name, List.of(
                new ColumnSpec("id", ColumnType.INT, false, null),
                new ColumnSpec("v", ColumnType.BIGINT, false, null),
                new ColumnSpec("f", ColumnType.FLOAT, true, "1.5"),
                new ColumnSpec("s", ColumnType.TEXT, false, null),
                new ColumnSpec("d", ColumnType.DATE, false, null)), 0);
        catalog.add(table);
        table.createIndex(name + ":v", table.column("v"));
        catalog.registerIndex(name + ":v", table);
        return table;
    }

    private static int insert(Table table, int key) {
        int row = table.allocateRow();
        write(table, row, key, "r" + key);
        table.indexRow(row);
        return row;
    }

    /** Writes every column of {@code row}; v is NULL for keys divisible by 7. */
    private static void write(Table table, int row, int key, String text) {
        ((IntColumn) table.column(0)).set(row, key);
        if (key % 7 == 0) {
            table.column(1).setNull(row);
        } else {
            ((LongColumn) table.column(1)).set(row, key * 10L);
        }
        ((DoubleColumn) table.column(2)).set(row, key / 4.0);
        ((TextColumn) table.column(3)).set(row, text.getBytes(StandardCharsets.UTF_8));
        ((IntColumn) table.column(4)).set(row, key % 1000);
    }

    /** A changed row, through the index protocol for v (the indexed column). */
    private static void update(Table table, int row, long v, String text, boolean nullText) {
        LongColumn vc = (LongColumn) table.column(1);
        table.beforeIndexedChange(vc, row);
        vc.set(row, v);
        table.afterIndexedChange(vc, row);
        ((IntColumn) table.column(0)).set(row, ((IntColumn) table.column(0)).get(row)); // same key, a write all the same
        ((DoubleColumn) table.column(2)).set(row, -v);
        if (nullText) {
            table.column(3).setNull(row);
        } else {
            ((TextColumn) table.column(3)).set(row, text.getBytes(StandardCharsets.UTF_8));
        }
    }

    // ---- deep copies ----------------------------------------------------------------------------

    /** Every slot of a table, values boxed (null for NULL), taken through the public read API. */
    record Snap(String name, int highWater, long liveCount, boolean[] live, Object[][] values) {
    }

    static Snap snap(Table table) {
        RowAllocator r = table.rows();
        int hw = r.highWater();
        boolean[] live = new boolean[hw];
        Object[][] values = new Object[hw][];
        long counted = 0;
        for (int row = r.nextLive(0); row >= 0; row = r.nextLive(row + 1)) {
            live[row] = true;
            counted++;
        }
        for (int row = 0; row < hw; row++) {
            if (live[row] != r.isLive(row)) {
                throw new AssertionError(table.name() + ": nextLive and isLive disagree at slot " + row);
            }
            if (live[row]) {
                Object[] v = new Object[table.columnCount()];
                for (int i = 0; i < v.length; i++) {
                    v[i] = value(table.column(i), row);
                }
                values[row] = v;
            }
        }
        if (counted != r.liveCount() || counted != table.rowCount()) {
            throw new AssertionError(table.name() + ": " + counted + " live slots but liveCount " + r.liveCount());
        }
        return new Snap(table.name(), hw, r.liveCount(), live, values);
    }

    private static Object value(Column c, int row) {
        if (c.isNull(row)) {
            return null;
        }
        switch (c.type().storedAs()) {
            case INT:
                return (long) ((IntColumn) c).get(row);
            case BIGINT:
                return ((LongColumn) c).get(row);
            case FLOAT:
                return ((DoubleColumn) c).get(row);
            default:
                TextColumn tc = (TextColumn) c;
                int len = tc.length(row);
                return len == 0 ? "" : new String(tc.bytes(row), tc.offset(row), len, StandardCharsets.UTF_8);
        }
    }

    static void assertSameData(Snap expected, Table actual) {
        Snap got = snap(actual);
        assertEquals(expected.name(), got.name());
        assertEquals(expected.highWater(), got.highWater(), expected.name() + " high water");
        assertEquals(expected.liveCount(), got.liveCount(), expected.name() + " live count");
        for (int row = 0; row < expected.highWater(); row++) {
            if (expected.live()[row] != got.live()[row]) {
                fail(expected.name() + " slot " + row + " live " + got.live()[row] + ", expected " + expected.live()[row]);
            }
            if (expected.live()[row] && !Arrays.equals(expected.values()[row], got.values()[row])) {
                fail(expected.name() + " slot " + row + ": " + Arrays.toString(got.values()[row])
                        + ", expected " + Arrays.toString(expected.values()[row]));
            }
        }
    }

    private void fill(Table table, int n) {
        for (int i = 0; i < n; i++) {
            insert(table, i);
        }
    }

    // ---- shape -----------------------------------------------------------------------------------

    @Test
    void viewTablesHaveTheSchemaButNoKeyNorIndex() {
        fill(t, 100);
        catalog.addView(new ViewDef("w", List.of(), "SELECT id FROM t"));
        ReadView view = catalog.readView();
        Table vt = view.table("T");
        assertSame(vt, view.tableOf(t));
        assertTrue(vt.isReadOnly());
        assertFalse(t.isReadOnly());
        assertEquals("t", vt.name());
        assertEquals(5, vt.columnCount());
        assertFalse(vt.hasPrimaryKey());
        assertNull(vt.primaryColumn());
        assertNull(vt.primaryIndex());
        assertTrue(vt.indexes().isEmpty());
        assertNull(vt.indexOn(vt.column("v")));
        assertFalse(vt.isIndexed(vt.column("v")));
        assertThrows(IllegalStateException.class, () -> vt.findByPrimaryKey(3));
        assertTrue(vt.column("id").notNull(), "the primary key column stays NOT NULL");
        assertTrue(vt.column("f").notNull());
        assertEquals("1.5", vt.column("f").defaultText());
        assertEquals(ColumnType.DATE, vt.column("d").type());
        assertTrue(vt.column("d") instanceof IntColumn);
        assertTrue(vt.column("v").mayHaveNulls());
        assertFalse(vt.column("s").mayHaveNulls());
        assertTrue(vt.column(3).isReadOnly());
        assertEquals(100, vt.rowCount());
        assertTrue(view.nameTaken("W"));
        assertEquals("SELECT id FROM t", view.view("w").queryText());
        assertEquals(List.of("t"), view.tableNames());
        assertEquals(1, catalog.outstandingCaptures());
        view.release();
        assertTrue(view.released());
        assertEquals(0, catalog.outstandingCaptures());
        assertEquals(0, t.outstandingCaptures());
        view.release(); // idempotent
    }

    @Test
    void writesToAViewThrowAndChangeNothing() {
        fill(t, 70);
        ReadView view = catalog.readView();
        Table vt = view.table("t");
        Snap before = snap(vt);
        IntColumn id = (IntColumn) vt.column("id");
        LongColumn v = (LongColumn) vt.column("v");
        DoubleColumn f = (DoubleColumn) vt.column("f");
        TextColumn s = (TextColumn) vt.column("s");
        List<Runnable> writes = List.of(
                () -> id.set(3, 9),
                () -> v.set(3, 9),
                () -> f.set(3, 9),
                () -> s.set(3, "x".getBytes(StandardCharsets.UTF_8)),
                () -> s.set(3, new byte[0]),
                () -> s.restoreValue(3, new byte[] {1}, 0, 1),
                () -> v.setNull(4),
                () -> id.set(200_000, 1), // past the captured slots: still refused
                vt::allocateRow,
                () -> vt.deleteRow(3),
                () -> vt.indexRow(3),
                () -> vt.abandonRow(3, true),
                () -> vt.beforeIndexedChange(v, 3),
                () -> vt.afterIndexedChange(v, 3),
                vt::truncate,
                vt::maybeCompactText,
                () -> vt.createIndex("x", vt.column("d")),
                () -> vt.dropIndex("t:v"),
                vt::restoreIndexes,
                () -> vt.restoreRows(1, new long[] {1}, new int[0]),
                () -> vt.rows().allocate(),
                () -> vt.rows().release(3),
                () -> vt.rows().clear(),
                () -> vt.rows().restore(0, new long[0], new int[0]),
                () -> vt.undoDelete(5),
                () -> vt.undoInsert(3, false));
        for (Runnable w : writes) {
            assertThrows(IllegalStateException.class, w::run);
        }
        assertThrows(IllegalArgumentException.class, () -> catalog.add(vt));
        assertSameData(before, vt);
        assertEquals(0, vt.rows().freeCount());
        view.release();
    }

    // ---- one view against the live table -------------------------------------------------------

    @Test
    void viewKeepsCaptureTimeDataThroughUpdatesDeletesGrowthCompactionAndDrop() {
        int n = 2 * Chunks.SIZE + 100;
        fill(t, n);
        t.deleteRow(11);
        t.deleteRow(Chunks.SIZE + 5);
        Snap expected = snap(t);
        ReadView view = catalog.readView();
        Table vt = view.table("t");
        assertEquals(0, view.heldBytes());

        for (int row = 0; row < n; row += 997) {
            if (t.isLive(row)) {
                update(t, row, -row, "u" + row, row % 2 == 0);
            }
        }
        t.column(4).setNull(1);
        for (int row = 20; row < n; row += 1501) {
            if (t.isLive(row)) {
                t.deleteRow(row);
            }
        }
        for (int i = 0; i < Chunks.SIZE + 10; i++) { // reuses freed slots, then grows new chunks
            insert(t, n + i);
        }
        TextColumn s = (TextColumn) t.column("s");
        byte[] big = new byte[8192];
        boolean compacted = false;
        for (int round = 0; round < 2000 && !compacted; round++) {
            s.set(round % 64, big);
            long before = s.garbageBytes();
            t.maybeCompactText();
            compacted = s.garbageBytes() < before;
        }
        assertTrue(compacted, "the arena was compacted");
        assertSameData(expected, vt);
        assertTrue(view.copiedChunks() > 0);
        long held = view.heldBytes();
        assertTrue(held > 0);
        assertEquals(held, catalog.captureHeldBytes());

        catalog.drop(t);
        assertSameData(expected, vt);
        assertTrue(view.heldBytes() >= held, "a dropped table is held whole: " + view.heldBytes());
        catalog.clear();
        assertSameData(expected, vt);
        assertEquals(1, catalog.outstandingCaptures(), "FLUSHALL keeps the capture outstanding");
        view.release();
        assertEquals(0, view.heldBytes());
        assertEquals(0, catalog.captureHeldBytes());
    }

    @Test
    void truncatedTableLeavesTheViewIntact() {
        fill(t, Chunks.SIZE + 3);
        Snap expected = snap(t);
        ReadView view = catalog.readView();
        t.truncate();
        fill(t, 50);
        assertSameData(expected, view.table("t"));
        view.release();
    }

    @Test
    void heldBytesCountTheCopiedChunks() {
        fill(t, 2 * Chunks.SIZE);
        ReadView a = catalog.readView();
        ((IntColumn) t.column("d")).set(5, 1); // one INT chunk copied
        assertEquals(1, a.copiedChunks());
        assertEquals(16 + 4L * Chunks.SIZE, a.heldBytes());
        ReadView b = catalog.readView();
        assertEquals(0, b.heldBytes());
        ((DoubleColumn) t.column("f")).set(Chunks.SIZE, 1); // a chunk both views share, copied once
        assertEquals(16 + 4L * Chunks.SIZE + 16 + 8L * Chunks.SIZE, a.heldBytes());
        assertEquals(16 + 8L * Chunks.SIZE, b.heldBytes());
        assertEquals(16 + 4L * Chunks.SIZE + 16 + 8L * Chunks.SIZE, catalog.captureHeldBytes(), "shared arrays count once");
        assertEquals(2, catalog.outstandingCaptures());
        a.release();
        assertEquals(16 + 8L * Chunks.SIZE, catalog.captureHeldBytes());
        b.release();
        assertEquals(0, catalog.captureHeldBytes());

        ReadView c = catalog.readView();
        long data = t.dataBytes();
        catalog.drop(t);
        long held = c.heldBytes();
        assertTrue(Math.abs(held - data) < 4096, "a dropped table is held whole: " + held + " of " + data);
        c.release();
    }

    // ---- reference counting ---------------------------------------------------------------------

    @Test
    void aChunkStaysFrozenUntilTheLastCaptureHoldingItIsReleased() {
        fill(t, 3 * Chunks.SIZE);
        IntColumn d = (IntColumn) t.column("d");
        ReadView a = catalog.readView();
        d.set(0, -1); // chunk 0: A keeps the original, the table a copy born after A
        assertEquals(1, t.copiedChunks());
        CatalogImage bgsave = catalog.capture(); // holds chunk 0's copy and A's chunks 1, 2
        ReadView b = catalog.readView();
        a.release();
        // chunk 0's current array is held by bgsave and b; chunks 1, 2 too
        d.set(1, -2);
        d.set(Chunks.SIZE, -3);
        assertEquals(3, t.copiedChunks());
        assertEquals(-1, ((IntColumn) b.table("t").column("d")).get(0));
        assertEquals(1, ((IntColumn) b.table("t").column("d")).get(1));
        assertEquals(1, bgsave.tables().get(0).column(4).getInt(1));
        assertEquals(Chunks.SIZE % 1000, bgsave.tables().get(0).column(4).getInt(Chunks.SIZE));
        b.release();
        d.set(2 * Chunks.SIZE, -4); // chunk 2 is still bgsave's
        assertEquals(4, t.copiedChunks());
        d.set(3, -5); // chunk 0 was copied after bgsave: private, no copy
        assertEquals(4, t.copiedChunks());
        assertEquals(2 * Chunks.SIZE % 1000, bgsave.tables().get(0).column(4).getInt(2 * Chunks.SIZE));
        bgsave.release();
        for (int row = 0; row < 3 * Chunks.SIZE; row += Chunks.SIZE / 2) {
            d.set(row, 0);
            t.column(1).setNull(row);
            ((TextColumn) t.column(3)).set(row, new byte[] {65});
        }
        t.deleteRow(7);
        insert(t, 3 * Chunks.SIZE);
        assertEquals(4, t.copiedChunks(), "nothing copies once every capture is released");
    }

    @Test
    void releasingTheNewerCaptureFirstKeepsTheOlderOneFrozen() {
        fill(t, Chunks.SIZE + 10);
        Snap first = snap(t);
        ReadView a = catalog.readView();
        update(t, 3, 33, "a", false);
        Snap second = snap(t);
        ReadView b = catalog.readView();
        b.release();
        update(t, 4, 44, "b", true); // chunk 0 was born after A: no copy needed for A...
        update(t, Chunks.SIZE + 1, 55, "c", false); // ...chunk 1 is still A's
        t.deleteRow(Chunks.SIZE + 2);
        assertSameData(first, a.table("t"));
        assertEquals(33L, second.values()[3][1]);
        a.release();
    }

    @Test
    void overlappingViewsAndSnapshotsReleasedInAnyOrderStayConsistent() {
        Random rnd = new Random(20261201);
        Table u = newTable("u");
        fill(t, 2 * Chunks.SIZE + 500);
        fill(u, 3000);
        record Open(ReadView view, CatalogImage image, List<Snap> expected) {
        }
        List<Open> open = new ArrayList<>();
        TextColumn s = (TextColumn) t.column("s");
        byte[] big = new byte[3000];
        int nextKey = 1_000_000;
        int compactions = 0;
        for (int step = 0; step < 45; step++) {
            int event = rnd.nextInt(10);
            if (event < 3 && open.size() < 5) {
                List<Snap> expected = List.of(snap(t), snap(u));
                if (rnd.nextBoolean()) {
                    open.add(new Open(catalog.readView(), null, expected));
                } else {
                    open.add(new Open(null, catalog.capture(), expected));
                }
            } else if (event < 6 && !open.isEmpty()) {
                Open o = open.remove(rnd.nextInt(open.size()));
                check(o.view(), o.image(), o.expected());
                if (o.view() != null) {
                    o.view().release();
                } else {
                    o.image().release();
                }
            }
            assertEquals(open.size(), catalog.outstandingCaptures());
            // a batch of writes over both tables and every chunk
            for (int w = 0; w < 400; w++) {
                Table table = rnd.nextInt(4) == 0 ? u : t;
                int hw = table.rows().highWater();
                int row = rnd.nextInt(hw);
                switch (rnd.nextInt(6)) {
                    case 0, 1 -> {
                        if (table.isLive(row)) {
                            update(table, row, rnd.nextInt(1000), "w" + step + "." + w, rnd.nextInt(5) == 0);
                        }
                    }
                    case 2 -> {
                        if (table.isLive(row)) {
                            table.deleteRow(row);
                        }
                    }
                    case 3 -> insert(table, nextKey++);
                    case 4 -> {
                        if (table.isLive(row)) {
                            table.column(4).setNull(row);
                        }
                    }
                    default -> {
                        if (table == t && t.isLive(row % 256)) {
                            s.set(row % 256, big);
                        }
                    }
                }
            }
            long garbage = s.garbageBytes();
            t.maybeCompactText();
            if (s.garbageBytes() < garbage) {
                compactions++;
            }
            if (step == 30) { // growth into a new chunk while captures are out
                for (int i = 0; i < Chunks.SIZE / 2; i++) {
                    insert(t, nextKey++);
                }
            }
        }
        assertTrue(compactions > 0, "some arena compaction ran");
        for (Open o : open) {
            check(o.view(), o.image(), o.expected());
        }
        while (!open.isEmpty()) {
            Open o = open.remove(rnd.nextInt(open.size()));
            if (o.view() != null) {
                o.view().release();
            } else {
                o.image().release();
            }
            for (Open other : open) {
                check(other.view(), other.image(), other.expected());
            }
            for (int w = 0; w < 2000; w++) {
                int row = rnd.nextInt(t.rows().highWater());
                if (t.isLive(row)) {
                    update(t, row, w, "z", false);
                }
            }
        }
        assertEquals(0, t.outstandingCaptures());
        assertEquals(0, catalog.captureHeldBytes());
        long copied = t.copiedChunks() + u.copiedChunks();
        for (int row = 0; row < t.rows().highWater(); row += 1000) {
            if (t.isLive(row)) {
                update(t, row, 1, "q", false);
                t.deleteRow(row);
            }
        }
        assertEquals(copied, t.copiedChunks() + u.copiedChunks(), "no copies after the last release");
    }

    private static void check(ReadView view, CatalogImage image, List<Snap> expected) {
        if (view != null) {
            assertSameData(expected.get(0), view.table("t"));
            assertSameData(expected.get(1), view.table("u"));
        } else {
            // the BGSAVE image, read the way SnapshotWriter reads it
            for (int i = 0; i < 2; i++) {
                TableImage ti = image.tables().get(i);
                Snap e = expected.get(i);
                assertEquals(e.name(), ti.name());
                assertEquals(e.highWater(), ti.rows().highWater());
                assertEquals(e.liveCount(), ti.rows().liveCount());
                for (int row = 0; row < e.highWater(); row++) {
                    assertEquals(e.live()[row], ti.rows().isLive(row));
                    if (!e.live()[row]) {
                        continue;
                    }
                    Object[] v = e.values()[row];
                    assertEquals(v[0], (long) ti.column(0).getInt(row));
                    assertEquals(v[1], ti.column(1).isNull(row) ? null : ti.column(1).getLong(row), e.name() + " v at " + row);
                    assertEquals(v[2], ti.column(2).getDouble(row));
                    ColumnImage sc = ti.column(3);
                    String text = sc.isNull(row) ? null : sc.textLength(row) == 0 ? ""
                            : new String(sc.textArray(row), sc.textOffset(row), sc.textLength(row), StandardCharsets.UTF_8);
                    assertEquals(v[3], text, e.name() + " s at " + row);
                    assertEquals(v[4], ti.column(4).isNull(row) ? null : (long) ti.column(4).getInt(row));
                }
            }
        }
    }

    // ---- another thread --------------------------------------------------------------------------

    @Test
    void aWorkerThreadReadsTheViewWhileTheEventLoopWrites() throws InterruptedException {
        fill(t, 2 * Chunks.SIZE + 1000);
        Snap expected = snap(t);
        ReadView view = catalog.readView();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger passes = new AtomicInteger();
        // Thread.start is the hand-off (happens-before); join brings the reader's end back.
        Thread reader = new Thread(() -> {
            try {
                Table vt = view.table("t");
                for (int i = 0; i < 4; i++) {
                    assertSameData(expected, vt);
                    passes.incrementAndGet();
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "read-view-worker");
        reader.start();
        Random rnd = new Random(7);
        TextColumn s = (TextColumn) t.column("s");
        byte[] big = new byte[2048];
        int key = 5_000_000;
        int writes = 0;
        while (reader.isAlive() || writes == 0) {
            int row = rnd.nextInt(t.rows().highWater());
            if (t.isLive(row)) {
                if (rnd.nextInt(8) == 0) {
                    t.deleteRow(row);
                    insert(t, key++);
                } else {
                    update(t, row, rnd.nextInt(), "x", rnd.nextBoolean());
                    s.set(rnd.nextInt(2048), big);
                    if ((writes & 255) == 0) {
                        t.maybeCompactText();
                    }
                }
            }
            writes++;
        }
        reader.join();
        if (failure.get() != null) {
            throw new AssertionError("the worker saw inconsistent data", failure.get());
        }
        assertEquals(4, passes.get());
        assertTrue(view.copiedChunks() > 0, "the writer ran while the view was read");
        view.release();
    }

    @Test
    void aViewOfSomeTablesOnly() {
        Table u = newTable("u");
        fill(t, 10);
        fill(u, 20);
        ReadView view = catalog.readView(List.of(u));
        assertNull(view.table("t"));
        assertEquals(20, view.table("u").rowCount());
        assertEquals(0, t.outstandingCaptures());
        assertEquals(1, u.outstandingCaptures());
        Table stray = new Table("stray", List.of("id"), List.of(ColumnType.INT), 0);
        assertThrows(IllegalArgumentException.class, () -> catalog.readView(List.of(stray)));
        view.release();
        assertEquals(0, u.outstandingCaptures());
    }
}
