package io.respsql.sql;

import java.util.Locale;

/** One lexical token with its span in the statement text. */
public final class Token {
    public enum Type { IDENT, NUMBER, STRING, SYMBOL, END }

    public final Type type;
    /** Identifier/number as written, string contents unescaped, or the symbol itself. */
    public final String text;
    public final int start;
    public final int end;

    Token(Type type, String text, int start, int end) {
        this.type = type;
        this.text = text;
        this.start = start;
        this.end = end;
    }

    public boolean isKeyword(String kw) {
        return type == Type.IDENT && text.equalsIgnoreCase(kw);
    }

    public boolean isSymbol(String s) {
        return type == Type.SYMBOL && text.equals(s);
    }

    /** How the token is shown in an error message. */
    public String describe() {
        switch (type) {
            case END:
                return "end of statement";
            case STRING:
                return "'" + text + "'";
            default:
                return "'" + text + "'";
        }
    }

    @Override
    public String toString() {
        return type + ":" + text.toUpperCase(Locale.ROOT);
    }
}
