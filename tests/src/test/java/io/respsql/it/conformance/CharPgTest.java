package io.respsql.it.conformance;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * char(n) / character(n) / bpchar / bare char (issue 24) in PostgreSQL's dialect over the wire,
 * each statement run in PostgreSQL 15 too: blank padding on output, trailing blanks insignificant
 * in comparisons, grouping, DISTINCT, joins and an index; casts, length/octet_length,
 * concatenation, too-long values (22001) and the catalog's type names.
 */
class CharPgTest {
    private static final List<String> LOAD = List.of(
            "CREATE TABLE ch (id int4 PRIMARY KEY, c char(5), one char, f character(3), v varchar(5))",
            "INSERT INTO ch VALUES (1, 'ab', 'x', 'a', 'ab'), (2, 'ab   ', 'y', 'a  ', 'ab   '), (3, 'abcde', NULL, 'b', 'abcde'),"
                    + " (4, NULL, 'x', NULL, NULL), (5, 'b', ' ', 'ab', 'b'), (6, 'ab    ', 'z', 'ab ', 'ab')",
            "CREATE TABLE other (k bpchar(4), n int4)",
            "INSERT INTO other VALUES ('ab', 10), ('b  ', 20), ('q', 30)",
            "CREATE INDEX ch_c ON ch (c)");
    private static PgPair both;

    @BeforeAll
    static void start() throws Exception {
        both = PgPair.start("charn", LOAD);
    }

    @AfterAll
    static void stop() throws Exception {
        if (both != null) {
            both.close();
        }
    }

    @Test
    void storedValuesShowPadded() throws Exception {
        both.same("SELECT * FROM ch ORDER BY id");
        both.same("SELECT id, c, one, f FROM ch ORDER BY id");
        both.same("SELECT c, id FROM ch ORDER BY c, id");
        both.same("SELECT k, n FROM other ORDER BY k");
        both.same("SELECT id, length(c), octet_length(c), char_length(f), length(one) FROM ch ORDER BY id");
        both.same("SELECT id, c || 'x', c::text, f || one, v || 'x' FROM ch ORDER BY id");
    }

    @Test
    void trailingBlanksAreInsignificant() throws Exception {
        both.same("SELECT id FROM ch WHERE c = 'ab' ORDER BY id");
        both.same("SELECT id FROM ch WHERE c = 'ab   ' ORDER BY id");
        both.same("SELECT id FROM ch WHERE c <> 'ab' ORDER BY id");
        both.same("SELECT id FROM ch WHERE c IN ('ab ', 'b') ORDER BY id");
        both.same("SELECT id FROM ch WHERE c > 'ab' ORDER BY id");
        both.same("SELECT c, count(*) FROM ch GROUP BY c ORDER BY c");
        both.same("SELECT DISTINCT c FROM ch ORDER BY c");
        both.same("SELECT count(DISTINCT f) FROM ch");
        both.same("SELECT ch.id, other.n FROM ch JOIN other ON other.k = ch.c ORDER BY ch.id");
        both.same("SELECT a.id, b.id FROM ch a JOIN ch b ON a.f = b.f AND a.id < b.id ORDER BY a.id, b.id");
        both.same("SELECT id FROM ch WHERE c IN (SELECT k FROM other) ORDER BY id");
    }

    @Test
    void casts() throws Exception {
        both.same("SELECT 'ab'::char(5), 'abcdefg'::char(3), 'x'::character(2) || 'y', 'ab  '::char(5)::text");
        // (booleans as CASE: the RESP reply writes a boolean as 0/1, PostgreSQL's text as t/f)
        both.same("SELECT CASE WHEN 'ab'::char(5) = 'ab   ' THEN 'y' ELSE 'n' END, CASE WHEN 'ab '::char(5) = 'ab'::char(3) THEN 'y' ELSE 'n' END,"
                + " CASE WHEN 'ab'::char(5) = 'ab'::text THEN 'y' ELSE 'n' END, CAST('abc' AS char), length('ab'::char(5))");
        both.same("SELECT id FROM ch WHERE c BETWEEN 'ab   ' AND 'ab' ORDER BY id");
        both.same("SELECT octet_length('ab'::char(5)), NULL::char(4), 'a'::bpchar, 'abc   '::bpchar || '|'");
        both.same("SELECT id, c::char(2), c::char(7), one::char(3) FROM ch ORDER BY id");
    }

    @Test
    void tooLongValuesAreRefused() throws Exception {
        both.error("INSERT INTO ch VALUES (10, 'abcdef', 'a', 'a', 'a')", "value too long for type character(5)");
        both.error("INSERT INTO ch VALUES (10, 'a', 'ab', 'a', 'a')", "value too long for type character(1)");
        both.error("UPDATE ch SET f = 'abcd' WHERE id = 1", "value too long for type character(3)");
        both.same("INSERT INTO ch VALUES (11, 'abcde     ', 'q ', 'x  ', 'v')");
        both.same("UPDATE ch SET f = 'zz    ' WHERE id = 11");
        both.same("SELECT * FROM ch WHERE id >= 10 ORDER BY id");
        both.same("DELETE FROM ch WHERE id >= 10");
    }

    /**
     * mend: char(n) beside varchar/text (a comparison with char involved ignores trailing blanks),
     * LIKE on a padded char(n), || and concat() of char(n) (trailing blanks dropped when char
     * becomes text), each as PostgreSQL 15 answers.
     */
    @Test
    void charBesideTextLikeAndConcatenation() throws Exception {
        List<String> statements = List.of(
                "SELECT id FROM ch WHERE c = v ORDER BY id",
                "SELECT id FROM ch WHERE v = c ORDER BY id",
                "SELECT id FROM ch WHERE c <> v ORDER BY id",
                "SELECT id FROM ch WHERE c < v ORDER BY id",
                "SELECT id FROM ch WHERE c = 'ab'::varchar ORDER BY id",
                "SELECT id FROM ch WHERE c = 'ab  '::varchar ORDER BY id",
                "SELECT id FROM ch WHERE c = 'ab  '::text ORDER BY id",
                "SELECT id FROM ch WHERE 'ab '::text = c ORDER BY id",
                "SELECT id FROM ch WHERE c = v::text ORDER BY id",
                "SELECT id FROM ch WHERE c IN ('ab'::varchar, 'b '::text) ORDER BY id",
                "SELECT id FROM ch WHERE c LIKE 'ab' ORDER BY id",
                "SELECT id FROM ch WHERE c LIKE 'ab%' ORDER BY id",
                "SELECT id FROM ch WHERE c LIKE '%b' ORDER BY id",
                "SELECT id FROM ch WHERE c NOT LIKE 'ab' ORDER BY id",
                "SELECT id FROM ch WHERE c ILIKE 'AB' ORDER BY id",
                "SELECT id FROM ch WHERE f LIKE 'a' ORDER BY id",
                "SELECT id, c || v, v || c, c || c, c || f FROM ch ORDER BY id",
                "SELECT id, concat(c, '|'), concat(c, v, '|'), concat_ws(',', c, f) FROM ch ORDER BY id",
                "SELECT id, c || 1, upper(c) || '|', lower(f) || '|' FROM ch ORDER BY id",
                "SELECT 'ab'::char(5) || 'x', concat('ab'::char(5), 'x'),  CASE WHEN 'ab'::char(4) LIKE 'ab' THEN 'y' ELSE 'n' END,"
                        + " CASE WHEN 'ab '::char(4) = 'ab'::varchar THEN 'y' ELSE 'n' END");
        StringBuilder differences = new StringBuilder();
        for (String sql : statements) {
            String d = both.difference(sql);
            if (d != null) {
                differences.append(d).append('\n');
            }
        }
        org.junit.jupiter.api.Assertions.assertEquals("", differences.toString());
    }

    @Test
    void catalogNamesTheType() throws Exception {
        both.same("SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.atttypmod, a.atttypid FROM pg_attribute a"
                + " JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = 'ch' AND a.attnum > 0 ORDER BY a.attnum");
        both.same("SELECT column_name, data_type, character_maximum_length FROM information_schema.columns"
                + " WHERE table_name = 'ch' ORDER BY ordinal_position");
    }
}
