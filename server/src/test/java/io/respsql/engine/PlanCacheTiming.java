package io.respsql.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;

/**
 * Not a test: a quick in-process timing of point statements through {@link SqlEngine#execute}
 * with the plan cache on and off, alternated in one run (bench/plan-cache/README.md).
 * {@code java -cp ... io.respsql.engine.PlanCacheTiming [statements per round] [rounds]}.
 */
public final class PlanCacheTiming {
    private static final int ROWS = 100_000;

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        SqlEngine on = engine();
        SqlEngine off = engine();
        off.planCacheLimits(0, 0);
        RespWriter w = new RespWriter();
        ByteBuf buf = Unpooled.buffer(1 << 16);
        String[] kinds = {"SELECT v FROM kv WHERE id = ", "UPDATE kv SET v = v + 1 WHERE id = "};
        // warm-up
        for (String k : kinds) {
            run(on, w, buf, k, n / 5);
            run(off, w, buf, k, n / 5);
        }
        System.out.printf("%-40s %5s %12s %12s %8s%n", "statement", "round", "off ns/stmt", "on ns/stmt", "off/on");
        for (String k : kinds) {
            for (int r = 1; r <= rounds; r++) {
                long tOff;
                long tOn;
                if (r % 2 == 1) {
                    tOff = run(off, w, buf, k, n);
                    tOn = run(on, w, buf, k, n);
                } else {
                    tOn = run(on, w, buf, k, n);
                    tOff = run(off, w, buf, k, n);
                }
                System.out.printf("%-40s %5d %12.1f %12.1f %8.2f%n", k + "N", r, tOff / (double) n, tOn / (double) n,
                        tOff / (double) tOn);
            }
        }
        System.out.println("cache on: hits " + on.planCacheHits() + ", misses " + on.planCacheMisses());
    }

    private static SqlEngine engine() {
        SqlEngine e = new SqlEngine(new Catalog());
        RespWriter w = new RespWriter();
        ByteBuf buf = Unpooled.buffer();
        EngineReplies.run(e, "CREATE TABLE kv (id INT PRIMARY KEY, v INT)", w.target(buf));
        StringBuilder sb = new StringBuilder("INSERT INTO kv VALUES ");
        for (int i = 1; i <= ROWS; i++) {
            sb.append(i > 1 ? "," : "").append('(').append(i).append(',').append(i).append(')');
        }
        buf.clear();
        EngineReplies.run(e, sb.toString(), w.target(buf));
        return e;
    }

    private static long run(SqlEngine e, RespWriter w, ByteBuf buf, String prefix, int n) {
        String[] texts = new String[1024];
        for (int i = 0; i < texts.length; i++) {
            texts[i] = prefix + (i * 97 % ROWS + 1);
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            buf.clear();
            EngineReplies.run(e, texts[i & 1023], w.target(buf));
        }
        return System.nanoTime() - t0;
    }
}
