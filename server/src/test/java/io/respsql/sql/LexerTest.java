package io.respsql.sql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LexerTest {

    /** Tokens as TYPE:text, END included, e.g. "IDENT:a SYMBOL:= NUMBER:1 END:". */
    private static String lex(String sql) {
        return Lexer.tokenize(sql).stream().map(t -> t.type + ":" + t.text).collect(Collectors.joining(" "));
    }

    private static Token single(String sql) {
        List<Token> tokens = Lexer.tokenize(sql);
        assertEquals(2, tokens.size(), "expected one token and END for " + sql + ": " + tokens);
        return tokens.get(0);
    }

    private static String error(String sql) {
        return assertThrows(SqlException.class, () -> Lexer.tokenize(sql)).getMessage();
    }

    @Test
    void emptyInputIsJustEnd() {
        assertEquals("END:", lex(""));
        assertEquals("END:", lex("   \t "));
    }

    @Test
    void indexNamesWithColonsAreOneIdentifier() {
        assertEquals("IDENT:CREATE IDENT:INDEX IDENT:message_list:fk:index IDENT:ON IDENT:message_list SYMBOL:( IDENT:fk SYMBOL:) END:",
                lex("CREATE INDEX message_list:fk:index ON message_list (fk)"));
    }

    @Test
    void identifierCharacters() {
        assertEquals("IDENT:_a1$#@b END:", lex("_a1$#@b"));
        assertEquals("IDENT:a SYMBOL:. IDENT:b END:", lex("a.b"));
        assertEquals("IDENT:mañana END:", lex("mañana"));
    }

    @Test
    void concatenationAndDoubleEquals() {
        assertEquals("IDENT:a SYMBOL:|| IDENT:b SYMBOL:= IDENT:c END:", lex("a||b==c"));
        assertEquals(Symbol.CONCAT, Lexer.tokenize("a || b").get(1).symbol());
        assertEquals(List.of(1, 3), List.of(Lexer.tokenize("a==b").get(1).start, Lexer.tokenize("a==b").get(1).end));
        assertEquals("syntax error: unexpected character '|' at position 3", error("a | b"));
    }

    @Test
    void backTickAndBracketNamesAreIdentifiersThatAreNeverKeywords() {
        Token t = single("`select`");
        assertEquals(Token.Type.IDENT, t.type);
        assertEquals("select", t.text);
        assertEquals(null, t.keyword());
        assertEquals("a`b", single("`a``b`").text);
        assertEquals("my col", single("[my col]").text);
        assertEquals(List.of(0, 8), List.of(single("[my col]").start, single("[my col]").end));
        assertEquals("syntax error: unterminated quoted name starting at position 1", error("[abc"));
        assertEquals("syntax error: unterminated quoted name starting at position 3", error("a `b"));
    }

    @Test
    void tokenSpansAreOffsetsIntoTheText() {
        List<Token> t = Lexer.tokenize("id  = 'x'");
        assertEquals(List.of(0, 2), List.of(t.get(0).start, t.get(0).end));
        assertEquals(List.of(4, 5), List.of(t.get(1).start, t.get(1).end));
        assertEquals(List.of(6, 9), List.of(t.get(2).start, t.get(2).end), "a string's span includes its quotes");
        assertEquals(List.of(9, 9), List.of(t.get(3).start, t.get(3).end));
    }

    @ParameterizedTest
    @CsvSource({
        "000000000001, 000000000001",
        "0, 0",
        "42, 42",
        "007.50, 007.50",
        "1.5, 1.5",
        ".5, .5",
        "5., 5.",
        "1e10, 1e10",
        "1E-7, 1E-7",
        "2.5e+3, 2.5e+3",
        "1.0E-7, 1.0E-7",
    })
    void numbersKeepTheirWrittenForm(String sql, String text) {
        Token t = single(sql);
        assertEquals(Token.Type.NUMBER, t.type, sql);
        assertEquals(text, t.text);
    }

    @Test
    void numbersNextToSymbolsSplitCleanly() {
        assertEquals("SYMBOL:( NUMBER:000000000001 SYMBOL:, NUMBER:000000000001 SYMBOL:, NUMBER:4 SYMBOL:) END:",
                lex("(000000000001,000000000001,4)"));
        assertEquals("IDENT:fk SYMBOL:= NUMBER:000000000001 END:", lex("fk=000000000001"));
        assertEquals("IDENT:count SYMBOL:= IDENT:count SYMBOL:+ NUMBER:1 END:", lex("count=count+1"));
        assertEquals("SYMBOL:- NUMBER:5 END:", lex("-5"), "the sign is a separate token");
        assertEquals("NUMBER:1.5 NUMBER:.2 END:", lex("1.5.2"));
    }

    @Test
    void digitsFollowedByLettersAreAnUnquotedWord() {
        assertEquals("IDENT:12abc END:", lex("12abc"));
        assertEquals("IDENT:1e END:", lex("1e"), "an exponent needs digits");
        assertEquals("IDENT:1e5x END:", lex("1e5x"));
    }

    @Test
    void singleAndDoubleQuotedStrings() {
        assertEquals("STRING:bob smith END:", lex("'bob smith'"));
        assertEquals("STRING:bob smith END:", lex("\"bob smith\""));
        assertEquals("STRING: END:", lex("''"));
        assertEquals("STRING:a,b (c) END:", lex("'a,b (c)'"), "punctuation inside quotes is text");
    }

    @Test
    void doubledQuotesEscapeTheQuote() {
        assertEquals("it's", single("'it''s'").text);
        assertEquals("say \"hi\"", single("\"say \"\"hi\"\"\"").text);
        assertEquals("'", single("''''").text);
        assertEquals("a\"b", single("'a\"b'").text, "the other quote needs no escape");
        assertEquals("a'b", single("\"a'b\"").text);
    }

    @Test
    void adjacentStringsAreSeparateTokens() {
        assertEquals("STRING:a STRING:b END:", lex("'a' 'b'"));
    }

    @Test
    void comparisonOperators() {
        assertEquals("SYMBOL:= SYMBOL:!= SYMBOL:< SYMBOL:<= SYMBOL:> SYMBOL:>= END:", lex("= != < <= > >="));
    }

    @Test
    void angleBracketsNotEqualIsBang() {
        assertEquals("IDENT:a SYMBOL:!= NUMBER:1 END:", lex("a<>1"));
        assertEquals("SYMBOL:< SYMBOL:> END:", lex("< >"), "only adjacent <> is one operator");
    }

    @Test
    void punctuationAndArithmetic() {
        assertEquals("SYMBOL:( SYMBOL:) SYMBOL:, SYMBOL:. SYMBOL:+ SYMBOL:- SYMBOL:* SYMBOL:/ SYMBOL:% SYMBOL:; END:",
                lex("(),.+-*/%;"));
    }

    @Test
    void keywordsAreIdentifiersMatchedCaseInsensitively() {
        Token t = single("sElEcT");
        assertEquals(Token.Type.IDENT, t.type);
        assertEquals("sElEcT", t.text, "the text keeps its spelling");
        assertEquals(true, t.isKeyword("SELECT"));
        assertEquals(false, t.isKeyword("SELECTS"));
    }

    @Test
    void unterminatedStringNamesWhereItStarted() {
        assertEquals("syntax error: unterminated string starting at position 28", error("SELECT * FROM t WHERE id = 'unterminated"));
        assertEquals("syntax error: unterminated string starting at position 1", error("\"abc"));
        assertEquals("syntax error: unterminated string starting at position 1", error("'it''s"),
                "a doubled quote does not close the string");
    }

    @Test
    void unexpectedCharacterIsNamedWithItsPosition() {
        assertEquals("syntax error: unexpected character '!' at position 26", error("SELECT * FROM t WHERE id ! 1"));
        assertEquals("syntax error: unexpected character '?' at position 6", error("a = b?"));
        assertEquals("syntax error: unexpected character '&' at position 1", error("&"));
        assertEquals("syntax error: unexpected character ':' at position 4", error("fk=:5"),
                "':' continues an identifier but cannot start one");
    }
}
