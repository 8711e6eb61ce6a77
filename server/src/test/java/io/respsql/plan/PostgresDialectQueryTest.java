package io.respsql.plan;

import io.respsql.sql.Dialect;
import io.respsql.sql.SqlException;
import io.respsql.storage.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Queries bound in PostgreSQL's dialect ({@link Dialect}): casts, functions and CTEs as PostgreSQL 15 answers them. */
class PostgresDialectQueryTest {
    private final QueryFixture f = new QueryFixture();

    @BeforeEach
    void setUp() {
        Table t = f.table("t", 0, "id int", "x float", "s text");
        f.row(t, 1, 2.5, "Hello");
        f.row(t, 2, -1.5, "abc");
        f.row(t, 3, null, null);
        Dialect.postgres(true);
    }

    @AfterEach
    void back() {
        Dialect.postgres(false);
    }

    @Test
    void castOfADoubleColumnRoundsHalfToEven() {
        assertEquals(List.of("1|2", "2|-2", "3|NULL"), f.rows("SELECT id, x::int4 FROM t ORDER BY id"));
    }

    @Test
    void sqliteDialectIsUnchanged() {
        Dialect.postgres(false);
        assertEquals(List.of("1|2", "2|-1", "3|NULL"), f.rows("SELECT id, CAST(x AS INTEGER) FROM t ORDER BY id"));
        assertEquals(List.of("NULL"), f.rows("SELECT 1 / 0"));
    }

    @Test
    void withBindsEachCteAsADerivedTable() {
        assertEquals(List.of("1|Hello", "2|abc"),
                f.rows("WITH q AS (SELECT id, s FROM t WHERE s IS NOT NULL) SELECT * FROM q ORDER BY id"));
        // a CTE sees the ones before it; column aliases rename the first columns
        assertEquals(List.of("2|4"), f.rows("WITH a(k) AS (SELECT id FROM t), b AS (SELECT k, k * 2 AS d FROM a WHERE k = 2)"
                + " SELECT k, d FROM b"));
        // referenced twice, in a join and in a subquery
        assertEquals(List.of("count=3"), f.rows("WITH a AS (SELECT id FROM t) SELECT count(*) FROM a x JOIN a y ON x.id = y.id"
                + " WHERE x.id IN (SELECT id FROM a)"));
        // an inner WITH hides an outer one of the same name
        assertEquals(List.of("7"), f.rows("WITH a AS (SELECT 1 AS v) SELECT * FROM (WITH a AS (SELECT 7 AS v) SELECT v FROM a) s"));
        assertEquals(List.of("1|x", "2|y"), f.rows("SELECT * FROM (VALUES (1, 'x'), (2, 'y')) AS v(n, c) ORDER BY n"));
    }

    @Test
    void aCteMayReadTheOuterRow() {
        assertEquals(List.of("1", "2", "3"),
                f.rows("SELECT (WITH c(v) AS (VALUES (id)) SELECT (SELECT v FROM c)) FROM t ORDER BY 1"));
    }

    @Test
    void recursiveWithIteratesAndItsMisusesAreRefused() {
        assertEquals(List.of("1", "2", "3", "4", "5"),
                f.rows("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r"));
        SqlException e = assertThrows(SqlException.class, () -> f.rows(
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM r) SELECT * FROM r"));
        assertEquals("42P19", e.sqlState());
        // a CTE that names itself without RECURSIVE reads the table of that name (here: none)
        assertThrows(SqlException.class, () -> f.rows("WITH r AS (SELECT * FROM r) SELECT * FROM r"));
        assertThrows(SqlException.class, () -> f.rows("SELECT * FROM (SELECT 1, 2) AS v(a, b, c)"));
    }

    @Test
    void divisionByZeroIsAnError() {
        SqlException e = assertThrows(SqlException.class, () -> f.rows("SELECT id / 0 FROM t"));
        assertEquals("22012", e.sqlState());
    }
}
