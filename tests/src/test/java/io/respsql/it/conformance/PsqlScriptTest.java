package io.respsql.it.conformance;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The psql statement splitter of {@link PgRegressTest}: where psql ends a statement, and what it does with variables. */
class PsqlScriptTest {
    private static List<String> sql(String script) {
        return PsqlScript.split(script).stream().map(u -> u.isMeta() ? "META " + u.meta() : u.sql()).toList();
    }

    @Test
    void semicolonsInsideQuotesCommentsDollarQuotesAndParenthesesDoNotEndAStatement() {
        assertEquals(List.of("SELECT 'a;b', \"c;d\", E'x\\';y'", "SELECT 2"), sql("SELECT 'a;b', \"c;d\", E'x\\';y'; SELECT 2;"));
        assertEquals(List.of("CREATE FUNCTION f() RETURNS int AS $$ select 1; $$ LANGUAGE sql", "SELECT $q$;$q$"),
                sql("CREATE FUNCTION f() RETURNS int AS $$ select 1; $$ LANGUAGE sql;\nSELECT $q$;$q$;"));
        assertEquals(List.of("SELECT 1 /* a /* ; */ ; */ + 1"), sql("SELECT 1 /* a /* ; */ ; */ + 1;"));
        assertEquals(List.of("SELECT 1 \n+ 2"), sql("-- a comment; with a semicolon\nSELECT 1 -- ; here too\n+ 2;"));
        assertEquals(List.of("CREATE RULE r AS ON INSERT TO t DO (INSERT INTO u VALUES (1); INSERT INTO u VALUES (2))"),
                sql("CREATE RULE r AS ON INSERT TO t DO (INSERT INTO u VALUES (1); INSERT INTO u VALUES (2));"));
        assertEquals(List.of("SELECT 'it''s; fine'"), sql("SELECT 'it''s; fine';"));
        assertEquals(List.of("SELECT $1 + 2"), sql("SELECT $1 + 2;"), "a parameter is no dollar quote");
        assertEquals(List.of("CREATE FUNCTION f(x int) RETURNS int LANGUAGE SQL\nBEGIN ATOMIC\n  SELECT CASE WHEN x > 0 THEN 1 END;\n  SELECT 2;\nEND",
                "SELECT f(1)", "BEGIN", "SELECT 3", "END"),
                sql("CREATE FUNCTION f(x int) RETURNS int LANGUAGE SQL\nBEGIN ATOMIC\n  SELECT CASE WHEN x > 0 THEN 1 END;\n  SELECT 2;\nEND;\n"
                        + "SELECT f(1); BEGIN; SELECT 3; END;"), "psql's BEGIN ... END heuristic, in routines only");
    }

    @Test
    void backslashLinesAreMetaCommandsAndGexecEndsTheStatementBeforeIt() {
        assertEquals(List.of("META \\set VERBOSITY terse", "SELECT 1", "META \\d t"), sql("\\set VERBOSITY terse\nSELECT 1;\n\\d t\n"));
        assertEquals(List.of("SELECT 1; SELECT 2", "SELECT 3"), sql("SELECT 1\\; SELECT 2;\nSELECT 3;"), "\\; is sent with the statement");
        List<PsqlScript.Unit> u = PsqlScript.split("SELECT 'CREATE TABLE x()'\n\\gexec\nSELECT 2;");
        assertEquals("SELECT 'CREATE TABLE x()'", u.get(0).sql());
        assertEquals("\\gexec", u.get(0).meta());
        assertEquals("SELECT 2", u.get(1).sql());
        assertNull(u.get(1).meta());
    }

    @Test
    void copyFromStdinCarriesItsInlineDataUpToBackslashDot() {
        List<PsqlScript.Unit> u = PsqlScript.split("COPY t (a, b) FROM stdin;\n1\t'x;\n2\t\\N\n\\.\nSELECT 3;");
        assertEquals(2, u.size());
        assertEquals("COPY t (a, b) FROM stdin", u.get(0).sql());
        assertEquals("1\t'x;\n2\t\\N\n", u.get(0).copyData());
        assertEquals("SELECT 3", u.get(1).sql());
        assertTrue(PsqlScript.isCopyFromStdin("copy t from STDIN null 'null'"));
        assertEquals("1\tbaz\n", PsqlScript.split("copy t from stdout;\n1\tbaz\n\\.\n").get(0).copyData(), "FROM STDOUT reads inline data too");
    }

    @Test
    void variablesAreSetAndSubstitutedOutsideQuotes() {
        Map<String, String> vars = new HashMap<>();
        PsqlScript.apply("\\getenv abs_srcdir PG_ABS_SRCDIR", vars, Map.of("PG_ABS_SRCDIR", "/r"));
        PsqlScript.apply("\\set filename :abs_srcdir '/data/onek.data'", vars, Map.of());
        assertEquals("/r/data/onek.data", vars.get("filename"));
        assertEquals("COPY onek FROM '/r/data/onek.data'", PsqlScript.substitute("COPY onek FROM :'filename'", vars));
        assertEquals("SELECT 1::int, ':filename', :undefined", PsqlScript.substitute("SELECT 1::int, ':filename', :undefined", vars));
        assertEquals("SELECT /r", PsqlScript.substitute("SELECT :abs_srcdir", vars));
    }
}
