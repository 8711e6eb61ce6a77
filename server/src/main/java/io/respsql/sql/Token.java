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
    /**
     * A {@link Keyword} for a word that spells one, the {@link Symbol} of a symbol, else null.
     * One field for both keeps a token at 32 bytes, as before codes (the lexer makes one per word).
     */
    private final Code code;

    /** What a token's code can be. */
    public sealed interface Code permits Keyword, Symbol {
    }

    Token(Type type, String text, int start, int end) {
        this(type, text, start, end, null);
    }

    Token(Type type, String text, int start, int end, Code code) {
        this.type = type;
        this.text = text;
        this.start = start;
        this.end = end;
        this.code = code;
    }

    public boolean is(Keyword k) {
        return code == k;
    }

    public boolean is(Symbol s) {
        return code == s;
    }

    /** The keyword this word spells, or null (always null unless {@code type == IDENT}). */
    public Keyword keyword() {
        return code instanceof Keyword k ? k : null;
    }

    /** The symbol, or null (always null unless {@code type == SYMBOL}). */
    public Symbol symbol() {
        return code instanceof Symbol s ? s : null;
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
