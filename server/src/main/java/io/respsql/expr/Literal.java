package io.respsql.expr;

/** A constant value (also what constant subtrees fold into). */
final class Literal extends Expression {
    final boolean nullValue;
    final long longValue;
    final double doubleValue;
    /** TEXT value bytes (UTF-8); {@link TextBuf#EMPTY} for other types. */
    final byte[] text;

    private Literal(SqlType type, boolean nullValue, long l, double d, byte[] text) {
        super(type);
        this.nullValue = nullValue;
        this.longValue = l;
        this.doubleValue = d;
        this.text = text;
    }

    static Literal ofLong(SqlType type, long v) {
        if (!type.isLongCarried()) {
            throw new IllegalArgumentException("not a long-carried type: " + type);
        }
        return new Literal(type, false, v, v, TextBuf.EMPTY);
    }

    static Literal ofDouble(double v) {
        return new Literal(SqlType.DOUBLE, false, (long) v, v, TextBuf.EMPTY);
    }

    static Literal ofText(byte[] utf8) {
        return new Literal(SqlType.TEXT, false, 0, 0, utf8);
    }

    /** An INTERVAL constant: {@link Interval}'s encoded bytes. */
    static Literal ofInterval(byte[] encoded) {
        return new Literal(SqlType.INTERVAL, false, 0, 0, encoded);
    }

    /** An array constant: its canonical text ({@link PgArray}). */
    static Literal ofArray(SqlType type, byte[] text) {
        return new Literal(type, false, 0, 0, text);
    }

    static Literal ofNull(SqlType type) {
        return new Literal(type, true, 0, 0, TextBuf.EMPTY);
    }

    @Override
    public long evalLong(EvalContext ctx) {
        ctx.isNull = nullValue;
        return longValue;
    }

    @Override
    public double evalDouble(EvalContext ctx) {
        ctx.isNull = nullValue;
        return doubleValue;
    }

    @Override
    public long evalNumeric(EvalContext ctx) {
        if (nullValue) { // a NULL of NUMERIC type (a comparison's or CASE's other side)
            ctx.isNull = true;
            ctx.numScale = 0;
            ctx.numBig = null;
            return 0;
        }
        return super.evalNumeric(ctx);
    }

    @Override
    public byte[] evalText(EvalContext ctx) {
        ctx.isNull = nullValue;
        ctx.textOffset = 0;
        ctx.textLength = text.length;
        return text;
    }

    @Override
    public boolean isConstant() {
        return true;
    }

    @Override
    public String describe() {
        if (nullValue) {
            return "NULL";
        }
        if (type.isArray()) {
            return "'" + TextBuf.string(text, 0, text.length).replace("'", "''") + "'::" + Expressions.pgName(type);
        }
        switch (type) {
            case TEXT:
                return "'" + TextBuf.string(text, 0, text.length).replace("'", "''") + "'";
            case DOUBLE:
                return TextForm.doubleText(doubleValue);
            case DATE:
                return "DATE '" + Temporal.formatDate(longValue) + "'";
            case TIMESTAMP:
                return "TIMESTAMP '" + Temporal.formatTimestamp(longValue) + "'";
            case BOOLEAN:
                return longValue != 0 ? "TRUE" : "FALSE";
            case INTERVAL:
                return "INTERVAL '" + Interval.toString(text, 0) + "'";
            default:
                return Long.toString(longValue);
        }
    }
}
