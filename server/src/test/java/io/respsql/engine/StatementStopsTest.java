package io.respsql.engine;

import io.respsql.config.ServerConfig;
import io.respsql.result.Outcome;
import io.respsql.result.ResultSink;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine's limits: off for replay/replica apply (unlimited), and a shutdown that re-arming keeps. */
class StatementStopsTest {
    /** 1,000 x 1,000 pairs, each side scanned in batches that check the statement's stop. */
    private static final String PAIRS = "SELECT COUNT(*) FROM a, b WHERE a.v + b.v >= 0";
    private SqlEngine engine;

    @BeforeEach
    void load() {
        engine = new SqlEngine(new Catalog());
        for (String t : new String[] {"a", "b"}) {
            assertTrue(run("CREATE TABLE " + t + " (id INT PRIMARY KEY, v INT)").ok());
            StringBuilder sb = new StringBuilder("INSERT INTO " + t + " VALUES ");
            for (int i = 0; i < 1000; i++) {
                sb.append(i > 0 ? "," : "").append('(').append(i).append(',').append(i % 7).append(')');
            }
            assertTrue(run(sb.toString()).ok());
        }
    }

    private Outcome run(String sql) {
        return engine.execute(sql, ResultSink.NONE);
    }

    @Test
    void unlimitedStatementsIgnoreAnyTimeoutOrBound() throws Exception {
        ServerConfig config = new ServerConfig();
        config.option("query-timeout-ms").set("0");
        config.option("loop-statement-max-ms").set("0");
        config.option("loop-write-max-ms").set("0");
        engine.statementLimits(config);
        engine.sessionTimeout(0);
        // A 1 ms timeout (the least): a million-pair join overruns it.
        config.option("query-timeout-ms").set("1");
        config.option("loop-write-max-ms").set("1");
        String delete = "DELETE FROM a WHERE id IN (SELECT x.id FROM a x, b WHERE x.v + b.v < 1)";
        Outcome limited = run(delete);
        assertFalse(limited.ok(), "the client's statement is limited");
        assertTrue(limited.error().contains("query cancelled"), limited.error());
        engine.unlimited(true); // as AofLoader and MasterLink.apply do
        try {
            assertTrue(run(PAIRS).ok());
            Outcome o = run(delete);
            assertTrue(o.ok(), o.error());
            assertEquals(143, o.changes(), "1000/7 rows with v 0");
        } finally {
            engine.unlimited(false);
        }
        assertFalse(run(PAIRS).ok(), "limited again");
    }

    @Test
    void aShutdownStopsEveryLaterStatementToo() {
        assertTrue(run(PAIRS).ok());
        engine.cancelRunning("query cancelled: server shutting down");
        for (int i = 0; i < 2; i++) { // each is re-armed: the shutdown is kept
            Outcome o = run(PAIRS);
            assertFalse(o.ok());
            assertEquals("ERR query cancelled: server shutting down", o.error());
        }
    }
}
