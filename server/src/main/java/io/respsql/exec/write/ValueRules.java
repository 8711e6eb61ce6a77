package io.respsql.exec.write;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.ParamValues;
import io.respsql.result.ShortestDouble;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Converts a value to what a column stores, exactly or not at all (as the 2010 dialect's
 * executor did, with the same messages): a number that does not fit an INT, a fraction for an
 * integer column, text that is no number for a number column are errors naming the value and the
 * column. Quoted numbers are accepted for number columns ({@code '5'}); an INT value widens to
 * FLOAT; a FLOAT value goes into an integer column only when it is whole; numbers carry leading
 * zeros in decimal. For a TEXT column, 2010-style unquoted values (names, numbers, {@code foo-bar},
 * {@code hello world}) are stored verbatim as written. NULL is NULL (NOT NULL is checked by the
 * caller, who knows the table).
 */
public final class ValueRules {
    private ValueRules() {
    }

    /**
     * Converts {@code e} without binding it, when it is a literal (possibly signed), an unquoted
     * 2010 text value for a TEXT column, or a bare name. Returns false when {@code e} is an
     * expression that must be bound and evaluated ({@link #evaluated}). {@code rowScope}: names
     * may be columns of the row (UPDATE), so only literals and raw text are taken here.
     */
    public static boolean literal(Column c, Expr e, String sql, boolean rowScope, Cell out) {
        if (converted(c, e, sql, rowScope, out)) {
            fitLength(c, out);
            return true;
        }
        return false;
    }

    // ---- varchar(n) / char(n) (PostgreSQL's dialect) ----

    /**
     * The type modifier a declared type gives a column of storage type {@code type}: the length of
     * {@code varchar(n)}, {@code character varying(n)}, {@code char(n)}, {@code character(n)},
     * {@code bpchar(n)}; -1 for any other type or without a length.
     */
    /**
     * The column type a declared type name stores as, or null when unknown: NUMERIC/DECIMAL is
     * exact in the PostgreSQL dialect (issue 25; scaled longs up to 18 digits, else text), a double
     * in the default one; every other name as {@link ColumnType#parse}.
     */
    public static ColumnType columnType(io.respsql.sql.tree.TypeName declared) {
        String base = declared.base();
        if (io.respsql.sql.Dialect.postgres() && (base.equals("NUMERIC") || base.equals("DECIMAL"))) {
            return ColumnType.numeric(io.respsql.expr.Expressions.numericTypmod(declared.length(), declared.scale()));
        }
        return ColumnType.parse(base);
    }

    public static int typeModifier(ColumnType type, io.respsql.sql.tree.TypeName declared) {
        if (type.isDecimal()) {
            return io.respsql.expr.Expressions.numericTypmod(declared.length(), declared.scale());
        }
        if (type != ColumnType.TEXT) {
            return -1;
        }
        switch (declared.base()) {
            case "VARCHAR":
            case "CHARACTER VARYING":
                return declared.length() < 0 ? -1 : declared.length();
            case "CHAR":
            case "CHARACTER":
                // bare char is char(1) in PostgreSQL; the RESP dialect keeps it plain TEXT, as before
                if (declared.length() < 0) {
                    return io.respsql.sql.Dialect.postgres() ? 1 | CHAR_FLAG : -1;
                }
                return declared.length() | CHAR_FLAG;
            case "BPCHAR":
                return declared.length() < 0 ? -1 : declared.length() | CHAR_FLAG;
            default:
                return -1;
        }
    }

    /**
     * Set in a TEXT column's type modifier when it was declared {@code char(n)} (bpchar), not
     * {@code varchar(n)}: the modifier is then {@code n | CHAR_FLAG} (a numeric's never reaches
     * bit 30). Stored in the snapshot as the modifier it is; a column from an older snapshot has
     * no flag and keeps varchar(n)'s rules, as before.
     */
    public static final int CHAR_FLAG = 1 << 30;

    /** n of a {@code char(n)} column, else -1. */
    public static int charLength(Column c) {
        int m = c.typeModifier();
        return c.type() == ColumnType.TEXT && m >= 0 && (m & CHAR_FLAG) != 0 ? m & ~CHAR_FLAG : -1;
    }

    /**
     * In PostgreSQL's dialect, a text value for a column declared {@code varchar(n)} (type modifier
     * n) must be at most n characters: longer is an error (22001), except that blanks past the n-th
     * character are cut off, as PostgreSQL does. The RESP dialect stores any length, as before.
     */
    static void fitLength(Column c, Cell out) {
        int n = c.typeModifier();
        if (n < 0 || out.isNull || c.type() != ColumnType.TEXT || !io.respsql.sql.Dialect.postgres()) {
            return;
        }
        boolean bpchar = (n & CHAR_FLAG) != 0;
        n &= ~CHAR_FLAG;
        byte[] b = out.text;
        int from = out.textOff;
        int end = from + out.textLen;
        if (bpchar) {
            // char(n): stored without trailing blanks (its canonical form, see expr.Bpchar)
            while (end > from && b[end - 1] == ' ') {
                end--;
            }
            out.textLen = end - from;
        }
        if (out.textLen <= n) {
            return; // n bytes hold at most n characters
        }
        int chars = 0;
        int cut = -1;
        for (int i = from; i < end; i++) {
            if ((b[i] & 0xC0) != 0x80) {
                if (chars == n) {
                    cut = i;
                }
                chars++;
            }
        }
        if (chars <= n) {
            return;
        }
        for (int i = cut; i < end; i++) {
            if (b[i] != ' ') {
                throw new SqlException(SqlState.STRING_DATA_RIGHT_TRUNCATION, "value too long for type " + (bpchar ? "character(" : "character varying(") + n + ")");
            }
        }
        out.textLen = cut - from;
    }

    private static boolean converted(Column c, Expr e, String sql, boolean rowScope, Cell out) {
        if (e instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.NULL) {
            out.setNull();
            return true;
        }
        if (c.type().isDecimal()) {
            return false; // NUMERIC (PostgreSQL dialect): bound and evaluated, rounded to the column's scale
        }
        if (c.type() == ColumnType.TEXT) {
            if (e instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING) {
                out.setText(lit.text().getBytes(StandardCharsets.UTF_8));
                return true;
            }
            if (e instanceof Expr.Raw || (rowScope ? isSignedNumber(e) : isUnquotedText(e))) {
                out.setText(unquotedText(e, sql).getBytes(StandardCharsets.UTF_8));
                return true;
            }
            return false;
        }
        if (e instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING) {
            quoted(c, lit.text(), source(e, sql), out);
            return true;
        }
        if (e instanceof Expr.Literal lit && (lit.kind() == Expr.LiteralKind.TRUE || lit.kind() == Expr.LiteralKind.FALSE)) {
            if (c.type() == ColumnType.BOOLEAN || c.type().isInteger()) {
                out.setLong(lit.kind() == Expr.LiteralKind.TRUE ? 1 : 0);
                return true;
            }
            throw notValid(c, source(e, sql));
        }
        if (e instanceof Expr.Raw r) {
            throw notValid(c, r.text());
        }
        if (e instanceof Expr.Column && !rowScope) {
            throw notValid(c, source(e, sql));
        }
        if (c.type() == ColumnType.INTERVAL) {
            if (e instanceof Expr.TypedLiteral tl && tl.type().base().startsWith("INTERVAL")) {
                interval(c, tl.text(), io.respsql.expr.Expressions.intervalField(tl.type().base()), out);
                return true;
            }
            return false; // anything else is bound and evaluated (a number is refused there)
        }
        if (e instanceof Expr.TypedLiteral tl && (tl.type().base().equals("DATE") || tl.type().base().startsWith("TIMESTAMP"))) {
            // other typed literals (PostgreSQL's bool 't', int4 '5') are bound and evaluated as casts
            typed(c, tl, source(e, sql), out);
            return true;
        }
        if (!isSignedNumber(e)) {
            return false;
        }
        boolean negative = false;
        Expr x = e;
        while (x instanceof Expr.Unary u) {
            negative ^= u.op() == Expr.UnaryOp.MINUS;
            x = u.operand();
        }
        Expr.Literal lit = (Expr.Literal) x;
        number(c, lit, negative, e, sql, rowScope, out);
        return true;
    }

    /**
     * Whether a cached INSERT can convert parameter values of {@code kind} (the literal kind its
     * key fixes) for {@code c} with {@link #parameter}: numbers into number columns, numbers as
     * written into TEXT (unsigned only: a sign and the spaces after it are part of the text),
     * strings into any column {@link #literal} takes a string for. Anything else stays on the plain path.
     */
    public static boolean parameterFits(Column c, Expr.LiteralKind kind, boolean signed) {
        switch (kind) {
            case INTEGER:
            case DECIMAL:
                return switch (c.type()) { // NUMERIC: never (the PostgreSQL dialect caches nothing)
                    case INT, BIGINT, BOOLEAN, FLOAT -> true;
                    case TEXT -> !signed;
                    default -> false;
                };
            case STRING:
                return !signed;
            default:
                return false;
        }
    }

    /**
     * Parameter {@code i} of a cached INSERT (a literal of {@code kind}, negated when {@code negative})
     * converted for {@code c} exactly as {@link #literal} converts the literal it stands for. A
     * value the column refuses throws; the caller then answers through the plain path, whose error
     * names the value as written (so the messages here do not matter and none is built).
     */
    static void parameter(Column c, Expr.LiteralKind kind, boolean negative, ParamValues p, int i, Cell out) {
        if (kind == Expr.LiteralKind.STRING) {
            string(c, p.texts[i], out);
        } else if (c.type() == ColumnType.TEXT) {
            out.setText(p.sourceText(i).getBytes(StandardCharsets.UTF_8)); // unsigned: verbatim, leading zeros kept
        } else {
            if (kind == Expr.LiteralKind.DECIMAL && c.type() == ColumnType.FLOAT && p.doubles[i] == 0.0
                    && io.respsql.expr.Doubles.nonZeroMantissa(p.sourceText(i))) {
                throw io.respsql.expr.Doubles.outOfRange(p.sourceText(i)); // 10e-400 underflows
            }
            number(c, kind, negative, p.longs[i], p.doubles[i], out);
        }
    }

    /**
     * The literal written at {@code sql[start, end)} (of {@code kind}; an INTEGER's value already
     * read as {@code integer}, 0..Long.MAX_VALUE), negated when {@code negative}, for {@code c}:
     * {@link #parameter} reading the text itself, for a stream of VALUES rows. Throws as it does.
     */
    static void literalAt(Column c, Expr.LiteralKind kind, boolean negative, long integer, String sql, int start,
            int end, Cell out) {
        if (kind == Expr.LiteralKind.STRING) {
            // the plain form of a TIMESTAMP or DATE read in place: no String and no boxed value per row
            long fast = c.type() == ColumnType.TIMESTAMP ? Temporals.fastTimestamp(sql, start + 1, end - 1)
                    : c.type() == ColumnType.DATE ? Temporals.fastDate(sql, start + 1, end - 1) : Temporals.NO_FAST;
            if (fast != Temporals.NO_FAST) {
                out.setLong(fast);
                return;
            }
            string(c, unquotedBytes(sql, start, end), out);
        } else if (c.type() == ColumnType.TEXT) {
            out.setText(asciiOrUtf8(sql, start, end, false)); // unsigned: verbatim, leading zeros kept
        } else {
            double d = kind == Expr.LiteralKind.DECIMAL ? Double.parseDouble(sql.substring(start, end)) : integer;
            if (d == 0.0 && kind == Expr.LiteralKind.DECIMAL && c.type() == ColumnType.FLOAT
                    && io.respsql.expr.Doubles.nonZeroMantissa(sql.substring(start, end))) {
                throw io.respsql.expr.Doubles.outOfRange(sql.substring(start, end)); // 10e-400 underflows
            }
            number(c, kind, negative, integer, d, out);
        }
    }

    /** A string literal's bytes (already unquoted) for {@code c}, as {@link #literal} converts a STRING literal. */
    private static void string(Column c, byte[] text, Cell out) {
        if (c.type() == ColumnType.TEXT) {
            out.setText(text);
        } else {
            // a refusal's message is the plain path's to give (its caller falls back): none built here
            quoted(c, new String(text, StandardCharsets.UTF_8), null, out);
        }
    }

    /** An unsigned number literal's value ({@code l} for an INTEGER, {@code d} for a DECIMAL) for number column {@code c}. */
    private static void number(Column c, Expr.LiteralKind kind, boolean negative, long l, double d, Cell out) {
        if (kind == Expr.LiteralKind.INTEGER) {
            long v = negative ? -l : l;
            if (c.type() == ColumnType.FLOAT) {
                out.setDouble((double) v); // as Double.parseDouble of the digits: both round to nearest
            } else {
                out.setLong(toInteger(c, v, null));
            }
            return;
        }
        double v = negative ? -d : d;
        if (c.type() == ColumnType.FLOAT) {
            if (Double.isInfinite(v)) {
                throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range for FLOAT column '" + c.name() + "'");
            }
            out.setDouble(v);
        } else {
            out.setLong(toInteger(c, v, null));
        }
    }

    /** The UTF-8 bytes of string literal {@code sql[start, end)} (quotes included) without its quotes, {@code ''} as one. */
    private static byte[] unquotedBytes(String sql, int start, int end) {
        return asciiOrUtf8(sql, start + 1, end - 1, true);
    }

    /** The UTF-8 bytes of {@code sql[from, to)}, {@code ''} read as one quote when {@code quoted}; no String for ASCII. */
    private static byte[] asciiOrUtf8(String sql, int from, int to, boolean quoted) {
        int n = 0;
        for (int i = from; i < to; i++, n++) {
            char ch = sql.charAt(i);
            if (ch >= 0x80) {
                String s = sql.substring(from, to);
                return (quoted && s.indexOf('\'') >= 0 ? s.replace("''", "'") : s).getBytes(StandardCharsets.UTF_8);
            }
            if (quoted && ch == '\'') {
                i++; // the scan saw a doubled quote here
            }
        }
        byte[] b = new byte[n];
        for (int i = from, k = 0; i < to; i++, k++) {
            char ch = sql.charAt(i);
            b[k] = (byte) ch;
            if (quoted && ch == '\'') {
                i++;
            }
        }
        return b;
    }

    /** A number literal under any chain of unary {@code +}/{@code -}. */
    static boolean isSignedNumber(Expr e) {
        while (e instanceof Expr.Unary u && u.op() != Expr.UnaryOp.NOT) {
            e = u.operand();
        }
        return e instanceof Expr.Literal l && (l.kind() == Expr.LiteralKind.INTEGER || l.kind() == Expr.LiteralKind.DECIMAL);
    }

    /**
     * The shapes the 2010 dialect took as unquoted text for a TEXT column: numbers, names,
     * TRUE/FALSE, and arithmetic of those ({@code foo-bar}, {@code 2010-06-01}), kept as written.
     */
    public static boolean isUnquotedText(Expr e) {
        if (e instanceof Expr.Literal l) {
            return l.kind() != Expr.LiteralKind.STRING && l.kind() != Expr.LiteralKind.NULL;
        }
        if (e instanceof Expr.Column || e instanceof Expr.Raw) {
            return true;
        }
        if (e instanceof Expr.Unary u) {
            return u.op() != Expr.UnaryOp.NOT && isUnquotedText(u.operand());
        }
        return e instanceof Expr.Binary b && b.op().ordinal() <= Expr.BinaryOp.MOD.ordinal()
                && isUnquotedText(b.left()) && isUnquotedText(b.right());
    }

    /**
     * An unquoted 2010 text value as stored: as written, except that a double-quoted name
     * ({@code "double""quoted"}, a string in the 2010 dialect) is its name, unescaped.
     */
    public static String unquotedText(Expr e, String sql) {
        String src = source(e, sql);
        if (e instanceof Expr.Column c && c.qualifier() == null && !src.isEmpty() && src.charAt(0) == '"') {
            return c.name();
        }
        return src;
    }

    public static String source(Expr e, String sql) {
        if (e instanceof Expr.Raw r) {
            return r.text();
        }
        return sql.substring(e.start(), Math.min(e.end(), sql.length()));
    }

    /**
     * Number literal {@code lit} (negated when {@code negative}) for number column {@code c}. The
     * INSERT hot path: no string is built unless the value is refused ({@code e} as written).
     */
    private static void number(Column c, Expr.Literal lit, boolean negative, Expr e, String sql, boolean rowScope, Cell out) {
        String text = lit.text();
        switch (c.type()) {
            case INT:
            case BIGINT:
            case BOOLEAN:
                if (lit.kind() == Expr.LiteralKind.INTEGER) {
                    long v;
                    try {
                        v = negative ? -Long.parseLong(text) : Long.parseLong(text);
                    } catch (NumberFormatException ex) {
                        if (rowScope && !(negative && text.equals("9223372036854775808"))) {
                            // UPDATE reads a SET value as an expression first (as the 2010 engine did)
                            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer " + source(e, sql) + " is out of range (64-bit)");
                        }
                        if (!negative) {
                            throw outOfRange(c, source(e, sql));
                        }
                        try {
                            v = Long.parseLong("-" + text); // Long.MIN_VALUE has no positive twin
                        } catch (NumberFormatException ex2) {
                            throw outOfRange(c, source(e, sql));
                        }
                    }
                    if (c.type() == ColumnType.INT ? v < Integer.MIN_VALUE || v > Integer.MAX_VALUE
                            : c.type() == ColumnType.BOOLEAN && v != 0 && v != 1) {
                        toInteger(c, v, source(e, sql)); // throws, naming the value
                    }
                    out.setLong(v);
                } else {
                    double d = Double.parseDouble(text);
                    out.setLong(toInteger(c, negative ? -d : d, source(e, sql)));
                }
                return;
            case FLOAT: {
                double d = Double.parseDouble(text);
                if (Double.isInfinite(d)) {
                    throw outOfRange(c, source(e, sql));
                }
                if (d == 0.0 && io.respsql.expr.Doubles.nonZeroMantissa(text)) {
                    throw io.respsql.expr.Doubles.outOfRange(text); // 10e-400: PostgreSQL refuses the underflow
                }
                out.setDouble(negative ? -d : d);
                return;
            }
            default:
                throw notValid(c, source(e, sql));
        }
    }

    /** A quoted string for a non-TEXT column: a number when it is exactly one, a date or timestamp when it reads as one. */
    static void quoted(Column c, String value, String shown, Cell out) {
        switch (c.type()) {
            case DATE: {
                Long d = Temporals.date(value);
                if (d == null) {
                    d = Temporals.special(value, true);
                }
                if (d == null) {
                    throw Temporals.refused(c, value, shown, true);
                }
                out.setLong(d);
                return;
            }
            case TIMESTAMP: {
                Long t = Temporals.timestamp(value);
                if (t == null) {
                    t = Temporals.special(value, false);
                }
                if (t == null) {
                    throw Temporals.refused(c, value, shown, false);
                }
                out.setLong(t);
                return;
            }
            case INTERVAL:
                interval(c, value, io.respsql.expr.Interval.NONE, out);
                return;
            case BOOLEAN: {
                String v = value.trim().toLowerCase(java.util.Locale.ROOT);
                switch (v) {
                    case "true", "t", "yes", "on", "1" -> out.setLong(1);
                    case "false", "f", "no", "off", "0" -> out.setLong(0);
                    default -> throw notValid(c, shown);
                }
                return;
            }
            default:
                break;
        }
        String t = value.trim();
        if (c.type() == ColumnType.FLOAT) {
            double special = io.respsql.expr.Doubles.special(t);
            if (special != 0.0) {
                out.setDouble(special); // 'NaN', 'Infinity', '-inf', ... as PostgreSQL accepts them
                return;
            }
        }
        if (t.matches("[-+]?\\d+")) {
            if (c.type() == ColumnType.FLOAT) {
                out.setDouble(Double.parseDouble(t));
                return;
            }
            long v;
            try {
                v = Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
            } catch (NumberFormatException ex) {
                throw outOfRange(c, shown);
            }
            out.setLong(toInteger(c, v, shown));
            return;
        }
        double d;
        try {
            d = Double.parseDouble(t);
        } catch (NumberFormatException ex) {
            throw notValid(c, shown);
        }
        if (Double.isNaN(d) || t.isEmpty() || !Character.isDigit(t.charAt(t.length() - 1)) && t.charAt(t.length() - 1) != '.') {
            throw notValid(c, shown); // "1d", "0x1p3": Java reads them, SQL does not (the words were taken above)
        }
        if (Double.isInfinite(d)) {
            if (c.type() == ColumnType.FLOAT) {
                throw io.respsql.expr.Doubles.outOfRange(t); // '1e400': PostgreSQL's error, not Infinity
            }
            throw notValid(c, shown);
        }
        if (c.type() == ColumnType.FLOAT) {
            if (d == 0.0 && io.respsql.expr.Doubles.nonZeroMantissa(t)) {
                throw io.respsql.expr.Doubles.outOfRange(t); // '10e-400': PostgreSQL refuses the underflow
            }
            out.setDouble(d);
        } else {
            out.setLong(toInteger(c, d, shown));
        }
    }

    /** INTERVAL text (PostgreSQL's input forms) for an INTERVAL column: its encoded bytes, or PostgreSQL's error. */
    private static void interval(Column c, String text, int qualifier, Cell out) {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        io.respsql.expr.Interval.Value v = io.respsql.expr.Interval.parse(t, 0, t.length, qualifier, new io.respsql.expr.Interval.Value());
        out.setText(io.respsql.expr.Interval.encode(v.months, v.days, v.micros));
    }

    private static void typed(Column c, Expr.TypedLiteral tl, String shown, Cell out) {
        String base = tl.type().base();
        Long v = null;
        if (base.equals("DATE")) {
            v = Temporals.date(tl.text());
            if (v != null && c.type() == ColumnType.TIMESTAMP) {
                v = v * 86_400_000_000L;
            } else if (c.type() != ColumnType.DATE) {
                throw notValid(c, shown);
            }
        } else if (base.startsWith("TIMESTAMP")) {
            v = Temporals.timestamp(tl.text());
            if (c.type() != ColumnType.TIMESTAMP) {
                throw notValid(c, shown);
            }
        } else if (c.type() == ColumnType.TEXT) {
            out.setText(tl.text().getBytes(StandardCharsets.UTF_8));
            return;
        }
        if (v == null) {
            throw notValid(c, shown);
        }
        out.setLong(v);
    }

    /**
     * The value of a bound expression, evaluated in {@code ctx}, for column {@code c}.
     * {@code shown} is how it was written (errors), or null to show the value itself.
     */
    public static void evaluated(Column c, Expression x, EvalContext ctx, String shown, Cell out) {
        evaluatedValue(c, x, ctx, shown, out);
        fitLength(c, out);
    }

    private static void evaluatedValue(Column c, Expression x, EvalContext ctx, String shown, Cell out) {
        if (c.type().isDecimal()) {
            long u = io.respsql.expr.Numeric.evalForColumn(x, ctx, c.typeModifier());
            if (ctx.isNull) {
                out.setNull();
            } else if (c.type() == ColumnType.NUMERIC) {
                // p <= 18: the long form at the column's scale; NaN as its sentinel
                out.setLong(ctx.numBig == io.respsql.expr.Numeric.NAN ? io.respsql.expr.Numeric.STORED_NAN : u);
            } else {
                out.setText(io.respsql.expr.Numeric.textBytes(u, ctx));
            }
            return;
        }
        if (x.type() == io.respsql.expr.SqlType.NUMERIC) {
            long u = x.evalNumeric(ctx);
            if (ctx.isNull) {
                out.setNull();
            } else if (c.type() == ColumnType.TEXT) {
                out.setText(io.respsql.expr.Numeric.textBytes(u, ctx));
            } else if (c.type() == ColumnType.FLOAT) {
                out.setDouble(io.respsql.expr.Numeric.doubleOf(u, ctx));
            } else if (c.type().isInteger()) {
                out.setLong(io.respsql.expr.Numeric.longOf(u, ctx, c.type() == ColumnType.INT ? 32 : 64));
            } else {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, "column \"" + c.name() + "\" cannot take a numeric value");
            }
            return;
        }
        switch (x.type()) {
            case NULL:
                out.setNull();
                return;
            case DOUBLE: {
                double d = x.evalDouble(ctx);
                if (ctx.isNull) {
                    out.setNull();
                    return;
                }
                fromDouble(c, d, shown, out);
                return;
            }
            case INTERVAL: {
                byte[] b = x.evalText(ctx);
                if (ctx.isNull) {
                    out.setNull();
                    return;
                }
                if (c.type() == ColumnType.INTERVAL) {
                    out.setText(Arrays.copyOfRange(b, ctx.textOffset, ctx.textOffset + ctx.textLength));
                } else if (c.type() == ColumnType.TEXT) {
                    out.setText(io.respsql.expr.Interval.toString(b, ctx.textOffset).getBytes(StandardCharsets.UTF_8));
                } else {
                    throw notValid(c, shown != null ? shown : "'" + io.respsql.expr.Interval.toString(b, ctx.textOffset) + "'");
                }
                return;
            }
            case TEXT: {
                byte[] b = x.evalText(ctx);
                if (ctx.isNull) {
                    out.setNull();
                    return;
                }
                if (c.type() == ColumnType.TEXT) {
                    out.setText(Arrays.copyOfRange(b, ctx.textOffset, ctx.textOffset + ctx.textLength));
                } else {
                    String s = new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8);
                    quoted(c, s, shown != null ? shown : "'" + s + "'", out);
                }
                return;
            }
            default: {
                long v = x.evalLong(ctx);
                if (ctx.isNull) {
                    out.setNull();
                    return;
                }
                fromLong(c, x.type(), v, shown, out);
            }
        }
    }

    private static void fromDouble(Column c, double d, String shown, Cell out) {
        switch (c.type()) {
            case FLOAT:
                out.setDouble(d); // NaN and ±Infinity are FLOAT values (PostgreSQL); overflowing arithmetic is refused where it happens
                return;
            case INT:
            case BIGINT:
                out.setLong(toInteger(c, d, shown));
                return;
            case TEXT:
                out.setText(ShortestDouble.text(d).getBytes(StandardCharsets.UTF_8));
                return;
            default:
                throw notValid(c, shown != null ? shown : Double.toString(d));
        }
    }

    private static void fromLong(Column c, io.respsql.expr.SqlType from, long v, String shown, Cell out) {
        boolean temporal = from == io.respsql.expr.SqlType.DATE || from == io.respsql.expr.SqlType.TIMESTAMP;
        switch (c.type()) {
            case INT:
            case BIGINT:
            case BOOLEAN:
                if (temporal) {
                    break;
                }
                out.setLong(toInteger(c, v, shown));
                return;
            case FLOAT:
                if (temporal) {
                    break;
                }
                out.setDouble(v);
                return;
            case DATE:
                if (from == io.respsql.expr.SqlType.DATE) {
                    out.setLong(v);
                    return;
                }
                break;
            case TIMESTAMP:
                if (from == io.respsql.expr.SqlType.TIMESTAMP) {
                    out.setLong(v);
                    return;
                }
                if (from == io.respsql.expr.SqlType.DATE) {
                    out.setLong(io.respsql.expr.Temporal.dateToTimestamp(v));
                    return;
                }
                break;
            case TEXT: {
                String s = from == io.respsql.expr.SqlType.DATE ? Temporals.dateText(v)
                        : from == io.respsql.expr.SqlType.TIMESTAMP ? Temporals.timestampText(v)
                        : from == io.respsql.expr.SqlType.BOOLEAN ? (v != 0 ? "true" : "false") : Long.toString(v);
                out.setText(s.getBytes(StandardCharsets.UTF_8));
                return;
            }
            default:
                break;
        }
        throw notValid(c, shown != null ? shown : Long.toString(v));
    }

    /** {@code shown} is how the value was written, or null to print the value itself (built only on error). */
    static long toInteger(Column c, long v, String shown) {
        if (c.type() == ColumnType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value " + (shown == null ? Long.toString(v) : shown) + " is out of range for INT column '" + c.name() + "'");
        }
        if (c.type() == ColumnType.BOOLEAN && v != 0 && v != 1) {
            throw notValid(c, shown == null ? Long.toString(v) : shown);
        }
        return v;
    }

    static long toInteger(Column c, double d, String shown) {
        if (d != Math.rint(d) || Double.isInfinite(d) || Math.abs(d) >= 9.223372036854775807E18) {
            throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "value " + (shown == null ? Double.toString(d) : shown) + " is not a whole number for " + c.type() + " column '" + c.name() + "'");
        }
        return toInteger(c, (long) d, shown);
    }

    public static SqlException notValid(Column c, String shown) {
        return new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "value " + shown + " is not a valid " + c.type() + " for column '" + c.name() + "'");
    }

    private static SqlException outOfRange(Column c, String shown) {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value " + shown + " is out of range for " + c.type() + " column '" + c.name() + "'");
    }
}
