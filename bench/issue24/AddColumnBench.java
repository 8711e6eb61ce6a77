import io.respsql.engine.SqlEngine;
import io.respsql.result.Outcome;
import io.respsql.storage.Catalog;

import java.util.Arrays;

/**
 * ALTER TABLE ... ADD COLUMN with a constant DEFAULT on the 2010 message_list table (id INT PRIMARY
 * KEY, fk INT, count INT, an index on fk) of N rows, timed in-process around SqlEngine.execute: the
 * time the statement holds the event loop. Warmed up on a 300,000-row table first (the JIT), then
 * each statement 7 times on the large table (ADD then DROP), median and max. Run by
 * scripts/alter-add-column-bench.sh.
 */
public class AddColumnBench {
    static SqlEngine e;

    static Outcome run(String sql) {
        Outcome o = e.execute(sql);
        if (o.error() != null) {
            throw new IllegalStateException(sql + ": " + o.error());
        }
        return o;
    }

    static double ms(String sql) {
        long t0 = System.nanoTime();
        run(sql);
        return (System.nanoTime() - t0) / 1e6;
    }

    static void load(String table, int n) {
        run("CREATE TABLE " + table + " (id INT PRIMARY KEY, fk INT, count INT)");
        run("CREATE INDEX " + table + ":fk:index ON " + table + " (fk)");
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; ) {
            b.setLength(0);
            b.append("INSERT INTO ").append(table).append(" VALUES ");
            for (int k = 0; k < 1000 && i <= n; k++, i++) {
                b.append(k == 0 ? "(" : ",(").append(i).append(',').append(i % 100).append(",4)");
            }
            run(b.toString());
        }
    }

    static final String[] ADDS = {
        "ADD COLUMN c INT DEFAULT 0",
        "ADD COLUMN c BIGINT DEFAULT 7 NOT NULL",
        "ADD COLUMN c FLOAT DEFAULT 0.5",
        "ADD COLUMN c TEXT DEFAULT 'new'",
        "ADD COLUMN c INT",
    };

    public static void main(String[] a) {
        int n = a.length > 0 ? Integer.parseInt(a[0]) : 10_000_000;
        e = new SqlEngine(new Catalog());
        e.unlimited(true); // the load is not what is measured
        load("warm", 300_000);
        long t0 = System.nanoTime();
        load("message_list", n);
        System.out.printf("loaded %,d rows in %.1f s; %d cores, %s%n", n, (System.nanoTime() - t0) / 1e9,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        e.unlimited(false);
        for (int w = 0; w < 200; w++) {
            for (String add : ADDS) {
                run("ALTER TABLE warm " + add);
                run("ALTER TABLE warm DROP COLUMN c");
            }
        }
        System.gc();
        for (String add : ADDS) {
            double[] t = new double[7];
            for (int r = 0; r < t.length; r++) {
                t[r] = ms("ALTER TABLE message_list " + add);
                run("ALTER TABLE message_list DROP COLUMN c");
            }
            Arrays.sort(t);
            System.out.printf("median %7.3f ms  max %7.3f ms  ALTER TABLE message_list %s%n", t[t.length / 2], t[t.length - 1], add);
        }
        // a type change rewrites the column: timed without bounds, then refused under the default bound
        e.unlimited(true);
        System.out.printf("        %7.3f ms  ALTER TABLE warm ALTER COLUMN count TYPE BIGINT (300,000 rows, no bound)%n",
                ms("ALTER TABLE warm ALTER COLUMN count TYPE BIGINT"));
        System.out.printf("        %7.3f ms  ALTER TABLE message_list ALTER COLUMN count TYPE BIGINT (no bound)%n",
                ms("ALTER TABLE message_list ALTER COLUMN count TYPE BIGINT"));
        e.unlimited(false);
        e.statementLimits(new io.respsql.config.ServerConfig());
        long t1 = System.nanoTime();
        Outcome refused = e.execute("ALTER TABLE message_list ALTER COLUMN count TYPE INT");
        System.out.printf("        %7.3f ms  ALTER TABLE message_list ALTER COLUMN count TYPE INT (default bounds): %s%n",
                (System.nanoTime() - t1) / 1e6, refused.error());
        run("ALTER TABLE message_list ADD COLUMN c INT DEFAULT 0");
        System.out.printf("        %7.3f ms  UPDATE message_list SET c = 5 WHERE fk = 3 (its first writes copy the shared chunks)%n",
                ms("UPDATE message_list SET c = 5 WHERE fk = 3"));
        System.out.printf("        %7.3f ms  the same UPDATE again%n", ms("UPDATE message_list SET c = 5 WHERE fk = 3"));
        System.out.printf("        %7.3f ms  TRUNCATE message_list%n", ms("TRUNCATE message_list"));
    }
}
