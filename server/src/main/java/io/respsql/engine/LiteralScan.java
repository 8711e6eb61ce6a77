package io.respsql.engine;

import io.respsql.expr.ParamValues;
import io.respsql.sql.tree.Expr;

import java.nio.charset.StandardCharsets;

/**
 * One pass over a statement's text that finds its literals (numbers and single-quoted strings,
 * as {@link io.respsql.sql.Lexer} would token them) and hashes the rest: the plan cache's key is
 * the text with each literal replaced by a marker of its kind, so {@code WHERE id = 5} and
 * {@code WHERE id = 6} share a plan and {@code WHERE id = '5'} or {@code WHERE id = 5.0} do not.
 * An integer right after the word LIMIT or OFFSET stays in the key as written: the count shapes
 * the plan (a top-n sort's n, a walk a LIMIT stops), so each count has its own entry.
 * Whitespace and case stay in the key (column names of a result are taken from the text).
 * Reused for every statement (event loop only): scanning and matching allocate nothing.
 */
final class LiteralScan {
    /** Marker characters in a key, one per literal kind; the lexer refuses them outside a literal. */
    static final char INTEGER = '\u0001';
    static final char DECIMAL = '\u0002';
    static final char STRING = '\u0003';
    /**
     * More literals than this: not cached. An INSERT has a bound of its own
     * ({@link #MAX_INSERT_LITERALS}), so what has many literals is an IN list; a 1,000-id list cached is
     * the same rows as a range at about the range's cost instead of a full parse each time
     * (issue 13). The entry's byte estimate grows with its literals ({@link PlanCache.Entry#bytes}).
     */
    static final int MAX_LITERALS = 4096;
    /**
     * An INSERT is cached up to this many literals (a point INSERT, a few rows); beyond, its rows
     * are streamed from the text ({@link BulkValues}) instead: one plan per bulk statement's shape
     * would be used once and hold thousands of parameters.
     */
    static final int MAX_INSERT_LITERALS = 256;

    int count;
    int[] starts = new int[16];
    int[] ends = new int[16];
    char[] kinds = new char[16];
    long[] integers = new long[16];
    int hash;
    private int limit;
    private CharSequence sql;

    /**
     * Scans {@code s}; false when it cannot be cached (an integer beyond 64 bits, too many literals, a quote left open).
     * {@code s} is a String, or a statement's bytes as they came ({@link AsciiText}): one scan for both,
     * so the key and the literals of a text do not depend on its form.
     */
    boolean scan(CharSequence s) {
        return scan(s, MAX_LITERALS);
    }

    /** {@link #scan(CharSequence)} with room for {@code maxLiterals} literals (a bulk INSERT's stream of values). */
    boolean scan(CharSequence s, int maxLiterals) {
        sql = s;
        count = 0;
        limit = maxLiterals;
        int h = 0;
        int n = s.length();
        int i = 0;
        // the last word read and whether only whitespace followed it (a count after LIMIT / OFFSET)
        int wordStart = -1;
        int wordEnd = -1;
        while (i < n) {
            char c = s.charAt(i);
            if (isIdentStart(c)) {
                char w;
                wordStart = i;
                while (i < n && isIdentPart(w = s.charAt(i))) { // hashed as it is read: one pass
                    h = 31 * h + w;
                    i++;
                }
                wordEnd = i;
                continue;
            } else if (isDigit(c) && wordEnd >= 0 && countsRows(s, wordStart, wordEnd, i)) {
                // LIMIT n / OFFSET n: the count shapes the plan (a top-n sort's n, where a walk stops),
                // so it stays in the key; statements that differ in it are planned apart
                while (i < n && isDigit(s.charAt(i))) {
                    h = 31 * h + s.charAt(i);
                    i++;
                }
            } else if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(s.charAt(i + 1)))) {
                int start = i;
                boolean decimal = false;
                long digits = 0; // the value as the digits are read (one pass); a longer number is read again below
                char dc;
                while (i < n && isDigit(dc = s.charAt(i))) {
                    digits = digits * 10 + (dc - '0');
                    i++;
                }
                if (i < n && s.charAt(i) == '.' && i + 1 < n && isDigit(s.charAt(i + 1))) {
                    decimal = true;
                    i++;
                    while (i < n && isDigit(s.charAt(i))) {
                        i++;
                    }
                } else if (i < n && s.charAt(i) == '.' && (i + 1 == n || !isIdentStart(s.charAt(i + 1)))) {
                    decimal = true;
                    i++;
                }
                if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                    int j = i + 1;
                    if (j < n && (s.charAt(j) == '+' || s.charAt(j) == '-')) {
                        j++;
                    }
                    if (j < n && isDigit(s.charAt(j))) {
                        decimal = true;
                        i = j;
                        while (i < n && isDigit(s.charAt(i))) {
                            i++;
                        }
                    }
                }
                if (i < n && isIdentStart(s.charAt(i))) {
                    // "12abc": 2010 unquoted text, part of the key
                    while (i < n && isIdentPart(s.charAt(i))) {
                        i++;
                    }
                    for (int k = start; k < i; k++) {
                        h = 31 * h + s.charAt(k);
                    }
                    wordEnd = -1;
                    continue;
                }
                char kind = decimal ? DECIMAL : INTEGER;
                if (!decimal && i - start <= 18) {
                    if (!add(start, i, kind)) { // 18 digits always fit
                        return false;
                    }
                    integers[count - 1] = digits;
                } else if (!decimal) {
                    long v = 0;
                    for (int k = start; k < i; k++) {
                        int d = s.charAt(k) - '0';
                        // 18 digits always fit; only a longer number needs the overflow test
                        if (k - start >= 18 && v > (Long.MAX_VALUE - d) / 10) {
                            return false; // beyond 64 bits the binder makes it a DOUBLE: keep to the plain path
                        }
                        v = v * 10 + d;
                    }
                    if (!add(start, i, kind)) {
                        return false;
                    }
                    integers[count - 1] = v;
                } else if (!add(start, i, kind)) {
                    return false;
                }
                h = 31 * h + kind;
            } else if (c == '\'') {
                int start = i;
                i++;
                while (true) {
                    int q = indexOfQuote(s, i);
                    if (q < 0) {
                        return false;
                    }
                    if (q + 1 < n && s.charAt(q + 1) == '\'') {
                        i = q + 2;
                        continue;
                    }
                    i = q + 1;
                    break;
                }
                if (!add(start, i, STRING)) {
                    return false;
                }
                h = 31 * h + STRING;
            } else if (c == '"' || c == '`' || c == '[') {
                // a quoted name, or a double-quoted 2010 string: part of the key
                char close = c == '[' ? ']' : c;
                int start = i;
                i++;
                while (true) {
                    if (i >= n) {
                        return false;
                    }
                    if (s.charAt(i) == close) {
                        if (close != ']' && i + 1 < n && s.charAt(i + 1) == close) {
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    i++;
                }
                for (int k = start; k < i; k++) {
                    h = 31 * h + s.charAt(k);
                }
            } else if ((c == '-' || c == '/') && io.respsql.sql.Lexer.commentEnd(s, i) != i) {
                // a comment: its digits and quotes are no literals; such a text takes the plain path
                return false;
            } else {
                h = 31 * h + c;
                i++;
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                    continue; // a word and the count after it may have whitespace between
                }
            }
            wordEnd = -1;
        }
        hash = h;
        return true;
    }

    /**
     * Whether the word {@code s[start, end)} is LIMIT or OFFSET with only whitespace up to
     * {@code at}, where an integer starts that ends before an identifier character would follow.
     */
    private static boolean countsRows(CharSequence s, int start, int end, int at) {
        int len = end - start;
        if (!(len == 5 && wordIs(s, start, "LIMIT") || len == 6 && wordIs(s, start, "OFFSET"))) {
            return false;
        }
        int i = at;
        while (i < s.length() && isDigit(s.charAt(i))) {
            i++;
        }
        // a plain integer only: 1.5, 1e3, 12abc keep their own handling below
        return i - at <= 18 && (i == s.length() || !isIdentPart(s.charAt(i)) && s.charAt(i) != '.');
    }

    /** The next {@code '} from {@code i}, or -1. */
    private static int indexOfQuote(CharSequence s, int i) {
        if (s instanceof String str) {
            return str.indexOf('\'', i); // the JDK's search beats a charAt loop over a bulk load's strings
        }
        for (int n = s.length(); i < n; i++) {
            if (s.charAt(i) == '\'') {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether {@code s} at {@code at} holds {@code upper} (ASCII upper case) in any case, as
     * {@link String#regionMatches(boolean, int, String, int, int)} says (an {@link AsciiText} is all
     * ASCII, where ASCII case folding is the same answer).
     */
    static boolean wordIs(CharSequence s, int at, String upper) {
        int n = upper.length();
        if (s instanceof String str) {
            return str.regionMatches(true, at, upper, 0, n);
        }
        if (at < 0 || at + n > s.length()) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            char c = s.charAt(at + k);
            if ((c >= 'a' && c <= 'z' ? (char) (c - 32) : c) != upper.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code a[ai, ai + len)} equals {@code b[bi, bi + len)} (both in range). */
    private static boolean same(CharSequence a, int ai, String b, int bi, int len) {
        if (a instanceof String str) {
            return str.regionMatches(ai, b, bi, len);
        }
        for (int k = 0; k < len; k++) {
            if (a.charAt(ai + k) != b.charAt(bi + k)) {
                return false;
            }
        }
        return true;
    }

    private boolean add(int start, int end, char kind) {
        if (count == limit) {
            return false;
        }
        if (count == starts.length) {
            int m = count * 2;
            starts = java.util.Arrays.copyOf(starts, m);
            ends = java.util.Arrays.copyOf(ends, m);
            kinds = java.util.Arrays.copyOf(kinds, m);
            integers = java.util.Arrays.copyOf(integers, m);
        }
        starts[count] = start;
        ends[count] = end;
        kinds[count] = kind;
        count++;
        return true;
    }

    /** The scanned text. */
    CharSequence text() {
        return sql;
    }

    /** Lets arrays grown by a bulk statement go, so one huge INSERT does not keep them. */
    void trim() {
        if (starts.length > 1 << 16) {
            starts = new int[16];
            ends = new int[16];
            kinds = new char[16];
            integers = new long[16];
        }
    }

    /** The key of the scanned text: the text with each literal replaced by its kind's marker. */
    String key() {
        StringBuilder b = new StringBuilder(sql.length());
        int at = 0;
        for (int i = 0; i < count; i++) {
            b.append(sql, at, starts[i]).append(kinds[i]);
            at = ends[i];
        }
        return b.append(sql, at, sql.length()).toString();
    }

    /** Whether the scanned text has {@code key} (as {@link #key()} would build it), without building it. */
    boolean matches(String key) {
        return matches(key, null);
    }

    /**
     * {@link #matches(String)}; {@code keyAscii} is the key's bytes when it is all ASCII (else null,
     * {@link PlanCache.Entry#keyAscii}): a text that came as bytes is then compared byte for byte,
     * each stretch between literals in one range compare (a vectorized mismatch), not char by char.
     */
    boolean matches(String key, byte[] keyAscii) {
        if (keyAscii != null && sql instanceof AsciiText t) {
            return matches(t.bytes(), t.length(), keyAscii);
        }
        int at = 0; // in sql
        int k = 0; // in key
        int kn = key.length();
        for (int i = 0; i < count; i++) {
            int len = starts[i] - at;
            if (k + len + 1 > kn || !same(sql, at, key, k, len) || key.charAt(k + len) != kinds[i]) {
                return false;
            }
            k += len + 1;
            at = ends[i];
        }
        int rest = sql.length() - at;
        return kn - k == rest && same(sql, at, key, k, rest);
    }

    /** {@link #matches(String)} of the text {@code s[0, n)} against the ASCII key {@code key}. */
    private boolean matches(byte[] s, int n, byte[] key) {
        int at = 0; // in s
        int k = 0; // in key
        int kn = key.length;
        for (int i = 0; i < count; i++) {
            int len = starts[i] - at;
            if (k + len + 1 > kn || !java.util.Arrays.equals(s, at, at + len, key, k, k + len)
                    || key[k + len] != kinds[i]) {
                return false;
            }
            k += len + 1;
            at = ends[i];
        }
        return kn - k == n - at && java.util.Arrays.equals(s, at, n, key, k, kn);
    }

    /**
     * The scanned literals as the syntax tree's rewrite takes them ({@link io.respsql.sql.Parameterizer}):
     * a copy, made on a plan-cache miss only (the next scan reuses this scan's arrays).
     */
    io.respsql.sql.Parameterizer.Literals literals() {
        Expr.LiteralKind[] k = new Expr.LiteralKind[count];
        for (int i = 0; i < count; i++) {
            k[i] = kindOf(kinds[i]);
        }
        return new io.respsql.sql.Parameterizer.Literals(count, java.util.Arrays.copyOf(starts, count),
                java.util.Arrays.copyOf(ends, count), k);
    }

    /** The literal kind in the syntax tree's terms. */
    static Expr.LiteralKind kindOf(char marker) {
        return marker == INTEGER ? Expr.LiteralKind.INTEGER : marker == DECIMAL ? Expr.LiteralKind.DECIMAL
                : Expr.LiteralKind.STRING;
    }

    /**
     * Puts the scanned literals' values into {@code p} (numbers parsed, strings unescaped). False
     * when a decimal does not fit a double (1e400, 10e-400): the plain path then gives PostgreSQL's error.
     */
    boolean fill(ParamValues p) {
        boolean fits = true;
        p.reset(count);
        for (int i = 0; i < count; i++) {
            p.setSource(sql, i, starts[i], ends[i]);
            switch (kinds[i]) {
                case INTEGER:
                    p.setLong(i, integers[i]);
                    break;
                case DECIMAL: {
                    String text = sql.subSequence(starts[i], ends[i]).toString();
                    double d = Double.parseDouble(text);
                    fits &= !io.respsql.expr.Doubles.outOfRange(d, text);
                    p.setDouble(i, d);
                    break;
                }
                default:
                    p.setText(i, unquote(sql, starts[i], ends[i]).getBytes(StandardCharsets.UTF_8));
            }
        }
        return fits;
    }

    private static String unquote(CharSequence s, int start, int end) {
        String inner = s.subSequence(start + 1, end - 1).toString();
        return inner.indexOf('\'') < 0 ? inner : inner.replace("''", "'");
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** ASCII answers of {@link #isIdentStart} and {@link #isIdentPart} (a bulk INSERT scans millions of characters). */
    private static final boolean[] ASCII_START = new boolean[128];
    private static final boolean[] ASCII_PART = new boolean[128];

    static {
        for (char c = 0; c < 128; c++) {
            ASCII_START[c] = Character.isLetter(c) || c == '_' || c == '@' || c == '$' || c == '#';
            ASCII_PART[c] = Character.isLetterOrDigit(c) || c == '_' || c == ':' || c == '@' || c == '$' || c == '#';
        }
    }

    private static boolean isIdentStart(char c) {
        return c < 128 ? ASCII_START[c] : Character.isLetter(c);
    }

    private static boolean isIdentPart(char c) {
        return c < 128 ? ASCII_PART[c] : Character.isLetterOrDigit(c);
    }
}
