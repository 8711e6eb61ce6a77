package io.respsql.bench.analytics;

import java.io.PrintStream;

/**
 * {@code gen-benchmark load-bench HOST PORT SF [BATCH WINDOW SEED]}: the analytics suite's load of
 * RespSQL alone (the same pipelined multi-row INSERTs as analytics-bench), one line per table and
 * one for all, with rows per second; the server must be empty. For A/Bs of the load path
 * (scripts/ab-load.sh) without PostgreSQL and DuckDB loading beside it.
 */
public final class LoadBench {
    private LoadBench() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 3) {
            err.println("usage: gen-benchmark load-bench HOST PORT SF [BATCH WINDOW SEED]");
            return 2;
        }
        try {
            String host = args[0];
            int port = Integer.parseInt(args[1]);
            double sf = Double.parseDouble(args[2]);
            int batch = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
            int window = args.length > 4 ? Integer.parseInt(args[4]) : 32;
            long seed = args.length > 5 ? Long.parseLong(args[5]) : 4;
            EcomGen g = EcomGen.atScale(seed, sf);
            try (RespEngine loader = new RespEngine(host, port, batch, window, err)) {
                for (Engine.Step s : loader.load(g)) {
                    out.printf("%-28s %10d rows %8.3f s %12.0f rows/s  %s%n", s.step(), s.rows(), s.seconds(),
                            s.rows() / s.seconds(), s.note());
                }
            }
            return 0;
        } catch (Exception e) {
            err.println("load-bench: " + e);
            return 1;
        }
    }
}
