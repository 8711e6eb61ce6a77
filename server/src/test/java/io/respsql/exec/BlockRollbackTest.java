package io.respsql.exec;

import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The block undo log: random blocks of INSERT/UPDATE (primary keys and indexed columns
 * included)/DELETE/DDL, rolled back, must leave every table exactly as before: the same DUMP, the
 * same answers through every index, and the same row-slot layout (high-water mark, free slots),
 * so later inserts take the slots they would have taken. Blocks that commit are kept.
 */
class BlockRollbackTest {
    private static final long SEED = 0x4d554c5449L;
    private final Random rnd = new Random(SEED);
    private final EngineHarness h = new EngineHarness();

    private String state() {
        StringBuilder sb = new StringBuilder();
        sb.append(h.run("SHOW TABLES")).append('\n');
        for (Table t : h.engine.catalog().tables()) {
            sb.append(h.run("DUMP " + t.name())).append('\n');
            sb.append("slots ").append(t.rows().highWater()).append(' ').append(t.rows().freeCount())
              .append(' ').append(t.rowCount()).append('\n');
            for (TableIndex ix : t.indexes()) {
                sb.append(ix.name()).append(' ').append(ix.tree().size()).append('\n');
            }
            sb.append(h.run("SELECT * FROM " + t.name() + " WHERE fk BETWEEN -1000 AND 1000 ORDER BY id")).append('\n');
            sb.append(h.run("SELECT * FROM " + t.name() + " WHERE s BETWEEN '' AND 'zzz' ORDER BY id")).append('\n');
            sb.append(h.run("SELECT * FROM " + t.name() + " WHERE id BETWEEN -100000 AND 100000 ORDER BY id")).append('\n');
        }
        return sb.toString();
    }

    private String randomStatement(String table) {
        int id = rnd.nextInt(200);
        switch (rnd.nextInt(9)) {
            case 0:
            case 1:
                return "INSERT INTO " + table + " VALUES (" + id + ", " + rnd.nextInt(20) + ", 'w" + rnd.nextInt(50) + "')";
            case 2:
                return "UPDATE " + table + " SET fk = fk + 1, s = 'u" + rnd.nextInt(9) + "' WHERE fk = " + rnd.nextInt(20);
            case 3:
                return "UPDATE " + table + " SET id = id + 1000 WHERE id BETWEEN " + id + " AND " + (id + 5);
            case 4:
                return "DELETE FROM " + table + " WHERE fk = " + rnd.nextInt(20);
            case 5:
                return "DELETE FROM " + table + " WHERE id < " + id;
            case 6:
                return rnd.nextBoolean() ? "DROP INDEX " + table + ":s" : "CREATE INDEX " + table + ":s ON " + table + " (s)";
            case 7:
                return "UPDATE " + table + " SET id = id - 1000 WHERE id >= 1000";
            default:
                return "INSERT INTO " + table + " VALUES (" + (300 + id) + ", " + rnd.nextInt(20) + ", ''), ("
                        + (600 + id) + ", 1, 'x')";
        }
    }

    private void fill(String table) {
        h.run("CREATE TABLE " + table + " (id int primary key, fk int, s text)");
        h.run("CREATE INDEX " + table + ":fk ON " + table + " (fk)");
        for (int i = 0; i < 150; i++) {
            h.run("INSERT INTO " + table + " VALUES (" + i + ", " + (i % 20) + ", 'v" + (i % 13) + "')");
        }
        h.run("DELETE FROM " + table + " WHERE fk = 3"); // some free slots to reuse
    }

    @Test
    void randomBlocksRolledBackLeaveEverythingAsItWas() {
        fill("t");
        fill("u");
        int committed = 0;
        int succeeded = 0;
        for (int round = 0; round < 300; round++) {
            String before = state();
            boolean rollback = rnd.nextInt(4) != 0;
            h.engine.beginBlock();
            List<String> ran = new ArrayList<>();
            int n = 1 + rnd.nextInt(12);
            for (int i = 0; i < n; i++) {
                String st;
                int kind = rnd.nextInt(20);
                if (kind == 0) {
                    st = "DROP TABLE u";
                } else if (kind == 1) {
                    st = "CREATE TABLE u (id int primary key, fk int, s text)";
                } else if (kind == 2) {
                    h.engine.flushAll();
                    ran.add("FLUSHALL");
                    continue;
                } else {
                    st = randomStatement(rnd.nextBoolean() ? "t" : "u");
                }
                String reply = h.run(st);
                succeeded += reply.startsWith("-") ? 0 : 1;
                ran.add(st + " -> " + reply);
            }
            if (rollback) {
                h.engine.rollbackBlock();
                assertEquals(before, state(), () -> "after rolling back " + ran);
            } else {
                h.engine.commitBlock();
                committed++;
            }
            assertFalse(h.engine.inBlock());
            if (h.engine.catalog().table("t") == null) {
                fill("t");
            }
            if (h.engine.catalog().table("u") == null) {
                fill("u");
            }
        }
        assertTrue(committed > 30);
        assertTrue(succeeded > 1000, succeeded + " statements succeeded");
    }

    @Test
    void rollbackRestoresTheSlotsLaterInsertsTake() {
        h.run("CREATE TABLE t (id int primary key, fk int, s text)");
        for (int i = 0; i < 10; i++) {
            h.run("INSERT INTO t VALUES (" + i + ", 0, a)");
        }
        h.run("DELETE FROM t WHERE id < 3");
        Table t = h.engine.catalog().table("t");
        assertEquals(10, t.rows().highWater());
        assertEquals(3, t.rows().freeCount());
        h.engine.beginBlock();
        h.run("INSERT INTO t VALUES (100, 0, b), (101, 0, b), (102, 0, b), (103, 0, b), (104, 0, b)");
        h.run("DELETE FROM t WHERE id = 5");
        assertEquals(12, t.rows().highWater());
        h.engine.rollbackBlock();
        assertEquals(10, t.rows().highWater());
        assertEquals(3, t.rows().freeCount());
        assertEquals(7, t.rowCount());
        int[] expected = {t.peekRow(0), t.peekRow(1), t.peekRow(2), t.peekRow(3)};
        assertEquals(10, expected[3]);
        assertEquals("+OK", h.run("INSERT INTO t VALUES (200, 0, c)"));
        assertEquals(expected[0], t.findByPrimaryKey(200));
    }
}
