package io.respsql.persist;

import io.respsql.engine.SqlEngine;
import io.respsql.sql.Dialect;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** partition: a snapshot keeps partition trees (section "partitions"): routing and reads work after a load. */
class PartitionsSnapshotTest {
    private boolean prior;

    @BeforeEach
    void setUp() {
        prior = Dialect.set(true);
    }

    @AfterEach
    void tearDown() {
        Dialect.set(prior);
    }

    @Test
    void treesSurviveASnapshot() throws Exception {
        SqlEngine engine = new SqlEngine(new Catalog());
        SnapshotTesting.sql(engine, "CREATE TABLE p (a int, b text) PARTITION BY LIST (b)");
        SnapshotTesting.sql(engine, "CREATE TABLE p_x PARTITION OF p FOR VALUES IN ('x', NULL)");
        SnapshotTesting.sql(engine, "CREATE TABLE p_r PARTITION OF p FOR VALUES IN ('r') PARTITION BY RANGE (a)");
        SnapshotTesting.sql(engine, "CREATE TABLE p_r1 PARTITION OF p_r FOR VALUES FROM (MINVALUE) TO (10)");
        SnapshotTesting.sql(engine, "CREATE TABLE p_d PARTITION OF p DEFAULT");
        SnapshotTesting.sql(engine, "INSERT INTO p VALUES (1, 'x'), (2, 'r'), (3, 'q')");
        String before = SnapshotTesting.sql(engine, "SELECT tableoid, a, b FROM p ORDER BY a");

        SqlEngine loaded = new SqlEngine(SnapshotTesting.load(SnapshotTesting.snapshot(engine.catalog())));
        assertEquals(before, SnapshotTesting.sql(loaded, "SELECT tableoid, a, b FROM p ORDER BY a"));
        assertTrue(before.contains("p_r1") && before.contains("p_d"), before);
        assertTrue(SnapshotTesting.sql(loaded, "INSERT INTO p VALUES (20, 'r')").startsWith("-"), "no partition of p_r takes 20");
        SnapshotTesting.sql(loaded, "INSERT INTO p VALUES (4, NULL)");
        assertEquals(":2", SnapshotTesting.sql(loaded, "SELECT count(*) FROM p_x"));
        assertTrue(SnapshotTesting.sql(loaded, "CREATE TABLE p_x2 PARTITION OF p FOR VALUES IN ('x')").startsWith("-"), "overlap");
    }
}
