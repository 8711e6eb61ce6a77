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

/** PostgreSQL's arrays in its dialect: constructors, text forms, casts, operators and functions (PostgreSQL 15's answers). */
class ArrayQueryTest {
    private final QueryFixture f = new QueryFixture();

    @BeforeEach
    void setUp() {
        Table t = f.table("t", 0, "id int", "s text");
        f.row(t, 1, "a");
        f.row(t, 2, "b c");
        Dialect.postgres(true);
    }

    @AfterEach
    void back() {
        Dialect.postgres(false);
    }

    private String one(String sql) {
        List<String> r = f.rows(sql);
        assertEquals(1, r.size(), sql);
        return r.get(0);
    }

    @Test
    void constructorsAndTextForms() {
        assertEquals("{1,2,3}", one("SELECT ARRAY[1,2,3]"));
        assertEquals("{1,2,3}", one("SELECT '{1, 2 ,3}'::int[]"));
        assertEquals("{a,\"b c\",NULL,\"NULL\",\"\",\"x\\\"y\",\"a\\\\b\"}",
                one("SELECT ARRAY['a','b c',NULL,'NULL','','x\"y','a\\b']"));
        assertEquals("{{1,2},{3,4}}", one("SELECT ARRAY[[1,2],[3,4]]"));
        assertEquals("{{1,2},{3,4}}", one("SELECT '{{1,2},{3,4}}'::int[]"));
        assertEquals("{t,f}", one("SELECT ARRAY[true,false]"));
        assertEquals("{1.5,2}", one("SELECT ARRAY[1.5::float8,2]"));
        assertEquals("{1.50,2}", one("SELECT ARRAY[1.50,2]"));
        assertEquals("{}", one("SELECT '{}'::text[]"));
        assertEquals("{2024-01-02}", one("SELECT ARRAY['2024-01-02'::date]"));
        assertEquals("{1,2}", one("SELECT '{1,2}'::_int4"));
        assertEquals("{1,2}", one("SELECT CAST('{1,2}' AS integer[])"));
        assertEquals("{1,2}", one("SELECT ARRAY[1,2]::text"));
        assertEquals("{1,2}", one("SELECT ARRAY[1,2]::bigint[]"));
        SqlException e = assertThrows(SqlException.class, () -> f.rows("SELECT '{1,2'::int[]"));
        assertEquals("22P02", e.sqlState());
        e = assertThrows(SqlException.class, () -> f.rows("SELECT '{1,x}'::int[]"));
        assertEquals("22P02", e.sqlState());
    }

    @Test
    void subscriptsAndSlices() {
        assertEquals("2", one("SELECT (ARRAY[1,2,3])[2]"));
        assertEquals("NULL", one("SELECT (ARRAY[1,2,3])[4]"));
        assertEquals("{2,3}", one("SELECT (ARRAY[1,2,3])[2:3]"));
        assertEquals("{1,2}", one("SELECT (ARRAY[1,2,3])[:2]"));
        assertEquals("{2,3}", one("SELECT (ARRAY[1,2,3])[2:]"));
        assertEquals("3", one("SELECT ('{{1,2},{3,4}}'::int[])[2][1]"));
        assertEquals("{{2},{4}}", one("SELECT ('{{1,2},{3,4}}'::int[])[1:2][2:2]"));
        assertEquals("b", one("SELECT ('{a,b}'::text[])[2]"));
    }

    @Test
    void comparisonsAndQuantifiers() {
        assertEquals("t", one("SELECT ARRAY[1,2] = '{1,2}'::int[]").replace("1", "t"));
        assertEquals(List.of("1|0|1|1"), f.rows("SELECT ARRAY[1,2] < ARRAY[1,3], ARRAY[10] < ARRAY[9], ARRAY[1] < ARRAY[1,0], "
                + "ARRAY[1,2] <> ARRAY[2]"));
        assertEquals(List.of("1|0|NULL|1|0"), f.rows("SELECT 2 = ANY(ARRAY[1,2]), 3 = ANY(ARRAY[1,2]), 3 = ANY(ARRAY[1,NULL]), "
                + "3 <> ALL(ARRAY[1,2]), 1 > ALL('{1,0}'::int[])"));
        assertEquals(List.of("1"), f.rows("SELECT id FROM t WHERE s = ANY('{a,x}')"));
        assertEquals(List.of("2|{2}", "1|{1,5}"), f.rows("SELECT id, a FROM (SELECT id, CASE WHEN id = 1 THEN ARRAY[1,5] ELSE ARRAY[2] END AS a FROM t) x ORDER BY a DESC"));
    }

    @Test
    void functions() {
        assertEquals(List.of("3|3|1|3|1"), f.rows("SELECT array_length(ARRAY[1,2,3], 1), cardinality(ARRAY[1,2,3]), "
                + "array_lower(ARRAY[1,2,3], 1), array_upper(ARRAY[1,2,3], 1), array_ndims(ARRAY[1,2,3])"));
        assertEquals("NULL", one("SELECT array_length('{}'::int[], 1)"));
        assertEquals("[1:2][1:2]", one("SELECT array_dims('{{1,2},{3,4}}'::int[])"));
        assertEquals("1,*,3", one("SELECT array_to_string(ARRAY[1,NULL,3], ',', '*')"));
        assertEquals("1,3", one("SELECT array_to_string(ARRAY[1,NULL,3], ',')"));
        assertEquals("{xx,NULL,zz}", one("SELECT string_to_array('xx~^~yy~^~zz', '~^~', 'yy')"));
        assertEquals("{1,2,3}", one("SELECT array_append(ARRAY[1,2], 3)"));
        assertEquals("{0,1,2}", one("SELECT array_prepend(0, ARRAY[1,2])"));
        assertEquals("{1,2,3,4}", one("SELECT array_cat(ARRAY[1,2], ARRAY[3,4])"));
        assertEquals("{1,2,3}", one("SELECT ARRAY[1,2] || 3"));
        assertEquals("{0,1,2}", one("SELECT 0 || ARRAY[1,2]"));
        assertEquals("{1,2,3,4}", one("SELECT ARRAY[1,2] || ARRAY[3,4]"));
        assertEquals("{{1,2},{3,4}}", one("SELECT ARRAY[[1,2]] || ARRAY[3,4]"));
        assertEquals("2", one("SELECT array_position(ARRAY['a','b','c'], 'b')"));
        assertEquals("{1,3}", one("SELECT array_positions(ARRAY[1,2,1], 1)"));
        assertEquals("{1,3}", one("SELECT array_remove(ARRAY[1,2,3], 2)"));
        assertEquals("{1,9,3}", one("SELECT array_replace(ARRAY[1,2,3], 2, 9)"));
        assertEquals(List.of("1|1|1|0"), f.rows("SELECT ARRAY[1,2,3] @> ARRAY[3,1], ARRAY[1] <@ ARRAY[1,2], "
                + "ARRAY[1,2] && ARRAY[2,5], ARRAY[1,2] && ARRAY[3]"));
    }

    @Test
    void aggregatesUnnestAndElementAssignment() {
        assertEquals("{1,2}", one("SELECT array_agg(id) FROM t"));
        assertEquals("{\"b c\",a}", one("SELECT array_agg(s ORDER BY s DESC) FROM t"));
        assertEquals("{NULL,1}", one("SELECT array_agg(x ORDER BY x NULLS FIRST) FROM (VALUES (1), (NULL)) v(x)"));
        assertEquals("{1,2}", one("SELECT array_agg(DISTINCT x) FROM (VALUES (2), (1), (2)) v(x)"));
        assertEquals("{{1,2},{3,4}}", one("SELECT array_agg(a) FROM (VALUES (ARRAY[1,2]), (ARRAY[3,4])) v(a)"));
        assertEquals(List.of("1|{1}", "2|{2}"), f.rows("SELECT id, array_agg(id) FROM t GROUP BY id ORDER BY id"));
        assertEquals(List.of("1", "2", "NULL"), f.rows("SELECT * FROM unnest(ARRAY[1,2,NULL])"));
        assertEquals(List.of("a", "b"), f.rows("SELECT x FROM unnest('{a,b}'::text[]) AS u(x) ORDER BY x"));
        assertEquals(List.of("3", "4"), f.rows("SELECT unnest(ARRAY[3,4])"));
        assertEquals(List.of("5"), f.rows("SELECT sum(u) FROM unnest(ARRAY[2,3]) u"));
        assertEquals("{1,2}", one("SELECT ARRAY(SELECT id FROM t ORDER BY id)"));
        assertEquals("{}", one("SELECT ARRAY(SELECT id FROM t WHERE id > 5)"));
        assertEquals(List.of("1|{a}", "2|{\"b c\"}"), f.rows("SELECT id, ARRAY(SELECT s FROM t x WHERE x.id = t.id) FROM t ORDER BY id"));
    }
}
