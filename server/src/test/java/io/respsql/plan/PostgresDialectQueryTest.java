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
    void divisionByZeroIsAnError() {
        SqlException e = assertThrows(SqlException.class, () -> f.rows("SELECT id / 0 FROM t"));
        assertEquals("22012", e.sqlState());
    }
}
