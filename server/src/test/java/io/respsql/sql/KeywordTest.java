package io.respsql.sql;

import io.respsql.sql.tree.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeywordTest {

    private static Token single(String sql) {
        List<Token> tokens = Lexer.tokenize(sql);
        assertEquals(2, tokens.size(), "expected one token and END for " + sql + ": " + tokens);
        return tokens.get(0);
    }

    private static String error(String sql) {
        return assertThrows(SqlException.class, () -> SqlParser.parse(sql), sql).getMessage();
    }

    @Test
    void everyKeywordIsFoundInAnyCase() {
        for (Keyword k : Keyword.values()) {
            String name = k.name();
            StringBuilder mixed = new StringBuilder();
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                mixed.append(i % 2 == 0 ? c : Character.toLowerCase(c));
            }
            assertSame(k, Keyword.lookup(name), name);
            assertSame(k, Keyword.lookup(name.toLowerCase(Locale.ROOT)), name);
            assertSame(k, Keyword.lookup(mixed.toString()), mixed.toString());
        }
    }

    @Test
    void lookupReadsOnlyTheGivenSpan() {
        String s = "xSELECTx orderby";
        assertSame(Keyword.SELECT, Keyword.lookup(s, 1, 7));
        assertSame(Keyword.ORDER, Keyword.lookup(s, 9, 14));
        assertSame(Keyword.BY, Keyword.lookup(s, 14, 16));
        assertNull(Keyword.lookup(s, 9, 16), "orderby is one word, not ORDER BY");
        assertNull(Keyword.lookup(s, 0, 7));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "S", "SELEC", "SELECTS", "INTOO", "INTEGERS", "ORD", "ORDERS", "INDEXE", "BETWEE",
        "COUNTS", "A", "ASC_", "DESC1", "in1", "_in", "t:select", "select$", "TIMESTAMPTZ", "RECURSIVELY"})
    void prefixesExtensionsAndDecoratedWordsAreNotKeywords(String word) {
        assertNull(Keyword.lookup(word), word);
    }

    @Test
    void wordsThatArePrefixesOfOneAnotherAreEachTheirOwnKeyword() {
        assertSame(Keyword.IN, Keyword.lookup("in"));
        assertSame(Keyword.INT, Keyword.lookup("int"));
        assertSame(Keyword.INTO, Keyword.lookup("into"));
        assertSame(Keyword.INTEGER, Keyword.lookup("integer"));
        assertSame(Keyword.INDEX, Keyword.lookup("index"));
        assertSame(Keyword.INDEXES, Keyword.lookup("indexes"));
        assertSame(Keyword.DESC, Keyword.lookup("desc"));
        assertSame(Keyword.DESCRIBE, Keyword.lookup("describe"));
        assertSame(Keyword.TABLE, Keyword.lookup("table"));
        assertSame(Keyword.TABLES, Keyword.lookup("tables"));
        assertSame(Keyword.SELECT, Keyword.lookup("select"));
        assertSame(Keyword.SCANSELECT, Keyword.lookup("scanselect"));
        assertSame(Keyword.OR, Keyword.lookup("or"));
        assertSame(Keyword.ORDER, Keyword.lookup("order"));
    }

    /**
     * Matching is ASCII-only, as in PostgreSQL and SQLite: letters whose Unicode case mapping
     * lands on an ASCII letter (dotless i, long s, Kelvin sign, dotted capital I) do not spell
     * keywords, and other non-ASCII words are plain identifiers.
     */
    @ParameterizedTest
    @ValueSource(strings = {"\u0131nsert", "\u017Felect", "\u212Aey", "\u0130NTO", "mañana", "sélect", "ＳＥＬＥＣＴ", "índex"})
    void nonAsciiWordsAreIdentifiers(String word) {
        assertNull(Keyword.lookup(word), word);
        Token t = single(word);
        assertEquals(Token.Type.IDENT, t.type);
        assertNull(t.keyword());
        assertEquals(word, t.text);
    }

    @Test
    void aNonAsciiLookAlikeDoesNotStartAStatement() {
        assertEquals("syntax error: expected a statement (CREATE, DROP, DESC, DUMP, INSERT, SELECT, UPDATE, DELETE, EXPLAIN, SHOW),"
                + " found '\u0131nsert' at position 1", error("\u0131nsert into t values (1)"));
    }

    @Test
    void theLexerCodesWordsAndSymbolsOnce() {
        List<Token> t = Lexer.tokenize("Select a, count FROM t WHERE x <> 'AND' And y<=2");
        assertSame(Keyword.SELECT, t.get(0).keyword());
        assertNull(t.get(1).keyword());
        assertSame(Symbol.COMMA, t.get(2).symbol());
        assertSame(Keyword.COUNT, t.get(3).keyword(), "coded even where it will be read as a column name");
        assertSame(Keyword.FROM, t.get(4).keyword());
        assertSame(Keyword.WHERE, t.get(6).keyword());
        assertSame(Symbol.NE, t.get(8).symbol());
        assertEquals("!=", t.get(8).text, "<> reads as != (as before)");
        assertEquals(Token.Type.STRING, t.get(9).type);
        assertNull(t.get(9).keyword(), "a quoted word is never a keyword");
        assertSame(Keyword.AND, t.get(10).keyword());
        assertEquals("And", t.get(10).text);
        assertSame(Symbol.LE, t.get(12).symbol());
        assertNull(t.get(14).keyword());
        assertNull(t.get(14).symbol());
        assertEquals(Token.Type.END, t.get(14).type);
    }

    @Test
    void keywordTextKeepsItsSpellingAndUpperOrLowerSharesTheKeywordsString() {
        Token upper = single("SELECT");
        Token lower = single("select");
        Token mixed = single("sElEcT");
        assertEquals("SELECT", upper.text);
        assertEquals("select", lower.text);
        assertEquals("sElEcT", mixed.text);
        assertSame(upper.text, single("SELECT").text, "no substring per keyword written in upper case");
        assertSame(lower.text, single("select").text, "no substring per keyword written in lower case");
        assertSame(Keyword.SELECT, mixed.keyword());
    }

    /** The same word as a keyword where the grammar asks for one and a name or value elsewhere. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT count, date, first FROM select WHERE order = first ORDER BY order DESC"
            + "  | [select count, date, first from select where (= order first) order order:desc]",
        "select where from where where where = where | [select where from where where (= where where)]",
        "SELECT COUNT(*) FROM count WHERE count > 1   | [select COUNT(*) from count where (> count 1)]",
        "SELECT * FROM t WHERE in IN (in, between) AND between BETWEEN and AND or | [select * from t where (and (in in [in between]) (between between and or))]",
        "SELECT * FROM t WHERE name = null OR name = first | [select * from t where (or (= name NULL) (= name first))]",
        "SELECT date.first FROM date JOIN set ON date.first = set.first | [select date.first from (inner date set on (= date.first set.first))]",
        "SELECT key, timestamp FROM join WHERE date IS NOT NULL GROUP BY key | [select key, timestamp from join where (notnull date) group key]",
    })
    void aKeywordIsANameWhereTheGrammarWantsAName(String sql, String expected) {
        Statement.QueryStatement s = assertInstanceOf(Statement.QueryStatement.class, SqlParser.parse(sql), sql);
        assertEquals(expected, TreeText.of(s.query()), sql);
    }

    @Test
    void keywordsAsTableColumnAndTypeNamesInDdlAndWrites() {
        Statement.CreateTable c = (Statement.CreateTable) SqlParser.parse(
                "CREATE TABLE date (first int primary key, timestamp TEXT, date int, key float)");
        assertEquals("date", c.table());
        assertEquals("first:INT:true timestamp:TEXT:false date:INT:false key:FLOAT:false",
                String.join(" ", c.columns().stream().map(d -> d.name() + ":" + TreeText.type(d.type()) + ":" + d.primaryKey()).toList()));

        Statement.Insert ins = (Statement.Insert) SqlParser.parse("INSERT INTO date (first, date) VALUES (1, last), (2, null)");
        assertEquals(List.of("first", "date"), ins.columns());
        assertEquals("1 last 2 NULL", String.join(" ", ins.rows().stream()
                .flatMap(r -> r.stream().map(TreeText::of)).toList()));

        Statement.Update u = (Statement.Update) SqlParser.parse("UPDATE set SET set=first, where=join WHERE where = 2");
        assertEquals("set", u.table());
        assertEquals("set=first where=join", String.join(" ", u.assignments().stream()
                .map(a -> a.column() + "=" + TreeText.of(a.value())).toList()));
        assertEquals("(= where 2)", TreeText.of(u.where()));
    }

    @Test
    void errorsQuoteTheKeywordAsWritten() {
        assertEquals("syntax error: expected AND, found 'or' at position 36", error("select * from t where id between 1 or 2"));
        assertEquals("syntax error: expected AND, found 'oR' at position 36", error("select * from t where id between 1 oR 2"));
        assertEquals("syntax error: expected BY, found 'iD' at position 23", error("SELECT * FROM t ORDER iD"));
        assertEquals("syntax error: expected end of statement, found 'Values' at position 17", error("SELECT * FROM t Values (1)"));
        assertEquals("syntax error: expected JOIN, found 'oN' at position 22", error("SELECT * FROM t LEFT oN u"));
    }

    @Test
    void lookupAllocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        String text = "SELECT id, name FROM employee WHERE division BETWEEN 22 AND 77 ORDER BY name DESC LIMIT 4";
        int[] bounds = new int[64];
        int words = 0;
        for (int i = 0; i < text.length(); ) {
            if (Character.isLetterOrDigit(text.charAt(i))) {
                int start = i;
                while (i < text.length() && Character.isLetterOrDigit(text.charAt(i))) {
                    i++;
                }
                bounds[2 * words] = start;
                bounds[2 * words + 1] = i;
                words++;
            } else {
                i++;
            }
        }
        int found = 0;
        for (int round = 0; round < 2; round++) { // the first round loads and links what lookup uses
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                for (int w = 0; w < words; w++) {
                    if (Keyword.lookup(text, bounds[2 * w], bounds[2 * w + 1]) != null) {
                        found++;
                    }
                }
            }
            long allocated = mx.getCurrentThreadAllocatedBytes() - before;
            if (round == 1) {
                // 1.7M lookups: one small object each would be over 25 MB
                assertTrue(allocated < 100_000, "lookup allocated " + allocated + " bytes over 1.7M calls");
            }
        }
        assertEquals(2 * 100_000 * 9, found, "SELECT FROM WHERE BETWEEN AND ORDER BY DESC LIMIT");
    }
}
