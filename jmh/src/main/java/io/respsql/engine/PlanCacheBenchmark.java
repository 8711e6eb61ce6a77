package io.respsql.engine;

import io.respsql.expr.ParamValues;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;
import io.respsql.KernelBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;


/**
 * The plan-cache lookup of a text statement, as SqlEngine.executeCached does it: {@link LiteralScan}
 * takes the literals out of the text and hashes the rest, {@link PlanCache#find} matches the key
 * in a cache of 500 entries (500 shapes: one per table name), and the literals are filled into
 * the parameter values. {@link #parameterize} is the miss path before planning: the parse and
 * {@link Parameterizer#rewrite}. The statement texts differ in their literals (64 of them, cycled),
 * as a client's do. Expected allocation of a hit: 0 B/op (the texts are made in the setup).
 *
 * <pre>
 * java -jar jmh/target/respsql-jmh.jar PlanCacheBenchmark -prof gc
 * </pre>
 */
public class PlanCacheBenchmark extends KernelBenchmark {
    private static final int SHAPES = 500;

    /** point: SELECT by primary key; update: the increment by primary key; in: an IN list of 20 ids. */
    @Param({"point", "update", "in"})
    public String statement;

    private final PlanCache cache = new PlanCache();
    private final LiteralScan scan = new LiteralScan();
    private final ParamValues params = new ParamValues(16);
    private final String[] texts = new String[64];
    private int next;

    @Setup
    public void setUp() {
        for (int t = 0; t < SHAPES; t++) {
            String sql = text("t" + t, 1);
            if (!scan.scan(sql)) {
                throw new IllegalStateException(sql);
            }
            // The plan object itself is not looked at by the lookup; a real one would only cost setup time.
            cache.put(new PlanCache.Entry(scan.key(), scan.hash, new Object(), statement.equals("update"), "t" + t));
        }
        for (int i = 0; i < texts.length; i++) {
            texts[i] = text("t" + (SHAPES / 2), 1 + i * 7919);
        }
        if (lookupHit() == null || parameterize() == null) {
            throw new IllegalStateException("no hit for " + texts[0]);
        }
    }

    private String text(String table, int id) {
        return switch (statement) {
            case "point" -> "SELECT v FROM " + table + " WHERE id = " + id;
            case "update" -> "UPDATE " + table + " SET v = v + 1 WHERE id = " + id;
            case "in" -> {
                StringBuilder b = new StringBuilder("SELECT id, v FROM " + table + " WHERE id IN (");
                for (int k = 0; k < 20; k++) {
                    b.append(k > 0 ? ", " : "").append(id + k);
                }
                yield b.append(')').toString();
            }
            default -> throw new IllegalArgumentException(statement);
        };
    }

    /** Scan, find, fill: what a cached statement costs before its plan runs. */
    @Benchmark
    public Object lookupHit() {
        String sql = texts[next++ & (texts.length - 1)];
        if (!scan.scan(sql)) {
            return null;
        }
        PlanCache.Entry e = cache.find(scan);
        scan.fill(params);
        return e;
    }

    /** The literal scan alone (the part of a hit that reads the text). */
    @Benchmark
    public int scanOnly() {
        String sql = texts[next++ & (texts.length - 1)];
        return scan.scan(sql) ? scan.hash : 0;
    }

    /** The miss path up to the planner: parse the text and turn its literals into parameters. */
    @Benchmark
    public Statement parameterize() {
        String sql = texts[next++ & (texts.length - 1)];
        scan.scan(sql);
        return Parameterizer.rewrite(SqlParser.parse(sql), scan);
    }
}
