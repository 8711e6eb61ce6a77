package io.respsql.engine;

import io.respsql.sql.Dialect;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RETURNING, DEFAULT, ON CONFLICT, UPDATE ... FROM and DELETE ... USING in the engine (PostgreSQL's dialect). */
class ReturningWritesTest {
    private SqlEngine engine;
    private boolean prior;

    @BeforeEach
    void setUp() {
        prior = Dialect.set(true);
        engine = new SqlEngine(new Catalog());
        ok("CREATE TABLE w (id int4 PRIMARY KEY, v int4, s text DEFAULT 'd')");
        ok("INSERT INTO w VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c')");
        ok("CREATE TABLE p (k int4, x int4)");
        ok("INSERT INTO p VALUES (1, 100), (2, 200), (2, 200), (9, 900)");
    }

    @AfterEach
    void tearDown() {
        Dialect.set(prior);
    }

    private void ok(String sql) {
        String r = CollectedRows.run(engine, sql);
        assertTrue(!r.startsWith("error"), sql + ": " + r);
    }

    private String run(String sql) {
        return CollectedRows.run(engine, sql);
    }

    @Test
    void returning() {
        assertEquals("rows [4,40,d]", run("INSERT INTO w (id, v) VALUES (4, 40) RETURNING *"));
        assertEquals("rows [2,21,b, 3,31,c]", run("UPDATE w SET v = v + 1 WHERE id IN (2, 3) RETURNING id, v, s"));
        assertEquals("rows [1,10]", run("DELETE FROM w WHERE id = 1 RETURNING id, v"));
        assertEquals("rows [2,21,b, 3,31,c, 4,40,d]", run("SELECT * FROM w ORDER BY id"));
    }

    @Test
    void updateFromEachRowOnce() {
        assertEquals("rows [1,110, 2,220]", run("UPDATE w SET v = p.x + w.v FROM p WHERE p.k = w.id RETURNING w.id, w.v"));
        assertEquals("rows [2,b]", run("DELETE FROM w AS t USING p WHERE p.k = t.id AND t.id = 2 RETURNING t.id, t.s"));
        assertEquals("rows [1,110,a, 3,30,c]", run("SELECT * FROM w ORDER BY id"));
    }

    @Test
    void defaults() {
        assertEquals("rows [5,NULL,d]", run("INSERT INTO w VALUES (5, DEFAULT, DEFAULT) RETURNING *"));
        assertEquals("rows [NULL,NULL]", run("INSERT INTO p DEFAULT VALUES RETURNING *"));
    }

    @Test
    void onConflict() {
        assertEquals("rows [1,11,a, 4,40,d]",
                run("INSERT INTO w VALUES (1, 99, 'z'), (4, 40, DEFAULT) ON CONFLICT (id) DO UPDATE SET v = w.v + 1 RETURNING *"));
        assertEquals("rows [5,50,d]", run("INSERT INTO w VALUES (2, 0), (5, 50) ON CONFLICT DO NOTHING RETURNING *"));
        assertEquals("rows [2,7,b]",
                run("INSERT INTO w AS t VALUES (2, 7, 'q'), (3, 8, 'r') ON CONFLICT (id) DO UPDATE SET v = excluded.v WHERE t.id = 2 RETURNING *"));
        String twice = run("INSERT INTO w VALUES (6, 1), (6, 2) ON CONFLICT (id) DO UPDATE SET v = excluded.v");
        assertTrue(twice.contains("21000") && twice.contains("cannot affect row a second time"), twice);
        String noIndex = run("INSERT INTO w VALUES (7, 1) ON CONFLICT (v) DO NOTHING");
        assertTrue(noIndex.contains("42P10"), noIndex);
        assertEquals("rows [1,11,a, 2,7,b, 3,30,c, 4,40,d, 5,50,d]", run("SELECT * FROM w ORDER BY id"));
    }

    @Test
    void multiColumnSetAndDefault() {
        assertEquals("rows [1,5,d]", run("UPDATE w SET (v, s) = (5, DEFAULT) WHERE id = 1 RETURNING *"));
        assertEquals("rows [2,NULL,x]", run("UPDATE w SET v = DEFAULT, s = 'x' WHERE id = 2 RETURNING *"));
        assertEquals("rows [3,31,c]", run("UPDATE w SET (v) = ROW(v + 1) WHERE id = 3 RETURNING id, v, s"));
        assertTrue(run("UPDATE w SET (v, s) = (1) WHERE id = 3").contains("number of columns does not match number of values"));
    }

    @Test
    void unknownColumnsAreErrorsInPostgresDialect() {
        String r = run("INSERT INTO w VALUES (1, 5) ON CONFLICT (id) DO UPDATE SET s = excluded.nosuch");
        assertTrue(r.startsWith("failed: 42703"), r);
        r = run("INSERT INTO w AS t VALUES (1, 5) ON CONFLICT (id) DO UPDATE SET s = w.s");
        assertTrue(r.startsWith("failed: 42P01"), r);
        r = run("UPDATE w SET s = nosuch WHERE id = 1");
        assertTrue(r.startsWith("failed: 42703"), r);
        assertEquals("rows [1,10,a]", run("SELECT * FROM w WHERE id = 1"));
    }
}
