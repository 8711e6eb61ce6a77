package io.respsql.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the UPDATE fast-path tests ({@link IncrementUpdateTest}, {@link FkRangeUpdateTest}) start
 * from: an engine and t(id, v, w, g = id % 97) over 200,000 rows (four 64K chunks), v = w = id % 1000,
 * NULL in v and w where id % 9973 = 5, rows id % 5003 = 7 deleted; with {@code fkIndexes} also
 * x = id % 1000 and indexes on g and x. v is written by the path under test, w by the general
 * path alongside, and {@link #sameAsGeneralPath} compares them.
 */
abstract class UpdateTableTest {
    static final int ROWS = 200_000; // four chunks
    final EngineHarness h = new EngineHarness();
    private final boolean fkIndexes;

    UpdateTableTest(boolean fkIndexes) {
        this.fkIndexes = fkIndexes;
    }

    void expect(String sql, String reply) {
        assertEquals(reply, h.run(sql), sql);
    }

    /** Creates and fills t; returns its live rows. */
    long table() {
        expect("CREATE TABLE t (id int primary key, v int, w int, g int" + (fkIndexes ? ", x int)" : ")"), "+OK");
        for (int from = 0; from < ROWS; from += 10_000) {
            StringBuilder b = new StringBuilder("INSERT INTO t VALUES ");
            for (int i = from; i < from + 10_000; i++) {
                String v = i % 9973 == 5 ? "NULL" : Integer.toString(i % 1000);
                b.append(i > from ? "," : "").append('(').append(i).append(',').append(v).append(',').append(v)
                        .append(',').append(i % 97);
                if (fkIndexes) {
                    b.append(',').append(i % 1000);
                }
                b.append(')');
            }
            expect(b.toString(), "+OK");
        }
        if (fkIndexes) {
            expect("CREATE INDEX t_g ON t (g)", "+OK");
            expect("CREATE INDEX t_x ON t (x)", "+OK");
        }
        String deleted = h.run("DELETE FROM t WHERE id % 5003 = 7");
        return ROWS - Long.parseLong(deleted.substring(1));
    }

    /** v and w (updated by the general path alongside) agree on every row, NULLs included. */
    void sameAsGeneralPath(long live) {
        expect("SELECT COUNT(*) FROM t", ":" + live);
        expect("SELECT COUNT(*) FROM t WHERE v IS NOT DISTINCT FROM w", ":" + live);
    }
}
