package io.respsql.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INSERT ... VALUES through the plan cache against the same statements with the cache off, on two
 * copies of the same data: every reply (OK, RETURN SIZE, each error), what the commit listener is
 * told, which tables WATCH sees changed, blocks committed and rolled back, and the tables at the
 * end must be the same. The values range over the 2010 dialect's quirks (leading zeros, unquoted
 * text, quoted numbers) and every kind of refusal (type, range, NOT NULL, primary key, UNIQUE,
 * value count, unknown column or table).
 */
class PlanCacheInsertTest {
    /** One engine, the texts its commit listener was told, and a reply per statement. */
    static final class Side {
        final PlanCacheDifferentialTest.Side side = new PlanCacheDifferentialTest.Side();
        final SqlEngine engine = side.engine;
        final List<String> logged = new ArrayList<>();

        String run(String sql) {
            return side.run(sql);
        }

        Side(boolean cache) {
            engine.commitListener(new CommitListener() {
                @Override
                public void committed(String sql, long changes, boolean postgres) {
                    logged.add(changes + " " + sql);
                }

                @Override
                public void flushedAll() {
                    logged.add("FLUSHALL");
                }
            });
            if (!cache) {
                engine.planCacheLimits(0, 0);
            }
        }
    }

    private static final String[] SETUP = {
        "CREATE TABLE a (id INT PRIMARY KEY, n INT NOT NULL, b BIGINT, f FLOAT, s TEXT, ok BOOLEAN, d DATE, ts TIMESTAMP)",
        "CREATE INDEX a_n ON a (n)",
        "CREATE TABLE u (k TEXT PRIMARY KEY, v INT UNIQUE, w TEXT DEFAULT 'dflt', z INT DEFAULT 7)",
        "CREATE TABLE nopk (x INT, y TEXT)",
        "CREATE TABLE fk (id FLOAT PRIMARY KEY, t TEXT NOT NULL)",
    };

    private static final String[] TABLES = {"a", "u", "nopk", "fk"};

    private static final String[] TEMPLATES = {
        "INSERT INTO a VALUES (%i, %v, %v, %v, %v, %v, %v, %v)",
        "INSERT INTO a VALUES (%i,%v,%v,%v,%v,%v,%v,%v)",
        "INSERT INTO a (id, n) VALUES (%i, %v)",
        "INSERT INTO a (n, id, s) VALUES (%v, %i, %v), (%v, %i, %v)",
        "INSERT INTO a (id, n, f) VALUES (%i, %v, %v) RETURN SIZE",
        "insert into A (ID, N, S) values (%i, %v, %v)",
        "INSERT INTO u VALUES (%v, %v, %v, %v)",
        "INSERT INTO u (k, v) VALUES (%v, %v)",
        "INSERT INTO u (v, k) VALUES (%v, %v), (%v, %v), (%v, %v)",
        "INSERT INTO nopk VALUES (%v, %v)",
        "INSERT INTO nopk VALUES (%v, %v), (%v, %v) RETURN SIZE",
        "INSERT INTO nopk VALUES (%v)",
        "INSERT INTO nopk VALUES (%v, %v), (%v)",
        "INSERT INTO nopk (x, q) VALUES (%v, %v)",
        "INSERT INTO nopk (x, x) VALUES (%v, %v)",
        "INSERT INTO nosuch VALUES (%v)",
        "INSERT INTO fk VALUES (%v, %v)",
        "INSERT INTO fk VALUES (%v, %v), (%v, %v)",
        "DELETE FROM a WHERE id = %i",
        "DELETE FROM u WHERE v = %i",
        "DELETE FROM nopk WHERE x = %i",
        "DELETE FROM fk WHERE t = %v",
    };

    /** Values of every kind, with the edge cases of each column type. */
    private static final String[] VALUES = {
        "0", "1", "7", "0005", "000000000001", "2147483647", "2147483648", "-2147483648", "-2147483649",
        "9223372036854775807", "99999999999999999999", "-1", "- 3", "+4", "--2",
        "2.5", "2.0", "-2.0", "1e3", "1e400", "-1e400", ".5", "5.", "0.1",
        "'x'", "'5'", "' 7 '", "''", "'it''s'", "'2024-06-01'", "'2024-06-01 12:00:00'", "'true'", "'1.5'", "-'5'",
        "NULL", "TRUE", "FALSE", "abc", "foo-5", "12abc", "marie anne", "\"dq\"", "DATE '2024-06-01'",
        "1+1", "abs(-3)",
    };

    @Test
    void cachedAndUncachedInsertsAreTheSame() {
        for (long seed = 1; seed <= 6; seed++) {
            runSeed(seed);
        }
    }

    private void runSeed(long seed) {
        Side cached = new Side(true);
        Side plain = new Side(false);
        for (String s : SETUP) {
            assertEquals(plain.run(s), cached.run(s), s);
        }
        Random r = new Random(seed);
        long hitsBefore = cached.engine.planCacheHits();
        for (int n = 0; n < 3000; n++) {
            if (n % 200 == 0) {
                block(r, cached, plain);
            }
            String sql = statement(r);
            long pointC = cached.engine.changeCounter();
            long pointP = plain.engine.changeCounter();
            assertEquals(plain.run(sql), cached.run(sql), sql);
            for (String t : TABLES) {
                assertEquals(plain.engine.changedSince(t, pointP), cached.engine.changedSince(t, pointC),
                        "WATCH of " + t + " after " + sql);
            }
        }
        DifferentialSupport.assertSameDumps(plain.side, cached.side, "", TABLES);
        assertEquals(plain.logged, cached.logged, "what the commit listener was told");
        assertTrue(cached.engine.planCacheHits() - hitsBefore > 300, "hits: " + cached.engine.planCacheHits());
        assertEquals(0, plain.engine.planCacheHits());
    }

    /** A few statements in a block, then commit or roll back, on both sides. */
    private static void block(Random r, Side cached, Side plain) {
        cached.engine.beginBlock();
        plain.engine.beginBlock();
        for (int i = 0; i < 8; i++) {
            String sql = statement(r);
            assertEquals(plain.run(sql), cached.run(sql), "in a block: " + sql);
        }
        DifferentialSupport.endBlock(r.nextBoolean(), cached.engine, plain.engine);
        DifferentialSupport.assertSameDumps(plain.side, cached.side, " after a block", TABLES);
    }

    private static String statement(Random r) {
        return DifferentialSupport.statement(TEMPLATES, r, (k, rnd) -> {
            if (k == 'i' && rnd.nextInt(6) != 0) {
                return Integer.toString(rnd.nextInt(60));
            }
            if (rnd.nextInt(4) != 0) {
                return rnd.nextBoolean() ? Integer.toString(rnd.nextInt(40)) : "'" + (char) ('a' + rnd.nextInt(6)) + "'";
            }
            return VALUES[rnd.nextInt(VALUES.length)];
        });
    }

    @Test
    void aRepeatedInsertShapeIsAHitAndStoresEachTextsValues() {
        Side side = new Side(true);
        assertOk(side.run("CREATE TABLE m (id INT PRIMARY KEY, fk INT, count INT, note TEXT)"));
        long hits = side.engine.planCacheHits();
        for (int i = 1; i <= 50; i++) {
            String id = String.format("%012d", i);
            assertOk(side.run("INSERT INTO m VALUES (" + id + "," + id + ",4," + id + ")"));
        }
        assertEquals(hits + 49, side.engine.planCacheHits(), "the first INSERT plans, the other 49 hit");
        assertEquals("rows [7,7,4,000000000007]", side.run("SELECT * FROM m WHERE id = 7"));
        // A failing run of a cached shape answers with the plain path's error and changes nothing.
        assertEquals("failed: 23505 ERR INSERT on Existing Data - use UPDATE (table 'm' already has id=7)",
                side.run("INSERT INTO m VALUES (000000000007,000000000001,4,000000000001)"));
        assertEquals("failed: 22003 ERR value 2147483648 is out of range for INT column 'count'",
                side.run("INSERT INTO m VALUES (000000000051,000000000001,2147483648,000000000001)"));
        assertEquals("rows [50]", side.run("SELECT COUNT(*) FROM m"));
        // Unquoted 2010 text is in the key: such INSERTs are not kept, so distinct names do not fill the cache.
        int entries = side.engine.planCacheEntries();
        for (int i = 60; i < 80; i++) {
            assertOk(side.run("INSERT INTO m VALUES (" + i + ",1,4,name" + i + ")"));
        }
        assertEquals(entries, side.engine.planCacheEntries());
        assertEquals("rows [61,1,4,name61]", side.run("SELECT * FROM m WHERE id = 61"));
    }

    /**
     * Bulk INSERTs (more literals than a cached plan takes) read straight from their text against
     * the plain path: the same replies, tables, listener texts, and a bad value in any row (a late
     * one too) leaves nothing of the statement.
     */
    @Test
    void bulkInsertsReadFromTheTextAreTheSame() {
        Side cached = new Side(true);
        Side plain = new Side(false);
        for (String s : SETUP) {
            assertEquals(plain.run(s), cached.run(s), s);
        }
        Random r = new Random(11);
        int next = 0;
        for (int n = 0; n < 120; n++) {
            boolean bad = n % 4 == 3;
            int rows = 60 + r.nextInt(200);
            int badRow = bad ? r.nextInt(rows) : -1;
            String sql;
            StringBuilder b = new StringBuilder();
            switch (n % 3) {
                case 0 -> {
                    b.append("INSERT INTO a VALUES ");
                    for (int i = 0; i < rows; i++) {
                        int id = i == badRow && r.nextBoolean() ? next - 1 : next++; // a duplicate key
                        b.append(i == 0 ? "" : r.nextBoolean() ? ", " : ",").append('(').append(id).append(", ")
                                .append(i == badRow ? VALUES[r.nextInt(VALUES.length)] : Integer.toString(r.nextInt(1000) - 500))
                                .append(",").append(r.nextBoolean() ? "NULL" : "-" + r.nextInt(99999))
                                .append(", ").append(r.nextInt(1000) / 8.0).append(", '").append(r.nextInt(50)).append(i % 7 == 0 ? "''x" : "")
                                .append("', ").append(r.nextBoolean() ? "1" : "'false'").append(", '2024-0").append(1 + r.nextInt(9))
                                .append("-1").append(r.nextInt(10)).append("', '2024-06-01 12:0").append(r.nextInt(10)).append(":00')");
                    }
                }
                case 1 -> {
                    b.append("INSERT INTO u (k, v, z) VALUES\n");
                    for (int i = 0; i < rows; i++) {
                        b.append(i == 0 ? "" : ",\n").append("('k").append(next++).append("',")
                                .append(i == badRow ? Integer.toString(next - 2) : Integer.toString(next)).append(",")
                                .append(r.nextInt(9) == 0 ? "+7" : "0" + r.nextInt(100)).append(")");
                    }
                    next++;
                }
                default -> {
                    b.append("insert into nopk values");
                    for (int i = 0; i < rows; i++) {
                        b.append(i == 0 ? " " : ",").append('(').append(i == badRow ? VALUES[r.nextInt(VALUES.length)] : r.nextInt(50))
                                .append(',').append(r.nextInt(5) == 0 ? "null" : r.nextBoolean() ? "0" + r.nextInt(100) : "'é" + i + "'")
                                .append(')');
                    }
                }
            }
            sql = b.toString();
            if (n % 10 == 9) {
                cached.engine.beginBlock();
                plain.engine.beginBlock();
            }
            assertEquals(plain.run(sql), cached.run(sql), sql);
            if (n % 10 == 9) {
                DifferentialSupport.endBlock(r.nextBoolean(), cached.engine, plain.engine);
            }
        }
        DifferentialSupport.assertSameDumps(plain.side, cached.side, "", TABLES);
        assertEquals(plain.logged, cached.logged, "what the commit listener was told");
        assertTrue(cached.engine.bulkInsertsStreamed() >= 60, "streamed: " + cached.engine.bulkInsertsStreamed());
        assertEquals(0, plain.engine.bulkInsertsStreamed());
    }
    /**
     * A bulk INSERT whose keys rise (a load's) checks them against the table only: one taken by the
     * table is still refused (the first such row named, nothing of the statement left), as are
     * falling or repeated keys; TEXT values (quotes, non-ASCII, numbers into TEXT) and TIMESTAMP/DATE
     * literals in and out of their plain form come out as the plain path stores them.
     */
    @Test
    void bulkRisingKeysAndTextAndTimestampValuesAreThePlainPaths() {
        Side cached = new Side(true);
        Side plain = new Side(false);
        for (String s : SETUP) {
            assertEquals(plain.run(s), cached.run(s), s);
        }
        assertEquals(plain.run("INSERT INTO a (id, n) VALUES (1000, 1)"), cached.run("INSERT INTO a (id, n) VALUES (1000, 1)"));
        String[] texts = {"'plain'", "'it''s'", "''", "'é''ü'", "0042", "7", "'x y'", "NULL"};
        String[] stamps = {"'2024-06-01 12:34:56'", "'2024-06-01T01:02:03'", "'2024-06-01 12:34:56.5'", "'2024-06-01'",
            "'2024-02-30 00:00:00'", "' 2024-06-01 12:34:56'", "'2024-06-01 24:00:00'", "NULL"};
        String[] dates = {"'2024-06-01'", "'2024-02-29'", "'2023-02-29'", "' 2024-06-01'", "'2024-6-1'", "NULL"};
        for (int variant = 0; variant < 6; variant++) {
            StringBuilder b = new StringBuilder("INSERT INTO a (id, n, s, ts, d) VALUES ");
            int rows = 300;
            for (int i = 0; i < rows; i++) {
                int id = variant * 1000 + i + 1;
                if (variant == 1 && i == rows - 1) {
                    id = 1000; // rising, and taken by the table
                } else if (variant == 2 && i == 150) {
                    id = variant * 1000 + 10; // falling: a repeat of an earlier row's key
                } else if (variant == 3) {
                    id = 3000 + rows - i; // falling, all distinct
                }
                b.append(i == 0 ? "" : ",").append('(').append(id).append(", ").append(i).append(", ")
                        .append(texts[i % texts.length]).append(", ")
                        .append(variant >= 4 ? stamps[i % stamps.length] : "'2024-06-01 12:34:56'").append(", ")
                        .append(variant >= 4 ? dates[i % dates.length] : "'2024-06-01'").append(')');
            }
            String sql = b.toString();
            if (variant == 5) {
                sql = sql.replace("'2024-02-30 00:00:00'", "'2024-03-01 00:00:00'").replace("' 2024-06-01 12:34:56'", "'1999-12-31 23:59:59'")
                        .replace("'2024-06-01 24:00:00'", "'2000-01-01T00:00:00'").replace("'2023-02-29'", "'2023-02-28'")
                        .replace("'2024-6-1'", "'2024-12-31'"); // every value valid: the rows go in
            }
            String reply = plain.run(sql);
            assertEquals(reply, cached.run(sql), sql);
            String expected = switch (variant) {
                case 1 -> "id=1000";
                case 2 -> "id=2010";
                case 4 -> "not a valid";
                default -> "ok, changed ";
            };
            assertTrue(reply.contains(expected), variant + ": " + reply);
        }
        assertEquals(plain.run("DUMP a"), cached.run("DUMP a"));
        assertEquals(plain.run("SELECT COUNT(*), MIN(id), MAX(id) FROM a"), cached.run("SELECT COUNT(*), MIN(id), MAX(id) FROM a"));
        assertEquals(plain.run("SELECT s, ts, d FROM a WHERE id = 5 OR id = 5004 OR id = 5005 ORDER BY id"),
                cached.run("SELECT s, ts, d FROM a WHERE id = 5 OR id = 5004 OR id = 5005 ORDER BY id"));
        assertTrue(cached.engine.bulkInsertsStreamed() >= 3, "streamed: " + cached.engine.bulkInsertsStreamed());
    }

    /** The statement replied OK (what the 2010 reply +OK says). */
    private static void assertOk(String outcome) {
        org.junit.jupiter.api.Assertions.assertTrue(outcome.startsWith("ok, changed "), outcome);
    }
}
