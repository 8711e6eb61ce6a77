package io.respsql.it.diff;

import io.respsql.config.ServerConfig;
import io.respsql.net.RespSqlServer;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code scripts/difftest.sh}: the differential tester for a number of minutes against a server
 * of its own (in this JVM, on a free loopback port), PostgreSQL 15 beside it when installed.
 * Seeds run one after another from the given one (or a random one), 25 rounds each; every
 * finding is printed as a minimized, replayable statement list. Exit status 1 when there was one.
 *
 * <pre>DiffMain [--minutes N] [--seed S] [--no-pg] [--rounds-per-seed R]</pre>
 */
public final class DiffMain {
    private DiffMain() {
    }

    public static void main(String[] args) throws Exception {
        double minutes = 5;
        long seed = new java.security.SecureRandom().nextLong() & 0xffffffffL;
        boolean usePg = true;
        int rounds = 25;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--minutes" -> minutes = Double.parseDouble(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--no-pg" -> usePg = false;
                case "--rounds-per-seed" -> rounds = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: difftest [--minutes N] [--seed S] [--no-pg] [--rounds-per-seed R]");
                    System.exit(2);
                }
            }
        }
        long deadline = System.nanoTime() + (long) (minutes * 60e9);
        RespSqlServer server = start();
        RespSqlServer[] scratch = new RespSqlServer[1];
        PgSide pg = null;
        if (usePg && PgSide.installed()) {
            pg = PgSide.start();
            System.out.println("differential: PostgreSQL " + pg.version() + " as an oracle");
        } else {
            System.out.println("differential: without PostgreSQL" + (usePg ? " (not installed in " + PgSide.bin() + ")" : ""));
        }
        System.out.println("differential: " + minutes + " minute(s) from seed " + seed);
        long statements = 0;
        long checked = 0;
        long skipped = 0;
        List<DiffRunner.Finding> findings = new ArrayList<>();
        java.util.Map<String, Integer> reasons = new java.util.TreeMap<>();
        try {
            for (long s = seed; System.nanoTime() < deadline; s++) {
                DiffRunner r = new DiffRunner(s, "127.0.0.1", server.port(), () -> {
                    if (scratch[0] == null) {
                        scratch[0] = start();
                    }
                    return scratch[0].port();
                }, pg, System.out);
                r.run(rounds, deadline);
                System.out.println(r.summary());
                statements += r.statements;
                checked += r.checked;
                skipped += r.skipped;
                findings.addAll(r.findings);
                r.skipReasons.forEach((k, v) -> reasons.merge(k, v, Integer::sum));
            }
        } finally {
            if (pg != null) {
                pg.close();
            }
            server.close();
            if (scratch[0] != null) {
                scratch[0].close();
            }
        }
        List<java.util.Map.Entry<String, Integer>> top = new ArrayList<>(reasons.entrySet());
        top.sort((a, b) -> b.getValue() - a.getValue());
        System.out.println("differential: most frequent reasons for skipping:");
        for (int i = 0; i < Math.min(12, top.size()); i++) {
            System.out.println("  " + top.get(i).getValue() + " x " + top.get(i).getKey());
        }
        System.out.println("differential: " + statements + " statements, " + checked + " queries checked, " + skipped
                + " skipped, " + findings.size() + " finding(s)");
        System.exit(findings.isEmpty() ? 0 : 1);
    }

    static RespSqlServer start() {
        try {
            ServerConfig config = new ServerConfig().bind("127.0.0.1").port(0).save("")
                    .dir(Files.createTempDirectory("respsql-difftest-"));
            return RespSqlServer.start(config);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
