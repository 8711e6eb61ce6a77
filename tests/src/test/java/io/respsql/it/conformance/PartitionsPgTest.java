package io.respsql.it.conformance;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * Declarative partitioning (partition helper) over the wire in PostgreSQL's dialect, each statement
 * run in PostgreSQL 15 too: routing of INSERT (RANGE, LIST, HASH with PostgreSQL's own hashes,
 * DEFAULT, sub-partitions), the errors PostgreSQL gives (no partition for a row, a direct write
 * outside its partition's bound, overlapping bounds), reads of the parent, UPDATE moving rows
 * between partitions, DELETE through the parent, ATTACH / DETACH.
 */
class PartitionsPgTest {
    private static final List<String> LOAD = List.of(
            "CREATE TABLE r (a int, b text) PARTITION BY RANGE (a)",
            "CREATE TABLE r_lo PARTITION OF r FOR VALUES FROM (MINVALUE) TO (10)",
            "CREATE TABLE r_mid PARTITION OF r FOR VALUES FROM (10) TO (20)",
            "CREATE TABLE l (k text, n int) PARTITION BY LIST (lower(k))",
            "CREATE TABLE l_ab PARTITION OF l FOR VALUES IN ('a', 'b')",
            "CREATE TABLE l_null PARTITION OF l FOR VALUES IN (NULL)",
            "CREATE TABLE l_c PARTITION OF l FOR VALUES IN ('c') PARTITION BY RANGE (n)",
            "CREATE TABLE l_c1 PARTITION OF l_c FOR VALUES FROM (0) TO (100)",
            "CREATE TABLE l_def PARTITION OF l DEFAULT",
            "CREATE TABLE h (id int, s text, big int8) PARTITION BY HASH (id)",
            "CREATE TABLE h0 PARTITION OF h FOR VALUES WITH (MODULUS 4, REMAINDER 0)",
            "CREATE TABLE h1 PARTITION OF h FOR VALUES WITH (MODULUS 4, REMAINDER 1)",
            "CREATE TABLE h2 PARTITION OF h FOR VALUES WITH (MODULUS 4, REMAINDER 2)",
            "CREATE TABLE h3 PARTITION OF h FOR VALUES WITH (MODULUS 4, REMAINDER 3)",
            "CREATE TABLE hm (s text, big int8) PARTITION BY HASH (s, big)",
            "CREATE TABLE hm0 PARTITION OF hm FOR VALUES WITH (MODULUS 3, REMAINDER 0)",
            "CREATE TABLE hm1 PARTITION OF hm FOR VALUES WITH (MODULUS 3, REMAINDER 1)",
            "CREATE TABLE hm2 PARTITION OF hm FOR VALUES WITH (MODULUS 3, REMAINDER 2)");
    private static PgPair both;

    @BeforeAll
    static void start() throws Exception {
        both = PgPair.start("partitions", LOAD);
    }

    @AfterAll
    static void stop() throws Exception {
        if (both != null) {
            both.close();
        }
    }

    @Test
    void rangeRoutingErrorsAndRowMovement() throws Exception {
        both.same("INSERT INTO r VALUES (-5, 'neg'), (1, 'one'), (10, 'ten'), (19, 'nineteen')");
        both.same("SELECT a, b FROM r ORDER BY a");
        both.same("SELECT a FROM r_mid ORDER BY a");
        both.error("INSERT INTO r VALUES (3, 'fits'), (20, 'none')", "no partition of relation \"r\" found for row");
        both.error("INSERT INTO r_lo VALUES (15, 'x')", "new row for relation \"r_lo\" violates partition constraint");
        both.error("CREATE TABLE r_bad PARTITION OF r FOR VALUES FROM (15) TO (30)", "would overlap partition \"r_mid\"");
        both.same("SELECT a FROM r ORDER BY a");
        both.same("UPDATE r SET a = a + 10 WHERE a = 1");
        both.same("SELECT a, b FROM r_mid ORDER BY a");
        both.error("UPDATE r SET a = 100 WHERE a = 10", "no partition of relation \"r\" found for row");
        both.same("UPDATE r SET b = b || '!' WHERE a > 0");
        both.same("SELECT a, b FROM r ORDER BY a");
        both.same("DELETE FROM r WHERE b LIKE '%!'");
        both.same("SELECT a, b FROM r ORDER BY a");
        both.same("CREATE TABLE r_hi (b text, a int)");
        both.same("INSERT INTO r_hi VALUES ('big', 25)");
        both.same("ALTER TABLE r ATTACH PARTITION r_hi FOR VALUES FROM (20) TO (30)");
        both.same("SELECT a, b FROM r ORDER BY a");
        both.same("ALTER TABLE r DETACH PARTITION r_lo");
        both.same("SELECT a, b FROM r ORDER BY a");
    }

    @Test
    void listDefaultAndSubpartitions() throws Exception {
        both.same("INSERT INTO l VALUES ('A', 1), (NULL, 2), ('c', 5), ('zz', 7), ('B', 8)");
        both.same("SELECT k, n FROM l ORDER BY n");
        both.same("SELECT k, n FROM l_ab ORDER BY n");
        both.same("SELECT k, n FROM l_def");
        both.same("SELECT k FROM l_null");
        both.error("INSERT INTO l VALUES ('c', 500)", "no partition of relation \"l_c\" found for row");
        both.error("INSERT INTO l_def VALUES ('a', 1)", "violates partition constraint");
        both.same("UPDATE l SET k = 'c' WHERE n = 8");
        both.same("SELECT k, n FROM l_c1 ORDER BY n");
    }

    @Test
    void hashRoutingIsPostgresqls() throws Exception {
        both.same("INSERT INTO h SELECT g, 's' || g, g::int8 * 1000000007 FROM generate_series(-20, 40) g");
        for (int r = 0; r < 4; r++) {
            both.same("SELECT id FROM h" + r + " ORDER BY id");
        }
        both.same("INSERT INTO hm SELECT 'text ' || g || repeat('x', g % 17), g::int8 * -99999999977 FROM generate_series(1, 40) g");
        for (int r = 0; r < 3; r++) {
            both.same("SELECT s, big FROM hm" + r + " ORDER BY s");
        }
        both.same("INSERT INTO hm VALUES (NULL, NULL), ('only text', NULL)");
        both.same("SELECT s, big FROM hm0 ORDER BY s");
    }
}
