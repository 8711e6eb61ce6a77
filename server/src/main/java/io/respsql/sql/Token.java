package io.respsql.sql;

import java.util.Locale;

/**
 * One lexical token with its span in the statement text. A word carries its {@link Keyword}
 * code (null when it is no keyword) and a symbol its {@link Symbol} code, both decided once by
 * the lexer, so the parser compares codes. A keyword is still an {@link Type#IDENT}: wherever the
 * grammar wants a name or a value it takes the word's text (see {@link Keyword}).
 */
public final class Token {
    public enum Type { IDENT, NUMBER, STRING, SYMBOL, END }

    public final Type type;
    /** Identifier/number as written, string contents unescaped, or the symbol itself. */
    public final String text;
    public final int start;
    public final int end;
    /** The keyword this word spells, or null (always null unless {@code type == IDENT}). */
    public final Keyword keyword;
    /** The symbol, or null (always null unless {@code type == SYMBOL}). */
    public final Symbol symbol;

    Token(Type type, String text, int start, int end) {
        this(type, text, start, end, null, null);
    }

    Token(Type type, String text, int start, int end, Keyword keyword, Symbol symbol) {
        this.type = type;
        this.text = text;
        this.start = start;
        this.end = end;
        this.keyword = keyword;
        this.symbol = symbol;
    }

    public boolean is(Keyword k) {
        return keyword == k;
    }

    public boolean is(Symbol s) {
        return symbol == s;
    }

    /** By text, for tests and diagnostics; the parser uses {@link #is(Keyword)}. */
    public boolean isKeyword(String kw) {
        return type == Type.IDENT && text.equalsIgnoreCase(kw);
    }

    /** By text, for tests and diagnostics; the parser uses {@link #is(Symbol)}. */
    public boolean isSymbol(String s) {
        return type == Type.SYMBOL && text.equals(s);
    }

    /** How the token is shown in an error message. */
    public String describe() {
        return type == Type.END ? "end of statement" : "'" + text + "'";
    }

    @Override
    public String toString() {
        return type + ":" + text.toUpperCase(Locale.ROOT);
    }
}
