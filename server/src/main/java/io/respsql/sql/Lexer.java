package io.respsql.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a statement into tokens. Identifiers may contain {@code :} (index names such as
 * {@code message_list:fk:index}); numbers keep their written form (leading zeros are decimal,
 * {@code 000000000001} is 1); strings are single- or double-quoted with the quote doubled to escape.
 */
public final class Lexer {
    /** One-character symbols as constants, so lexing a statement makes no String per symbol. */
    private static final String[] SYMBOLS = new String[128];

    static {
        for (char c : "(),.=<>+-*/%;".toCharArray()) {
            SYMBOLS[c] = String.valueOf(c);
        }
    }

    private Lexer() {
    }

    public static List<Token> tokenize(String s) {
        // About one token per 4 characters: sized so that a short statement never regrows the list.
        List<Token> out = new ArrayList<>(8 + s.length() / 3);
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (isIdentStart(c)) {
                int start = i;
                while (i < n && isIdentPart(s.charAt(i))) {
                    i++;
                }
                out.add(new Token(Token.Type.IDENT, s.substring(start, i), start, i));
            } else if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(s.charAt(i + 1)))) {
                int start = i;
                while (i < n && isDigit(s.charAt(i))) {
                    i++;
                }
                if (i < n && s.charAt(i) == '.' && i + 1 < n && isDigit(s.charAt(i + 1))) {
                    i++;
                    while (i < n && isDigit(s.charAt(i))) {
                        i++;
                    }
                } else if (i < n && s.charAt(i) == '.' && (i + 1 == n || !isIdentStart(s.charAt(i + 1)))) {
                    i++; // "5." is 5.0
                }
                if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                    int j = i + 1;
                    if (j < n && (s.charAt(j) == '+' || s.charAt(j) == '-')) {
                        j++;
                    }
                    if (j < n && isDigit(s.charAt(j))) {
                        i = j;
                        while (i < n && isDigit(s.charAt(i))) {
                            i++;
                        }
                    }
                }
                if (i < n && isIdentStart(s.charAt(i))) {
                    // "12abc": an unquoted text value that starts with digits
                    while (i < n && isIdentPart(s.charAt(i))) {
                        i++;
                    }
                    out.add(new Token(Token.Type.IDENT, s.substring(start, i), start, i));
                } else {
                    out.add(new Token(Token.Type.NUMBER, s.substring(start, i), start, i));
                }
            } else if (c == '\'' || c == '"') {
                int start = i;
                StringBuilder sb = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw new SqlException("syntax error: unterminated string starting at position " + (start + 1));
                    }
                    char d = s.charAt(i);
                    if (d == c) {
                        if (i + 1 < n && s.charAt(i + 1) == c) {
                            sb.append(c);
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    sb.append(d);
                    i++;
                }
                out.add(new Token(Token.Type.STRING, sb.toString(), start, i));
            } else {
                int start = i;
                String sym;
                char next = i + 1 < n ? s.charAt(i + 1) : 0;
                if ((c == '!' && next == '=') || (c == '<' && next == '>')) {
                    sym = "!=";
                    i += 2;
                } else if ((c == '<' || c == '>') && next == '=') {
                    sym = c == '<' ? "<=" : ">=";
                    i += 2;
                } else if (c < 128 && SYMBOLS[c] != null) {
                    sym = SYMBOLS[c];
                    i++;
                } else {
                    throw new SqlException("syntax error: unexpected character '" + c + "' at position " + (i + 1));
                }
                out.add(new Token(Token.Type.SYMBOL, sym, start, i));
            }
        }
        out.add(new Token(Token.Type.END, "", n, n));
        return out;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isIdentStart(char c) {
        return Character.isLetter(c) || c == '_' || c == '@' || c == '$' || c == '#';
    }

    private static boolean isIdentPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == ':' || c == '@' || c == '$' || c == '#';
    }
}
