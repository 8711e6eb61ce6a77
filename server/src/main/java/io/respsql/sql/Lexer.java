package io.respsql.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a statement into tokens. Identifiers may contain {@code :} (index names such as
 * {@code message_list:fk:index}); numbers keep their written form (leading zeros are decimal,
 * {@code 000000000001} is 1); strings are single- or double-quoted with the quote doubled to escape
 * (the parser tells a double-quoted name from a string by its context); {@code `x`} and {@code [x]}
 * are names. Comments ({@code --} to the end of the line, nested {@code /* *}{@code /}) are skipped
 * as whitespace, as SQL and PostgreSQL define them ({@link #commentEnd}). {@code ::} is
 * PostgreSQL's cast; in its dialect ({@link Dialect}) a name holds no {@code :}.
 */
public final class Lexer {
    private Lexer() {
    }

    public static List<Token> tokenize(String s) {
        // in PostgreSQL's dialect a name has no ':' (x::int is x, ::, int)
        boolean colonInNames = !Dialect.postgres();
        // about one token per 3 characters in the 2010 statements: one array, seldom regrown
        List<Token> out = new ArrayList<>(s.length() / 3 + 4);
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-' || c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = commentEnd(s, i);
                if (end < 0) {
                    throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: unterminated /* comment starting at position " + (i + 1));
                }
                i = end;
            } else if ((c == 'E' || c == 'e') && i + 1 < n && s.charAt(i + 1) == '\'' && Dialect.postgres()
                    && quoteEnd(s, i + 1) > 0) {
                // PostgreSQL's escape string E'...': backslash escapes (\n, \t, \\, ...); an escaped quote
                // (\') is not read (the statement splitters see '' only)
                int end = quoteEnd(s, i + 1);
                String raw = s.substring(i + 2, end - 1).replace("''", "'");
                out.add(new Token(Token.Type.STRING, escapes(raw), i, end));
                i = end;
            } else if ((c == 'U' || c == 'u') && i + 2 < n && s.charAt(i + 1) == '&'
                    && (s.charAt(i + 2) == '\'' || s.charAt(i + 2) == '"') && Dialect.postgres()) {
                i = unicodeQuoted(s, i + 2, out); // regress25: U&'...' and U&"..." [UESCAPE 'c']
            } else if (!colonInNames && arraySymbol(s, i) != null) { // arrays: [ ] : @> <@ && in PostgreSQL's dialect
                Symbol sym = arraySymbol(s, i);
                int start = i;
                i += sym.text.length();
                out.add(new Token(Token.Type.SYMBOL, sym.text, start, i, sym));
            } else if (isIdentStart(c)) {
                int start = i;
                while (i < n && isIdentPart(s.charAt(i)) && (colonInNames || s.charAt(i) != ':')) {
                    i++;
                }
                out.add(word(s, start, i));
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
            } else if (c == '`' || c == '[' || c == '\'' || c == '"') {
                // ` and [ ]: a quoted name (MySQL `x`, SQL Server [x]), an identifier that is never a keyword
                boolean name = c == '`' || c == '[';
                int start = i;
                int end = quoteEnd(s, i);
                if (end < 0) {
                    throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: unterminated "
                            + (name ? "quoted name" : "string") + " starting at position " + (start + 1));
                }
                String text = s.substring(i + 1, end - 1);
                if (c != '[' && text.indexOf(c) >= 0) {
                    // only doubled inside: one of each pair
                    text = text.replace(c == '`' ? "``" : c == '"' ? "\"\"" : "''", String.valueOf(c));
                }
                Token prior = out.isEmpty() ? null : out.get(out.size() - 1);
                if (c == '\'' && prior != null && prior.type == Token.Type.STRING && s.charAt(prior.end - 1) == '\''
                        && Dialect.postgres() && newlineBetween(s, prior.end, start)) {
                    // regress25: 'a'<newline>'b' is one constant 'ab' (SQL's continuation of a string)
                    // an E'...' string's continuation is E'...' too: its backslash escapes are resolved (PostgreSQL's scanner)
                    boolean escaped = (s.charAt(prior.start) == 'E' || s.charAt(prior.start) == 'e') && s.charAt(prior.start + 1) == '\'';
                    out.set(out.size() - 1, new Token(Token.Type.STRING, prior.text + (escaped ? escapes(text) : text), prior.start, end));
                } else {
                    out.add(new Token(name ? Token.Type.IDENT : Token.Type.STRING, text, start, end));
                }
                i = end;
            } else {
                int start = i;
                char next = i + 1 < n ? s.charAt(i + 1) : 0;
                Symbol sym;
                int len = 2;
                if (c == '!' && next == '=' || c == '<' && next == '>') {
                    sym = Symbol.NE;
                } else if (c == '<' && next == '=') {
                    sym = Symbol.LE;
                } else if (c == '>' && next == '=') {
                    sym = Symbol.GE;
                } else if (c == '=' && next == '=') {
                    sym = Symbol.EQ; // SQLite's ==
                } else if (c == '|' && next == '|') {
                    sym = Symbol.CONCAT;
                } else if (c == ':' && next == ':' && !colonInNames) {
                    sym = Symbol.CAST;
                } else if (c == '!' && next == '~') {
                    boolean star = i + 2 < n && s.charAt(i + 2) == '*';
                    sym = star ? Symbol.NOT_TILDE_STAR : Symbol.NOT_TILDE;
                    len = star ? 3 : 2;
                } else if (c == '~') {
                    sym = next == '*' ? Symbol.TILDE_STAR : Symbol.TILDE;
                    len = next == '*' ? 2 : 1;
                } else {
                    len = 1;
                    sym = Symbol.of(c);
                    if (sym == null) {
                        throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: unexpected character '" + c + "' at position " + (i + 1));
                    }
                }
                i += len;
                out.add(new Token(Token.Type.SYMBOL, sym.text, start, i, sym));
            }
        }
        out.add(new Token(Token.Type.END, "", n, n));
        return out;
    }

    /** PostgreSQL's array symbols at {@code i} ({@code [ ] : @> <@ &&}; {@code ::} is no colon), or null. */
    private static Symbol arraySymbol(String s, int i) {
        char c = s.charAt(i);
        char next = i + 1 < s.length() ? s.charAt(i + 1) : 0;
        switch (c) {
            case '[':
                return Symbol.LBRACKET;
            case ']':
                return Symbol.RBRACKET;
            case ':':
                return next == ':' ? null : Symbol.COLON;
            case '@':
                return next == '>' ? Symbol.CONTAINS : null;
            case '<':
                return next == '@' ? Symbol.CONTAINED_BY : null;
            case '&':
                return next == '&' ? Symbol.OVERLAPS : null;
            default:
                return null;
        }
    }

    /** The text of an escape string with its backslash escapes resolved. */
    private static String escapes(String raw) {
        if (raw.indexOf('\\') < 0) {
            return raw;
        }
        StringBuilder sb = new StringBuilder(raw.length());
        java.util.BitSet bytes = null; // review3: positions of sb holding an escaped byte above 0x7F
        for (int k = 0; k < raw.length(); k++) {
            char ch = raw.charAt(k);
            if (ch != '\\' || k + 1 == raw.length()) {
                sb.append(ch);
                continue;
            }
            char e = raw.charAt(++k);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case '0', '1', '2', '3', '4', '5', '6', '7' -> { // regress25: \o, \oo, \ooo
                    int v = e - '0';
                    for (int d = 0; d < 2 && k + 1 < raw.length() && raw.charAt(k + 1) >= '0' && raw.charAt(k + 1) <= '7'; d++) {
                        v = v * 8 + raw.charAt(++k) - '0';
                    }
                    if ((v & 0xFF) >= 0x80) {
                        bytes = highByte(sb, bytes, v & 0xFF);
                    } else {
                        sb.append(byteEscape(v & 0xFF));
                    }
                }
                case 'x' -> { // \xh, \xhh
                    int v = -1;
                    for (int d = 0; d < 2 && k + 1 < raw.length() && Character.digit(raw.charAt(k + 1), 16) >= 0; d++) {
                        v = (v < 0 ? 0 : v * 16) + Character.digit(raw.charAt(++k), 16);
                    }
                    if (v < 0) {
                        sb.append('x');
                    } else if (v >= 0x80) {
                        bytes = highByte(sb, bytes, v);
                    } else {
                        sb.append(byteEscape(v));
                    }
                }
                case 'u', 'U' -> { // backslash-u XXXX, backslash-U XXXXXXXX; PostgreSQL reports a bad one as 22025
                  try {
                    int digits = e == 'u' ? 4 : 8;
                    int cp = hex(raw, k + 1, digits);
                    k += digits;
                    if (Character.isHighSurrogate((char) cp) && k + 2 < raw.length() && raw.charAt(k + 1) == '\\'
                            && (raw.charAt(k + 2) == 'u' || raw.charAt(k + 2) == 'U')) {
                        int d2 = raw.charAt(k + 2) == 'u' ? 4 : 8;
                        int low = hex(raw, k + 3, d2);
                        if (!Character.isLowSurrogate((char) low) || low > 0xFFFF) {
                            throw badUnicode("invalid Unicode surrogate pair");
                        }
                        cp = Character.toCodePoint((char) cp, (char) low);
                        k += 2 + d2;
                    }
                    appendCodePoint(sb, cp);
                  } catch (SqlException bad) {
                    // only a malformed escape is 22025; a zero, too large or unpaired surrogate value stays 42601 (PostgreSQL's scanner)
                    throw "invalid Unicode escape".equals(bad.getMessage()) ? new SqlException("22025", bad.getMessage()) : bad;
                  }
                }
                default -> sb.append(e);
            }
        }
        return bytes == null ? sb.toString() : utf8Runs(sb, bytes);
    }

    /** Notes an escaped byte above 0x7F at the end of {@code sb} (decoded with its neighbours by {@link #utf8Runs}). */
    private static java.util.BitSet highByte(StringBuilder sb, java.util.BitSet bytes, int v) {
        java.util.BitSet b = bytes == null ? new java.util.BitSet() : bytes;
        b.set(sb.length());
        sb.append((char) v);
        return b;
    }

    /**
     * The text with each run of escaped bytes decoded as UTF-8, as PostgreSQL takes E'\\xc3\\xa9' for U+00E9;
     * a run that is not valid UTF-8 is PostgreSQL's 22021.
     */
    private static String utf8Runs(StringBuilder sb, java.util.BitSet bytes) {
        StringBuilder out = new StringBuilder(sb.length());
        int k = 0;
        while (k < sb.length()) {
            if (!bytes.get(k)) {
                out.append(sb.charAt(k++));
                continue;
            }
            int end = bytes.nextClearBit(k);
            byte[] b = new byte[end - k];
            for (int j = k; j < end; j++) {
                b[j - k] = (byte) sb.charAt(j);
            }
            try {
                out.append(java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(b)));
            } catch (java.nio.charset.CharacterCodingException bad) {
                throw new SqlException("22021", "invalid byte sequence for encoding \"UTF8\": 0x" + String.format("%02x", b[0] & 0xFF));
            }
            k = end;
        }
        return out.toString();
    }

    // ---- regress25: PostgreSQL's Unicode escapes ----

    private static char byteEscape(int v) {
        if (v == 0 || v >= 0x80) { // PostgreSQL: a zero byte is refused, a byte above 0x7F must form UTF-8 with its neighbours
            throw new SqlException(v == 0 ? "22021" : SqlState.FEATURE_NOT_SUPPORTED, v == 0
                    ? "invalid byte sequence for encoding \"UTF8\": 0x00"
                    : "an escaped byte above 0x7F in E'...' is not supported: write the character, or \\u" + "XXXX");
        }
        return (char) v;
    }

    private static SqlException badUnicode(String what) {
        return new SqlException(SqlState.SYNTAX_ERROR, what); // PostgreSQL reports these as 42601
    }

    /** {@code digits} hex digits of {@code raw} from {@code at}, or 22025. */
    private static int hex(String raw, int at, int digits) {
        if (at + digits > raw.length()) {
            throw badUnicode("invalid Unicode escape");
        }
        long v = 0;
        for (int k = at; k < at + digits; k++) {
            int d = Character.digit(raw.charAt(k), 16);
            if (d < 0) {
                throw badUnicode("invalid Unicode escape");
            }
            v = v * 16 + d;
        }
        if (v > 0x10FFFF) {
            throw badUnicode("invalid Unicode escape value");
        }
        return (int) v;
    }

    private static void appendCodePoint(StringBuilder sb, int cp) {
        if (cp == 0) {
            throw badUnicode("invalid Unicode escape value");
        }
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            throw badUnicode("invalid Unicode surrogate pair");
        }
        sb.appendCodePoint(cp);
    }

    /**
     * {@code U&'...'} / {@code U&"..."} from the quote at {@code q}, with an optional {@code UESCAPE 'c'}:
     * {@code \XXXX} and {@code \+XXXXXX} (the escape character, backslash unless UESCAPE names another),
     * the escape character doubled for itself; the token added, the position after it returned.
     */
    private static int unicodeQuoted(String s, int q, List<Token> out) {
        char qc = s.charAt(q);
        int end = quoteEnd(s, q);
        if (end < 0) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: unterminated string starting at position " + (q - 1));
        }
        String raw = s.substring(q + 1, end - 1);
        raw = raw.replace(qc == '\'' ? "''" : "\"\"", String.valueOf(qc));
        char esc = '\\';
        int after = end;
        int j = skipBlank(s, end);
        if (j + 7 <= s.length() && s.regionMatches(true, j, "UESCAPE", 0, 7)
                && (j + 7 == s.length() || !isIdentPart(s.charAt(j + 7)))) {
            int k = skipBlank(s, j + 7);
            int e = k < s.length() && s.charAt(k) == '\'' ? quoteEnd(s, k) : -1;
            if (e != k + 3) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "UESCAPE must be followed by a simple string literal");
            }
            esc = s.charAt(k + 1);
            if (Character.digit(esc, 16) >= 0 || esc == '+' || esc == '\'' || esc == '"' || Character.isWhitespace(esc)) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "invalid Unicode escape character");
            }
            after = e;
        }
        StringBuilder sb = new StringBuilder(raw.length());
        for (int k = 0; k < raw.length(); k++) {
            char ch = raw.charAt(k);
            if (ch != esc) {
                sb.append(ch);
                continue;
            }
            if (k + 1 < raw.length() && raw.charAt(k + 1) == esc) {
                sb.append(esc);
                k++;
                continue;
            }
            boolean plus = k + 1 < raw.length() && raw.charAt(k + 1) == '+';
            int digits = plus ? 6 : 4;
            int at = k + (plus ? 2 : 1);
            int cp = hex(raw, at, digits);
            k = at + digits - 1;
            if (Character.isHighSurrogate((char) cp) && cp <= 0xFFFF && k + 1 < raw.length() && raw.charAt(k + 1) == esc) {
                boolean p2 = k + 2 < raw.length() && raw.charAt(k + 2) == '+';
                int at2 = k + (p2 ? 3 : 2);
                int low = hex(raw, at2, p2 ? 6 : 4);
                if (low > 0xFFFF || !Character.isLowSurrogate((char) low)) {
                    throw badUnicode("invalid Unicode surrogate pair");
                }
                cp = Character.toCodePoint((char) cp, (char) low);
                k = at2 + (p2 ? 6 : 4) - 1;
            }
            appendCodePoint(sb, cp);
        }
        // the token starts at the U (the parser reads U&"..." as a double-quoted name; the plan cache, which sees
        // a literal from the quote, finds none there and plans the statement on its own)
        out.add(new Token(Token.Type.STRING, sb.toString(), q - 2, after));
        return after;
    }

    private static boolean newlineBetween(String s, int from, int to) {
        boolean newline = false;
        for (int k = from; k < to; k++) {
            char ch = s.charAt(k);
            if (!Character.isWhitespace(ch)) {
                return false;
            }
            newline |= ch == '\n' || ch == '\r';
        }
        return newline;
    }

    /**
     * Where the comment that starts at {@code i} ends (SQL's {@code --} to the end of the line,
     * {@code /* ... *}{@code /} nested as PostgreSQL nests them); {@code i} itself when no comment
     * starts there; -1 for a block comment left open. Every reader of statement text that looks at
     * it before the parser (first-word checks, the plan cache's literal scan, PREPARE's {@code ?}
     * marks) goes through this, so a comment means the same everywhere.
     */
    public static int commentEnd(CharSequence s, int i) {
        int n = s.length();
        if (i + 1 >= n) {
            return i;
        }
        char c = s.charAt(i);
        char next = s.charAt(i + 1);
        if (c == '-' && next == '-') {
            i += 2;
            while (i < n && s.charAt(i) != '\n' && s.charAt(i) != '\r') {
                i++;
            }
            return i;
        }
        if (c != '/' || next != '*') {
            return i;
        }
        int depth = 1;
        i += 2;
        while (i + 1 < n) {
            char d = s.charAt(i);
            char e = s.charAt(i + 1);
            if (d == '*' && e == '/') {
                i += 2;
                if (--depth == 0) {
                    return i;
                }
            } else if (d == '/' && e == '*') {
                depth++;
                i += 2;
            } else {
                i++;
            }
        }
        return -1;
    }

    /**
     * Where the quoted text that starts at {@code i} ends (past its closing quote): a string
     * {@code '...'} or {@code "..."} or a name {@code `...`}, each with its quote doubled inside, or
     * a name {@code [...]} (no escape: the first {@code ]} closes it); {@code i} itself when no quote
     * starts there; -1 when left open. With {@link #commentEnd} this is everything the lexer reads
     * as one piece, so readers of statement text before the parser (pgwire's statement split and
     * {@code $n} parameters) never look inside what the lexer would not.
     */
    public static int quoteEnd(CharSequence s, int i) {
        int n = s.length();
        if (i >= n) {
            return i;
        }
        char open = s.charAt(i);
        char close;
        switch (open) {
            case '\'', '"', '`' -> close = open;
            case '[' -> close = ']';
            default -> {
                return i;
            }
        }
        for (int j = i + 1; j < n; j++) {
            if (s.charAt(j) == close) {
                if (open != '[' && j + 1 < n && s.charAt(j + 1) == close) {
                    j++;
                    continue;
                }
                return j + 1;
            }
        }
        return -1;
    }

    /**
     * The first position at or after {@code i} that is neither whitespace nor inside a comment (a
     * block comment left open: the text's length, where the parser will report it).
     */
    public static int skipBlank(CharSequence s, int i) {
        int n = s.length();
        while (i < n) {
            if (Character.isWhitespace(s.charAt(i))) {
                i++;
                continue;
            }
            int end = commentEnd(s, i);
            if (end == i) {
                return i;
            }
            i = end < 0 ? n : end;
        }
        return n;
    }

    /**
     * A word token with its keyword code. A keyword written all upper or all lower case shares
     * the keyword's own spelling instead of a new substring; the text stays as written.
     */
    private static Token word(String s, int start, int end) {
        Keyword kw = Keyword.lookup(s, start, end);
        String text;
        if (kw == null) {
            text = s.substring(start, end);
        } else if (s.startsWith(kw.upper, start)) {
            text = kw.upper;
        } else if (s.startsWith(kw.lower, start)) {
            text = kw.lower;
        } else {
            text = s.substring(start, end);
        }
        return new Token(Token.Type.IDENT, text, start, end, kw);
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
