package io.respsql.persist;

import io.respsql.engine.SqlEngine;
import io.respsql.index.IndexKeys;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.Catalog;
import io.respsql.storage.CatalogImage;
import io.respsql.storage.Chunks;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.ColumnType;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.TextColumn;
import io.respsql.storage.ViewDef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.respsql.persist.SnapshotTesting.fixture;
import static io.respsql.persist.SnapshotTesting.load;
import static io.respsql.persist.SnapshotTesting.snapshot;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Format version 2 (NULLs, new types, PK-less tables, multi-column indexes, views) and reading version 1. */
class SnapshotV2Test {
    @TempDir
    Path dir;

    private static String value(Column col, int row) {
        if (col.isNull(row)) {
            return "NULL";
        }
        if (col instanceof TextColumn tc) {
            return "'" + tc.getString(row) + "'";
        }
        if (col instanceof DoubleColumn dc) {
            return Long.toHexString(Double.doubleToRawLongBits(dc.get(row)));
        }
        return Long.toString(col.getLong(row));
    }

    /** Schema, slot layout, every live row (NULLs named), and every index's (key, row) pairs. */
    static String describe(Catalog catalog) {
        StringBuilder sb = new StringBuilder();
        for (Table t : catalog.tables()) {
            sb.append("table ").append(t.name()).append(" pk=")
              .append(t.hasPrimaryKey() ? t.primaryColumn().name() : "-").append('\n');
            for (int c = 0; c < t.columnCount(); c++) {
                Column col = t.column(c);
                sb.append("  ").append(col.name()).append(' ').append(col.type())
                  .append(col.notNull() ? " NOT NULL" : "").append(" default=").append(col.defaultText())
                  .append(col.mayHaveNulls() ? " nullable" : "").append('\n');
            }
            sb.append("  slots ").append(t.rows().highWater()).append(" live ").append(t.rowCount())
              .append(" next ").append(t.peekRow(0)).append(',').append(t.peekRow(1)).append(',').append(t.peekRow(2)).append('\n');
            for (int row = t.rows().nextLive(0); row >= 0; row = t.rows().nextLive(row + 1)) {
                sb.append("  ").append(row).append(':');
                for (int c = 0; c < t.columnCount(); c++) {
                    sb.append(value(t.column(c), row)).append('|');
                }
                sb.append('\n');
            }
            for (TableIndex ix : t.indexes()) {
                sb.append("  index ").append(ix.name()).append(ix.unique() ? " unique" : "").append(ix.isPrimary() ? " primary" : "");
                for (int i = 0; i < ix.columnCount(); i++) {
                    sb.append(' ').append(ix.columns().get(i).name()).append(ix.descending(i) ? " DESC" : "");
                }
                sb.append(" owner=").append(catalog.indexOwner(ix.name()) == t).append(" pairs");
                LongIntBTree.Cursor cur = ix.tree().cursor();
                for (boolean ok = cur.first(); ok; ok = cur.next()) {
                    sb.append(' ').append(cur.key()).append('/').append(cur.row());
                }
                sb.append('\n');
            }
        }
        for (ViewDef v : catalog.views()) {
            sb.append("view ").append(v.name()).append(' ').append(v.columnNames()).append(' ').append(v.queryText()).append('\n');
        }
        return sb.toString();
    }

    private static String sql(Catalog catalog, String statement) {
        return SnapshotTesting.sql(new SqlEngine(catalog), statement);
    }

    private static String text(Table t, String column, int row) {
        return ((TextColumn) t.column(column)).getString(row);
    }

    /** dump-v1.rsql was written by the version-1 writer (commit 8bb321a); see the fixture's statements below. */
    @Test
    void theVersionOneFixtureLoadsWithEveryValueIndexAndSlot() throws Exception {
        Catalog catalog = new Catalog();
        SnapshotReader.Result r = SnapshotReader.load(fixture("dump-v1.rsql"), catalog);
        assertEquals(2, r.tables());
        assertEquals(7, r.rows());
        assertEquals(List.of("emp", "words"), catalog.tables().stream().map(Table::name).toList());
        assertTrue(catalog.views().isEmpty());

        // CREATE TABLE emp (id INT PRIMARY KEY, big BIGINT, salary FLOAT, name TEXT); CREATE INDEX emp_name ON emp (name)
        // ids 1..7 in slots 0..6, then DELETE ids 2, 6, 4 (free list: slots 1, 5, 3)
        Table emp = catalog.table("emp");
        assertEquals(List.of(ColumnType.INT, ColumnType.BIGINT, ColumnType.FLOAT, ColumnType.TEXT),
                List.of(emp.column(0).type(), emp.column(1).type(), emp.column(2).type(), emp.column(3).type()));
        assertSame(emp.column("id"), emp.primaryColumn());
        assertTrue(emp.column("id").notNull());
        assertFalse(emp.column("name").notNull());
        assertNull(emp.column("name").defaultText());
        assertEquals(4, emp.rowCount());
        assertEquals(7, emp.rows().highWater());
        assertEquals(3, emp.peekRow(0));
        assertEquals(5, emp.peekRow(1));
        assertEquals(1, emp.peekRow(2));
        assertEquals(7, emp.peekRow(3));
        int[] live = {0, 2, 4, 6};
        int[] ids = {1, 3, 5, 7};
        long[] bigs = {10_000_000_000L, Long.MAX_VALUE, 5, 7};
        double[] salaries = {1.5, 1e300, 5.5, 7.5};
        String[] names = {"alice", "Zoë – ünïcødé 日本", "alice", "dave"};
        for (int i = 0; i < live.length; i++) {
            int row = live[i];
            assertTrue(emp.isLive(row));
            assertEquals(ids[i], ((IntColumn) emp.column("id")).get(row));
            assertEquals(bigs[i], ((LongColumn) emp.column("big")).get(row));
            assertEquals(salaries[i], ((DoubleColumn) emp.column("salary")).get(row));
            assertEquals(names[i], text(emp, "name", row));
            assertEquals(row, emp.findByPrimaryKey(ids[i]));
            for (int c = 0; c < emp.columnCount(); c++) {
                assertFalse(emp.column(c).isNull(row));
                assertFalse(emp.column(c).mayHaveNulls());
            }
        }
        for (int dead : new int[] {1, 3, 5}) {
            assertFalse(emp.isLive(dead));
        }
        assertEquals(-1, emp.findByPrimaryKey(2));
        assertEquals(2, emp.indexes().size());
        TableIndex byName = emp.indexes().get(1);
        assertEquals("emp_name", byName.name());
        assertEquals(List.of(emp.column("name")), byName.columns());
        assertFalse(byName.unique());
        assertSame(emp, catalog.indexOwner("emp_name"));
        assertSame(emp, catalog.indexOwner("emp:id:pk"));
        assertEquals(4, byName.tree().size());
        assertEquals(4, emp.primaryIndex().tree().size());
        List<Integer> alices = new ArrayList<>();
        long alice = IndexKeys.ofText("alice".getBytes(StandardCharsets.UTF_8));
        LongIntBTree.Cursor cur = byName.tree().cursor();
        for (boolean ok = cur.seek(alice); ok && cur.key() == alice; ok = cur.next()) {
            alices.add(cur.row());
        }
        assertEquals(List.of(0, 4), alices);

        // CREATE TABLE words (w TEXT PRIMARY KEY, n INT, f FLOAT): ('b',2,0.5) ('a',1,0.25) ('',0,0) ('ß',-3,3), DELETE 'a'
        Table words = catalog.table("words");
        assertEquals(3, words.rowCount());
        assertEquals(4, words.rows().highWater());
        assertEquals(1, words.peekRow(0));
        assertEquals("b", text(words, "w", 0));
        assertEquals("", text(words, "w", 2));
        assertEquals("ß", text(words, "w", 3));
        assertEquals(-3, ((IntColumn) words.column("n")).get(3));
        assertEquals(3.0, ((DoubleColumn) words.column("f")).get(3));
        assertEquals(0.5, ((DoubleColumn) words.column("f")).get(0));
        assertEquals(3, words.findByPrimaryKey(IndexKeys.ofText("ß".getBytes(StandardCharsets.UTF_8))));
        assertEquals(2, words.findByPrimaryKey(IndexKeys.ofText(new byte[0])));
        assertEquals(1, words.indexes().size());

        // the old engine runs on the loaded tables
        assertEquals("*1 $57 3,9223372036854775807,1.0E300,Zoë – ünïcødé 日本", sql(catalog, "SELECT * FROM emp WHERE id = 3"));

        // written again (the current version, 4) and read back: the same tables, slots and indexes
        String before = describe(catalog);
        byte[] again = snapshot(catalog);
        assertEquals(4, again[8]);
        assertEquals(before, describe(load(again)));
    }

    private static ColumnSpec col(String name, ColumnType type) {
        return new ColumnSpec(name, type, false, null);
    }

    /** A PK-less table with every type, NULLs in each, duplicate rows, a unique DESC index over two columns. */
    private static Catalog newFeatures() {
        Catalog catalog = new Catalog();
        Table t = new Table("Events", List.of(col("i", ColumnType.INT), col("l", ColumnType.BIGINT),
                col("d", ColumnType.FLOAT), new ColumnSpec("s", ColumnType.TEXT, true, "'n/a'"),
                new ColumnSpec("b", ColumnType.BOOLEAN, false, "TRUE"), col("day", ColumnType.DATE),
                new ColumnSpec("at", ColumnType.TIMESTAMP, false, "CURRENT_TIMESTAMP")), -1);
        catalog.add(t);
        int n = Chunks.SIZE + 101; // two chunks, so the null bitmaps span chunks too
        for (int k = 0; k < n; k++) {
            int row = t.allocateRow();
            int v = k % 1000; // duplicates: every value 65+ times
            ((IntColumn) t.column(0)).set(row, v);
            ((LongColumn) t.column(1)).set(row, v * 1_000_000_007L);
            ((DoubleColumn) t.column(2)).set(row, v / 3.0);
            ((TextColumn) t.column(3)).set(row, ("é" + v).getBytes(StandardCharsets.UTF_8));
            ((IntColumn) t.column(4)).set(row, v & 1);
            ((IntColumn) t.column(5)).set(row, 19000 + v);
            ((LongColumn) t.column(6)).set(row, v * 86_400_000_000L);
            for (int c = 0; c < t.columnCount(); c++) {
                if ((k + c) % 7 == 0 || k == n - 1) {
                    t.column(c).setNull(row);
                }
            }
            t.indexRow(row);
        }
        for (int k = 0; k < n; k += 5) {
            t.deleteRow(k);
        }
        t.createIndex("ev_i", t.column("i"));
        t.createIndex("ev_day_at", List.of(t.column("day"), t.column("at")), true, new boolean[] {true, false});
        catalog.registerIndex("ev_i", t);
        catalog.registerIndex("ev_day_at", t);

        Table p = new Table("p", List.of(col("id", ColumnType.TIMESTAMP), col("note", ColumnType.TEXT)), 0);
        catalog.add(p);
        for (int k = 0; k < 10; k++) {
            int row = p.allocateRow();
            ((LongColumn) p.column(0)).set(row, -k);
            if (k % 2 == 0) {
                p.column(1).setNull(row);
            } else {
                ((TextColumn) p.column(1)).set(row, ("note " + k).getBytes(StandardCharsets.UTF_8));
            }
            p.indexRow(row);
        }
        p.createIndex("p_note", p.column("note"));
        catalog.registerIndex("p_note", p);
        catalog.addView(new ViewDef("recent", List.of("what", "when"), "SELECT s, at FROM Events WHERE at > 5"));
        catalog.addView(new ViewDef("all_p", List.of(), "SELECT * FROM p -- ünïcødé"));
        return catalog;
    }

    @Test
    void nullsNewTypesPrimaryKeylessTablesIndexesAndViewsRoundTrip() throws IOException {
        Catalog original = newFeatures();
        Table t = original.table("events");
        assertTrue(t.column("s").isNull(Chunks.SIZE + 100));
        assertFalse(t.isLive(0));
        String before = describe(original);
        Catalog loaded = load(snapshot(original));
        assertEquals(before, describe(loaded));
        Table lt = loaded.table("EVENTS");
        assertFalse(lt.hasPrimaryKey());
        assertEquals(ColumnType.BOOLEAN, lt.column("b").type());
        assertEquals(ColumnType.DATE, lt.column("day").type());
        assertEquals(ColumnType.TIMESTAMP, lt.column("at").type());
        assertTrue(lt.column("s").notNull());
        assertEquals("'n/a'", lt.column("s").defaultText());
        assertEquals("CURRENT_TIMESTAMP", lt.column("at").defaultText());
        int last = Chunks.SIZE + 100; // live, and NULL in every column
        for (int c = 0; c < lt.columnCount(); c++) {
            assertTrue(lt.column(c).isNull(last), lt.column(c).name());
            assertTrue(lt.column(c).mayHaveNulls());
        }
        // column i (position 0) is NULL exactly in the rows with k % 7 == 0, in both chunks
        for (int row = lt.rows().nextLive(0); row >= 0; row = lt.rows().nextLive(row + 1)) {
            assertEquals(row % 7 == 0 || row == last, lt.column("i").isNull(row), "row " + row);
            assertEquals((row + 3) % 7 == 0 || row == last, lt.column("s").isNull(row), "row " + row);
        }
        TableIndex ix = lt.indexes().get(lt.indexPosition("ev_day_at"));
        assertTrue(ix.unique());
        assertTrue(ix.descending(0));
        assertFalse(ix.descending(1));
        assertEquals(List.of(lt.column("day"), lt.column("at")), ix.columns());
        long nonNullDays = 0;
        for (int row = lt.rows().nextLive(0); row >= 0; row = lt.rows().nextLive(row + 1)) {
            nonNullDays += lt.column("day").isNull(row) ? 0 : 1;
        }
        assertEquals(nonNullDays, ix.tree().size(), "NULL first columns stay out of the loaded index");
        assertEquals(List.of("recent", "all_p"), loaded.views().stream().map(ViewDef::name).toList());
        assertEquals(List.of("what", "when"), loaded.view("RECENT").columnNames());
        assertTrue(loaded.nameTaken("all_P"));
        Table lp = loaded.table("p");
        assertEquals(0, lp.findByPrimaryKey(0));
        assertEquals(9, lp.findByPrimaryKey(-9));
        assertEquals(5, lp.indexes().get(1).tree().size());
    }

    @Test
    void aSnapshotTakenBeforeNullWritesKeepsTheOldNullBits() throws IOException {
        Catalog catalog = newFeatures();
        String before = describe(catalog);
        CatalogImage image = catalog.capture();
        Table t = catalog.table("events");
        // writes while the capture is outstanding: un-NULL, NULL, and NULL in a column that had no bitmap there
        for (int row = t.rows().nextLive(0); row >= 0 && row < 5000; row = t.rows().nextLive(row + 1)) {
            if (t.column("i").isNull(row)) {
                ((IntColumn) t.column("i")).set(row, 1);
            } else {
                t.column("i").setNull(row);
            }
            ((TextColumn) t.column("s")).set(row, "changed".getBytes(StandardCharsets.UTF_8));
        }
        catalog.table("p").column("id").setNull(3);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SnapshotWriter.write(image, out);
        image.release();
        assertEquals(before, describe(load(out.toByteArray())));
    }

    @Test
    void viewsAndTablesCannotCollideOnLoad() throws IOException {
        byte[] snap = snapshot(newFeatures());
        Catalog target = new Catalog();
        target.addView(new ViewDef("p", List.of(), "SELECT 1"));
        SnapshotException e = assertThrows(SnapshotException.class, () ->
                SnapshotReader.load(Channels.newChannel(new ByteArrayInputStream(snap)), "test", target));
        assertEquals("Snapshot test holds table p, which already exists", e.getMessage());
        Catalog target2 = new Catalog();
        target2.add(new Table("recent", List.of(col("x", ColumnType.INT)), -1));
        e = assertThrows(SnapshotException.class, () ->
                SnapshotReader.load(Channels.newChannel(new ByteArrayInputStream(snap)), "test", target2));
        assertEquals("Snapshot test holds view recent, whose name is taken", e.getMessage());
        assertEquals(1, target2.tables().size());
        assertTrue(target2.views().isEmpty());
    }

    @Test
    void theSnapshotFileAndCheckAofStillWork() throws Exception {
        Catalog catalog = newFeatures();
        CatalogImage image = catalog.capture();
        long size = SnapshotFile.save(image, dir, "dump.rsql");
        image.release();
        Path file = dir.resolve("dump.rsql");
        assertEquals(Files.size(file), size);
        Catalog loaded = new Catalog();
        SnapshotReader.load(file, loaded);
        assertEquals(describe(catalog), describe(loaded));
        // a snapshot preamble followed by no records is a valid append-only file
        Path aof = dir.resolve("a.aof");
        Files.write(aof, Files.readAllBytes(file));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = CheckAof.run(new String[] {aof.toString()}, new java.io.PrintStream(out), new java.io.PrintStream(err));
        assertEquals(0, rc, out + " / " + err);
        // and the v1 fixture as a preamble too
        Files.write(aof, Files.readAllBytes(fixture("dump-v1.rsql")));
        assertEquals(0, CheckAof.run(new String[] {aof.toString()}, new java.io.PrintStream(out), new java.io.PrintStream(err)));
        byte[] magic = Files.readAllBytes(file);
        assertArrayEquals(SnapshotFormat.MAGIC, java.util.Arrays.copyOf(magic, 8));
    }
}
