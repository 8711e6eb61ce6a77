package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's arrays as values (issue 25/26): an array travels as its canonical text, exactly as
 * PostgreSQL's array_out prints it ({@code {1,2,NULL}}, {@code {"a b","x\"y"}}, {@code {{1,2},{3,4}}},
 * {@code {}}), so everything that moves TEXT (work tables, keys, storage, result rows) moves it
 * unchanged and equal arrays are equal bytes. Operations read it into a {@link Value} (items in
 * row-major order, NULL as null, the dimensions' lengths; lower bounds are always 1). Array
 * queries allocate per value; nothing here is on the path of a query without arrays.
 */
public final class PgArray {
    private PgArray() {
    }

    /** An array: {@code items} in row-major order (null: NULL), {@code dims} each dimension's length (none: empty). */
    public static final class Value {
        public final String[] items;
        public final int[] dims;

        public Value(String[] items, int[] dims) {
            this.items = items;
            this.dims = dims;
        }

        /** A one-dimensional array of {@code items} (empty: no dimension). */
        public static Value of(List<String> items) {
            String[] a = items.toArray(new String[0]);
            return new Value(a, a.length == 0 ? new int[0] : new int[] {a.length});
        }

        public String text() {
            return format(items, dims);
        }

        public byte[] bytes() {
            return text().getBytes(StandardCharsets.UTF_8);
        }
    }

    public static final Value EMPTY = new Value(new String[0], new int[0]);

    // ---- reading (array_in) -------------------------------------------------------------------

    /** Reads PostgreSQL's text form of an array of {@code elem}, each element read as that type (22P02 when malformed). */
    public static Value parse(String text, SqlType elem) {
        return new Reader(text, elem, true).read();
    }

    /** Reads an array value as carried (canonical text): elements are taken as they are. */
    public static Value read(byte[] a, int off, int len) {
        return new Reader(new String(a, off, len, StandardCharsets.UTF_8), SqlType.TEXT, false).read();
    }

    private static final class Reader {
        final String s;
        final SqlType elem;
        final boolean canonicalize;
        int i;
        final List<String> items = new ArrayList<>();
        int[] dims = new int[0];
        int depth = -1; // the depth elements are at, once known

        Reader(String s, SqlType elem, boolean canonicalize) {
            this.s = s;
            this.elem = elem;
            this.canonicalize = canonicalize;
        }

        SqlException malformed(String detail) {
            return new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "malformed array literal: \"" + s + "\""
                    + (detail == null ? "" : " (" + detail + ")"));
        }

        void blanks() {
            while (i < s.length() && isBlank(s.charAt(i))) {
                i++;
            }
        }

        Value read() {
            blanks();
            if (i < s.length() && s.charAt(i) == '[') { // explicit bounds: [1:3]={...}; lower bounds are taken as 1
                int eq = s.indexOf('=', i);
                if (eq < 0) {
                    throw malformed("\"[\" must introduce explicitly-specified array dimensions.");
                }
                i = eq + 1;
                blanks();
            }
            if (i >= s.length() || s.charAt(i) != '{') {
                throw malformed("Array value must start with \"{\" or dimension information.");
            }
            level(0);
            blanks();
            if (i != s.length()) {
                throw malformed("Junk after closing right brace.");
            }
            if (items.isEmpty()) {
                return EMPTY;
            }
            return new Value(items.toArray(new String[0]), dims);
        }

        /** At '{' of depth d: reads to its '}'; returns how many entries it had. */
        void level(int d) {
            i++; // '{'
            blanks();
            if (i < s.length() && s.charAt(i) == '}') {
                i++;
                if (d == 0) {
                    return;
                }
                throw malformed("Multidimensional arrays must have sub-arrays with matching dimensions.");
            }
            int count = 0;
            while (true) {
                blanks();
                if (i >= s.length()) {
                    throw malformed("Unexpected end of input.");
                }
                char c = s.charAt(i);
                if (c == '{') {
                    if (depth >= 0 && depth <= d) {
                        throw malformed("Unexpected \"{\" character.");
                    }
                    level(d + 1);
                } else {
                    if (depth < 0) {
                        depth = d;
                    } else if (depth != d) {
                        throw malformed("Unexpected array element.");
                    }
                    element();
                }
                count++;
                blanks();
                if (i >= s.length()) {
                    throw malformed("Unexpected end of input.");
                }
                c = s.charAt(i++);
                if (c == '}') {
                    break;
                }
                if (c != ',') {
                    throw malformed("Unexpected \"" + c + "\" character.");
                }
            }
            if (dims.length <= d) {
                int[] n = new int[d + 1];
                java.util.Arrays.fill(n, -1);
                System.arraycopy(dims, 0, n, 0, dims.length);
                dims = n;
            }
            if (dims[d] < 0) {
                dims[d] = count;
            } else if (dims[d] != count) {
                throw malformed("Multidimensional arrays must have sub-arrays with matching dimensions.");
            }
        }

        void element() {
            StringBuilder b = new StringBuilder();
            boolean quoted = false;
            int lastNonBlank = 0; // length of b up to its last character that counts (trailing blanks dropped)
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == '"') {
                    quoted = true;
                    i++;
                    while (true) {
                        if (i >= s.length()) {
                            throw malformed("Unexpected end of input.");
                        }
                        char q = s.charAt(i++);
                        if (q == '"') {
                            break;
                        }
                        if (q == '\\') {
                            if (i >= s.length()) {
                                throw malformed("Unexpected end of input.");
                            }
                            q = s.charAt(i++);
                        }
                        b.append(q);
                    }
                    lastNonBlank = b.length();
                } else if (c == '\\') {
                    i++;
                    if (i >= s.length()) {
                        throw malformed("Unexpected end of input.");
                    }
                    b.append(s.charAt(i++));
                    lastNonBlank = b.length();
                    quoted = true; // an escaped character makes "NULL" a text
                } else if (c == ',' || c == '}') {
                    break;
                } else if (c == '{') {
                    throw malformed("Unexpected \"{\" character.");
                } else {
                    b.append(c);
                    i++;
                    if (!isBlank(c)) {
                        lastNonBlank = b.length();
                    }
                }
            }
            b.setLength(lastNonBlank);
            String v = b.toString();
            if (!quoted && v.isEmpty()) {
                throw malformed("Unexpected \"" + (i < s.length() ? s.charAt(i) : ' ') + "\" character.");
            }
            if (!quoted && v.equalsIgnoreCase("NULL")) {
                items.add(null);
            } else {
                items.add(canonicalize ? canonicalElement(v, elem) : v);
            }
        }
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0B || c == '\f';
    }

    /** An element's text read as {@code elem} and written as PostgreSQL writes that type. */
    public static String canonicalElement(String v, SqlType elem) {
        byte[] a = v.getBytes(StandardCharsets.UTF_8);
        switch (elem) {
            case INT:
                return Long.toString(NumberText.strictInt(a, 0, a.length, 32));
            case BIGINT:
                return Long.toString(NumberText.strictInt(a, 0, a.length, 64));
            case DOUBLE:
                return doubleText(NumberText.strictDouble(a, 0, a.length));
            case BOOLEAN: {
                int b = Casts.parseBoolean(a, 0, a.length);
                if (b < 0) {
                    throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type boolean: \"" + v + "\"");
                }
                return b == 1 ? "t" : "f";
            }
            case NUMERIC: {
                EvalContext ctx = new EvalContext(1);
                long u = Numeric.parse(ctx, a, 0, a.length);
                return Numeric.text(u, ctx.numScale, ctx.numBig);
            }
            case DATE: {
                long d = Temporal.parseDate(a, 0, a.length);
                if (d == Temporal.INVALID) {
                    long sp = Temporal.special(a, 0, a.length, true);
                    if (sp == Temporal.INVALID) {
                        throw Temporal.inputError(a, 0, a.length, true);
                    }
                    return v.trim().toLowerCase(java.util.Locale.ROOT);
                }
                return Temporal.formatDate(d);
            }
            case TIMESTAMP: {
                long t = Temporal.parseTimestamp(a, 0, a.length);
                if (t == Temporal.INVALID) {
                    long sp = Temporal.special(a, 0, a.length, false);
                    if (sp == Temporal.INVALID) {
                        throw Temporal.inputError(a, 0, a.length, false);
                    }
                    return v.trim().toLowerCase(java.util.Locale.ROOT);
                }
                return Temporal.formatTimestamp(t);
            }
            default:
                return v;
        }
    }

    /** A float8 as PostgreSQL prints it. */
    static String doubleText(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        return io.respsql.result.PgFloatText.text(d);
    }

    /** The element value of {@code e} (of a scalar type) as an array holds it; null for NULL. */
    public static String elementText(Expression e, EvalContext ctx) {
        SqlType t = e.type();
        switch (t) {
            case NULL:
                ctx.isNull = true;
                return null;
            case DOUBLE: {
                double d = e.evalDouble(ctx);
                return ctx.isNull ? null : doubleText(d);
            }
            case BOOLEAN: {
                long v = e.evalLong(ctx);
                return ctx.isNull ? null : v != 0 ? "t" : "f";
            }
            case DATE: {
                long v = e.evalLong(ctx);
                return ctx.isNull ? null : Temporal.formatDate(v);
            }
            case TIMESTAMP: {
                long v = e.evalLong(ctx);
                return ctx.isNull ? null : Temporal.formatTimestamp(v);
            }
            case INT:
            case BIGINT: {
                long v = e.evalLong(ctx);
                return ctx.isNull ? null : Long.toString(v);
            }
            default: {
                byte[] a = e.evalText(ctx);
                return ctx.isNull ? null : new String(a, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8);
            }
        }
    }

    // ---- writing (array_out) ------------------------------------------------------------------

    public static String format(String[] items, int[] dims) {
        if (items.length == 0 || dims.length == 0) {
            return "{}";
        }
        StringBuilder b = new StringBuilder(items.length * 4 + 2);
        int[] at = {0};
        level(b, items, dims, 0, at);
        return b.toString();
    }

    private static void level(StringBuilder b, String[] items, int[] dims, int d, int[] at) {
        b.append('{');
        for (int k = 0; k < dims[d]; k++) {
            if (k > 0) {
                b.append(',');
            }
            if (d + 1 < dims.length) {
                level(b, items, dims, d + 1, at);
            } else {
                appendElement(b, items[at[0]++]);
            }
        }
        b.append('}');
    }

    /** One element as array_out writes it: NULL bare, quoted when it must be. */
    static void appendElement(StringBuilder b, String v) {
        if (v == null) {
            b.append("NULL");
            return;
        }
        if (!needsQuotes(v)) {
            b.append(v);
            return;
        }
        b.append('"');
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        b.append('"');
    }

    private static boolean needsQuotes(String v) {
        if (v.isEmpty() || v.equalsIgnoreCase("NULL")) {
            return true;
        }
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '"' || c == '\\' || c == '{' || c == '}' || c == ',' || isBlank(c)) {
                return true;
            }
        }
        return false;
    }

    // ---- comparing (array_cmp) ----------------------------------------------------------------

    /** PostgreSQL's order of two elements of {@code elem} (neither null). */
    static int compareElements(String a, String b, SqlType elem) {
        switch (elem) {
            case INT:
            case BIGINT:
                return Long.compare(Long.parseLong(a), Long.parseLong(b));
            case DOUBLE:
                return Doubles.compare(number(a), number(b));
            case NUMERIC: {
                boolean an = a.equals("NaN");
                boolean bn = b.equals("NaN");
                if (an || bn) {
                    return an == bn ? 0 : an ? 1 : -1;
                }
                return new BigDecimal(a).compareTo(new BigDecimal(b));
            }
            default:
                return Integer.signum(a.compareTo(b));
        }
    }

    private static double number(String s) {
        switch (s) {
            case "NaN":
                return Double.NaN;
            case "Infinity":
                return Double.POSITIVE_INFINITY;
            case "-Infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                return Double.parseDouble(s);
        }
    }

    /**
     * PostgreSQL's array_cmp: element by element (NULL after every value, NULLs equal), then the
     * longer array after, then by dimensions.
     */
    public static int compare(Value a, Value b, SqlType elem) {
        int n = Math.min(a.items.length, b.items.length);
        for (int k = 0; k < n; k++) {
            String x = a.items[k];
            String y = b.items[k];
            if (x == null || y == null) {
                if (x != y) {
                    return x == null ? 1 : -1;
                }
                continue;
            }
            int c = compareElements(x, y, elem);
            if (c != 0) {
                return c;
            }
        }
        if (a.items.length != b.items.length) {
            return a.items.length < b.items.length ? -1 : 1;
        }
        if (a.dims.length != b.dims.length) {
            return a.dims.length < b.dims.length ? -1 : 1;
        }
        for (int d = 0; d < a.dims.length; d++) {
            if (a.dims[d] != b.dims[d]) {
                return a.dims[d] < b.dims[d] ? -1 : 1;
            }
        }
        return 0;
    }

    /** Whether two elements are equal as {@code elem} (neither null). */
    static boolean equalElements(String a, String b, SqlType elem) {
        return a.equals(b) || compareElements(a, b, elem) == 0;
    }

    /**
     * A byte string whose unsigned order is {@link #compare}'s (up to NUMERIC beyond a double's
     * precision, and dimensions): sorts take it as a TEXT key.
     */
    static byte[] orderKey(Value v, SqlType elem) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(v.items.length * 9 + 1);
        for (String s : v.items) {
            if (s == null) {
                out.write(2);
                continue;
            }
            out.write(1);
            long bits;
            switch (elem) {
                case INT:
                case BIGINT:
                    bits = Long.parseLong(s) ^ Long.MIN_VALUE;
                    break;
                case DOUBLE:
                case NUMERIC: {
                    double d = s.equals("NaN") ? Double.NaN : number(s);
                    if (d == 0) {
                        d = 0; // -0 is 0
                    }
                    long r = Double.doubleToLongBits(d);
                    bits = r < 0 ? ~r : r ^ Long.MIN_VALUE;
                    break;
                }
                default: {
                    byte[] t = s.getBytes(StandardCharsets.UTF_8);
                    out.write(t, 0, t.length);
                    out.write(0);
                    continue;
                }
            }
            for (int k = 56; k >= 0; k -= 8) {
                out.write((int) (bits >>> k));
            }
        }
        out.write(0);
        return out.toByteArray();
    }
}
