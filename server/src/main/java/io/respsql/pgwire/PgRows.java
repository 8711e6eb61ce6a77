package io.respsql.pgwire;

import io.netty.buffer.ByteBuf;
import io.respsql.result.FloatText;
import io.respsql.result.LongText;
import io.respsql.result.ShortestDouble;
import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.nio.charset.StandardCharsets;

/**
 * A result as PostgreSQL DataRow messages, in text format or (per column, as Bind asked) binary
 * for the types that have a fixed binary form. The rows go to a buffer of the caller; the columns
 * are kept for the RowDescription, which the caller sends (at once for a simple query, on
 * Describe for a portal). Reused per connection: no allocation per row or value (text values of
 * DATE/TIMESTAMP asked for in binary are parsed, which allocates: the rare path).
 */
final class PgRows implements ResultSink {
    private static final byte[] TRUE = {'t'};
    private static final byte[] FALSE = {'f'};
    private static final byte[] NAN = "NaN".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INF = "Infinity".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NEG_INF = "-Infinity".getBytes(StandardCharsets.US_ASCII);
    private static final long PG_EPOCH_DAYS = 10957; // 2000-01-01 in days since 1970-01-01

    /** Told after each row; may take the rows so far out of the buffer (a worker's streamed result). */
    interface Chunks {
        void afterRow(ByteBuf out);
    }

    private ByteBuf out;
    private short[] formats;
    private boolean describeFirst;
    private Chunks chunks;
    private ResultColumns columns;
    private int[] oids = new int[8];
    private boolean[] binary = new boolean[8];
    private int width;
    private int col;
    private int rowStart;
    private long rows;
    private int mark;
    private final byte[] digits = new byte[24];

    /**
     * Rows from now on go to {@code out}, in the formats Bind asked for (null: all text), after
     * their RowDescription when {@code describeFirst} (a simple query's result).
     */
    PgRows on(ByteBuf out, short[] formats, boolean describeFirst) {
        return on(out, formats, describeFirst, null);
    }

    PgRows on(ByteBuf out, short[] formats, boolean describeFirst, Chunks chunks) {
        this.out = out;
        this.formats = formats;
        this.describeFirst = describeFirst;
        this.chunks = chunks;
        this.columns = null;
        this.rows = 0;
        this.mark = out.writerIndex();
        return this;
    }

    /** Takes back what this result wrote so far (the statement is to run again elsewhere). */
    void discard() {
        out.writerIndex(mark);
        columns = null;
        rows = 0;
    }

    /** The result's columns, or null when the statement gave no rows result. */
    ResultColumns columns() {
        return columns;
    }

    long rows() {
        return rows;
    }

    @Override
    public void columns(ResultColumns c, long rowCount) {
        int n = c.size();
        if (oids.length < n) {
            oids = new int[n];
            binary = new boolean[n];
        }
        for (int i = 0; i < n; i++) {
            oids[i] = PgMessages.typeOid(c.type(i));
            binary[i] = PgMessages.format(formats, i) == 1;
        }
        width = n;
        columns = c;
        if (describeFirst) {
            PgMessages.rowDescription(out, c, formats);
        }
    }

    @Override
    public void beginRow() {
        rowStart = out.writerIndex();
        out.writeByte('D');
        out.writeInt(0);
        out.writeShort(width);
        col = 0;
    }

    @Override
    public void longValue(long v) {
        int i = col++;
        int oid = oids[i];
        if (binary[i]) {
            // by the column's type (RowDescription said it), whatever kind of value this row has:
            // a CASE or UNION may give a long in a FLOAT or TEXT column
            switch (oid) {
                case PgMessages.INT4 -> {
                    out.writeInt(4);
                    out.writeInt(int4(v, i));
                }
                case PgMessages.INT8 -> {
                    out.writeInt(8);
                    out.writeLong(v);
                }
                case PgMessages.BOOL -> {
                    out.writeInt(1);
                    out.writeByte(v != 0 ? 1 : 0);
                }
                case PgMessages.FLOAT8 -> {
                    out.writeInt(8);
                    out.writeLong(Double.doubleToRawLongBits(v));
                }
                case PgMessages.TEXT -> digitsOf(v); // text's binary form is its UTF-8 bytes
                case PgMessages.NUMERIC -> numeric(Long.toString(v), i);
                default -> throw notRepresentable("an integer", i);
            }
            return;
        }
        if (oid == PgMessages.BOOL) {
            out.writeInt(1);
            out.writeBytes(v != 0 ? TRUE : FALSE);
            return;
        }
        digitsOf(v);
    }

    private void digitsOf(long v) {
        int len = LongText.formatLong(v, digits);
        out.writeInt(len);
        out.writeBytes(digits, digits.length - len, len);
    }

    private int int4(long v, int column) {
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range: " + v + " in column "
                    + (column + 1) + " (\"" + columns.name(column) + "\", type int4) of a binary-format result");
        }
        return (int) v;
    }

    /** A value this row has that the column's binary type cannot hold: an error, never bytes of another type. */
    private SqlException notRepresentable(String what, int column) {
        return new SqlException(SqlState.DATATYPE_MISMATCH, "cannot send " + what + " in binary format in column "
                + (column + 1) + " (\"" + columns.name(column) + "\") of type oid " + oids[column]
                + ": ask for this column in text format");
    }

    @Override
    public void doubleValue(double v) {
        int i = col++;
        if (binary[i]) {
            switch (oids[i]) {
                case PgMessages.FLOAT8 -> {
                    out.writeInt(8);
                    out.writeLong(Double.doubleToRawLongBits(v));
                }
                case PgMessages.INT4, PgMessages.INT8 -> {
                    if (v != Math.rint(v) || Double.isInfinite(v) || Math.abs(v) >= 0x1p63) {
                        throw notRepresentable("the value " + FloatText.text(v), i);
                    }
                    if (oids[i] == PgMessages.INT4) {
                        out.writeInt(4);
                        out.writeInt(int4((long) v, i));
                    } else {
                        out.writeInt(8);
                        out.writeLong((long) v);
                    }
                }
                case PgMessages.TEXT -> doubleText(v); // text's binary form is its UTF-8 bytes
                case PgMessages.NUMERIC -> numeric(Double.isFinite(v) ? new java.math.BigDecimal(ShortestDouble.text(v))
                        .toPlainString() : "NaN", i);
                default -> throw notRepresentable("a floating-point value", i);
            }
            return;
        }
        doubleText(v);
    }

    private void doubleText(double v) {
        if (Double.isNaN(v)) {
            value(NAN, 0, NAN.length);
        } else if (Double.isInfinite(v)) {
            byte[] b = v > 0 ? INF : NEG_INF;
            value(b, 0, b.length);
        } else if (FloatText.isPlainIntegral(v)) {
            int len = LongText.formatLong((long) v, digits);
            value(digits, digits.length - len, len);
        } else {
            int len = ShortestDouble.plain(v, digits);
            if (len > 0) {
                value(digits, 0, len);
            } else {
                byte[] b = io.respsql.result.PgFloatText.text(v).getBytes(StandardCharsets.US_ASCII); // PostgreSQL's layout (agg)
                value(b, 0, b.length);
            }
        }
    }

    @Override
    public void textValue(byte[] b, int off, int len) {
        int i = col++;
        if (binary[i]) {
            switch (oids[i]) {
                case PgMessages.TEXT, PgMessages.BPCHAR -> value(b, off, len); // bpchar's binary form: its bytes too
                case PgMessages.DATE, PgMessages.TIMESTAMP -> dateTime(new String(b, off, len, StandardCharsets.UTF_8), i);
                case PgMessages.NUMERIC -> numeric(new String(b, off, len, StandardCharsets.US_ASCII), i);
                case PgMessages.INT4_ARRAY, PgMessages.INT8_ARRAY, PgMessages.FLOAT8_ARRAY, PgMessages.TEXT_ARRAY,
                        PgMessages.BOOL_ARRAY, PgMessages.DATE_ARRAY, PgMessages.TIMESTAMP_ARRAY, PgMessages.NUMERIC_ARRAY
                        -> arrayBinary(b, off, len, i); // arrays
                default -> throw notRepresentable("a text value", i);
            }
            return;
        }
        value(b, off, len);
    }

    // ---- arrays ----

    /**
     * An array in PostgreSQL's binary form (array_send): dimensions, a has-nulls flag, the element
     * OID, each dimension's length and lower bound (1), then each element as its type's binary value.
     * Allocates per value: pgjdbc asks for arrays in binary only for named statements.
     */
    private void arrayBinary(byte[] b, int off, int len, int i) {
        io.respsql.expr.PgArray.Value v = io.respsql.expr.PgArray.read(b, off, len);
        int elem = switch (oids[i]) {
            case PgMessages.INT4_ARRAY -> PgMessages.INT4;
            case PgMessages.INT8_ARRAY -> PgMessages.INT8;
            case PgMessages.FLOAT8_ARRAY -> PgMessages.FLOAT8;
            case PgMessages.BOOL_ARRAY -> PgMessages.BOOL;
            case PgMessages.DATE_ARRAY -> PgMessages.DATE;
            case PgMessages.TIMESTAMP_ARRAY -> PgMessages.TIMESTAMP;
            case PgMessages.NUMERIC_ARRAY -> PgMessages.NUMERIC;
            default -> PgMessages.TEXT;
        };
        int at = out.writerIndex();
        out.writeInt(0);
        boolean nulls = false;
        for (String s : v.items) {
            nulls |= s == null;
        }
        out.writeInt(v.dims.length);
        out.writeInt(nulls ? 1 : 0);
        out.writeInt(elem);
        for (int d : v.dims) {
            out.writeInt(d);
            out.writeInt(1);
        }
        int saved = oids[i];
        oids[i] = elem; // the element writers below read the column's OID
        try {
            for (String s : v.items) {
                if (s == null) {
                    out.writeInt(-1);
                    continue;
                }
                switch (elem) {
                    case PgMessages.INT4 -> {
                        out.writeInt(4);
                        out.writeInt(Integer.parseInt(s));
                    }
                    case PgMessages.INT8 -> {
                        out.writeInt(8);
                        out.writeLong(Long.parseLong(s));
                    }
                    case PgMessages.FLOAT8 -> {
                        out.writeInt(8);
                        double d = switch (s) {
                            case "NaN" -> Double.NaN;
                            case "Infinity" -> Double.POSITIVE_INFINITY;
                            case "-Infinity" -> Double.NEGATIVE_INFINITY;
                            default -> Double.parseDouble(s);
                        };
                        out.writeLong(Double.doubleToRawLongBits(d));
                    }
                    case PgMessages.BOOL -> {
                        out.writeInt(1);
                        out.writeByte(s.equals("t") ? 1 : 0);
                    }
                    case PgMessages.DATE, PgMessages.TIMESTAMP -> dateTime(s, i);
                    case PgMessages.NUMERIC -> numeric(s, i);
                    default -> {
                        byte[] t = s.getBytes(StandardCharsets.UTF_8);
                        out.writeInt(t.length);
                        out.writeBytes(t);
                    }
                }
            }
        } finally {
            oids[i] = saved;
        }
        out.setInt(at, out.writerIndex() - at - 4);
    }

    private void dateTime(String s, int i) {
        if (s.equals("infinity") || s.equals("-infinity")) { // PostgreSQL's binary infinities
            boolean plus = s.charAt(0) == 'i';
            if (oids[i] == PgMessages.DATE) {
                out.writeInt(4);
                out.writeInt(plus ? Integer.MAX_VALUE : Integer.MIN_VALUE);
            } else {
                out.writeInt(8);
                out.writeLong(plus ? Long.MAX_VALUE : Long.MIN_VALUE);
            }
            return;
        }
        try {
            if (oids[i] == PgMessages.DATE) {
                int days = (int) (java.time.LocalDate.parse(s).toEpochDay() - PG_EPOCH_DAYS);
                out.writeInt(4);
                out.writeInt(days);
            } else {
                java.time.LocalDateTime t = java.time.LocalDateTime.parse(s.replace(' ', 'T'));
                long micros = t.toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1000;
                out.writeInt(8);
                out.writeLong(micros - PG_EPOCH_DAYS * 86_400_000_000L);
            }
        } catch (java.time.format.DateTimeParseException e) {
            throw notRepresentable("the text '" + s + "'", i);
        }
    }

    /**
     * A NUMERIC in PostgreSQL's binary form (numeric_send): ndigits, weight, sign, dscale, then
     * base-10000 digits, from its text ({@code -12.50}, {@code NaN}). Allocates: pgjdbc asks for
     * numeric in binary only for named statements, and the text form stays the common path.
     */
    private void numeric(String s, int i) {
        String t = s.trim();
        if (t.equalsIgnoreCase("NaN")) {
            out.writeInt(8);
            out.writeShort(0);
            out.writeShort(0);
            out.writeShort(0xC000);
            out.writeShort(0);
            return;
        }
        boolean negative = t.startsWith("-");
        if (negative || t.startsWith("+")) {
            t = t.substring(1);
        }
        int dot = t.indexOf('.');
        String whole = dot < 0 ? t : t.substring(0, dot);
        String fraction = dot < 0 ? "" : t.substring(dot + 1);
        for (int k = 0; k < t.length(); k++) {
            char ch = t.charAt(k);
            if ((ch < '0' || ch > '9') && k != dot) {
                throw notRepresentable("the text '" + s + "'", i);
            }
        }
        int dscale = fraction.length();
        // whole digits padded on the left, fraction digits on the right, to groups of 4
        StringBuilder w = new StringBuilder(whole);
        while (w.length() % 4 != 0) {
            w.insert(0, '0');
        }
        StringBuilder f = new StringBuilder(fraction);
        while (f.length() % 4 != 0) {
            f.append('0');
        }
        int wholeGroups = w.length() / 4;
        String all = w.append(f).toString();
        int groups = all.length() / 4;
        short[] d = new short[groups];
        for (int g = 0; g < groups; g++) {
            d[g] = Short.parseShort(all.substring(g * 4, g * 4 + 4));
        }
        int weight = wholeGroups - 1;
        int first = 0;
        while (first < groups && d[first] == 0) {
            first++;
            weight--;
        }
        int last = groups;
        while (last > first && d[last - 1] == 0) {
            last--;
        }
        int n = last - first;
        if (n == 0) {
            weight = 0;
            negative = false;
        }
        out.writeInt(8 + 2 * n);
        out.writeShort(n);
        out.writeShort(weight);
        out.writeShort(negative ? 0x4000 : 0);
        out.writeShort(dscale);
        for (int g = first; g < last; g++) {
            out.writeShort(d[g]);
        }
    }

    private void value(byte[] b, int off, int len) {
        out.writeInt(len);
        out.writeBytes(b, off, len);
    }

    @Override
    public void nullValue() {
        col++;
        out.writeInt(-1);
    }

    @Override
    public void endRow() {
        out.setInt(rowStart + 1, out.writerIndex() - rowStart - 1);
        rows++;
        if (chunks != null) {
            chunks.afterRow(out);
        }
    }

    @Override
    public void end() {
    }

    @Override
    public void countStar(ResultColumns c, long count) {
        columns(c, 1);
        beginRow();
        longValue(count);
        endRow();
    }
}
