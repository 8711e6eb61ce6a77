package io.respsql.it.conformance;

import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the random-data conformance tests share when PostgreSQL 15 is their oracle
 * ({@link AntiJoinNtileTest}, {@link WindowTopKTest}): the skip-or-fail when it is not installed,
 * the row comparison of one query on both, the repository root (for scripts/pg-peer.sh) and the
 * removal of a test's work directory.
 */
final class PgOracle {
    private PgOracle() {
    }

    /** Skips the test without PostgreSQL, unless {@code RESPSQL_REQUIRE_CONFORMANCE=1} (CI), where it fails. */
    static void requirePostgresql() {
        if (!PgPeer.installed()) {
            String why = "no PostgreSQL in " + PgPeer.bin();
            if ("1".equals(System.getenv("RESPSQL_REQUIRE_CONFORMANCE"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
    }

    /**
     * Runs the statements {@code load} on both: on PostgreSQL as one file (written into
     * {@code work}, followed by ANALYZE), on RespSQL one at a time, each answered OK.
     */
    static void loadBoth(PgPeer pg, WireClient client, Path work, List<String> load) throws Exception {
        Path file = work.resolve("load.sql");
        Files.writeString(file, String.join(";\n", load) + ";\nANALYZE;\n");
        pg.runFile(file);
        for (String st : load) {
            assertEquals("OK", client.sql(st), st);
        }
    }

    /**
     * Same rows as PostgreSQL, as multisets; with {@code keyOrdered}, RespSQL's rows also come in
     * PostgreSQL's order of column 0.
     */
    static void compare(PgPeer pg, WireClient client, String sql, boolean keyOrdered) throws Exception {
        List<List<String>> expected = pg.query(sql);
        ResultDecoder decoder = ResultDecoder.named("typed");
        int columns = expected.isEmpty() ? 0 : expected.get(0).size();
        Object reply = client.send(decoder.command(), sql);
        ResultDecoder.Decoded d = decoder.decode(reply, columns);
        if (d.failed()) {
            fail(sql + " failed on RespSQL: " + d.error());
        }
        if (expected.isEmpty()) {
            assertEquals(0, d.rows().size(), sql);
            return;
        }
        assertNull(Seed004Test.compare(expected, d.rows(), false, d.typed()), sql);
        if (keyOrdered) {
            for (int i = 0; i < expected.size(); i++) {
                Object k = d.rows().get(i).get(0);
                assertTrue(Seed004Test.same(expected.get(i).get(0), k, d.typed()), sql + ": row " + (i + 1) + " key " + k
                        + ", PostgreSQL's " + expected.get(i).get(0));
            }
        }
    }

    /** The first directory above the working directory that holds scripts/pg-peer.sh. */
    static Path repoRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("scripts").resolve("pg-peer.sh"))) {
                return d;
            }
        }
        throw new AssertionError("no scripts/pg-peer.sh above " + Path.of("").toAbsolutePath());
    }

    /** Deletes {@code dir} and everything in it. */
    static void deleteTree(Path dir) throws java.io.IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
