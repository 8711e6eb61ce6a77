package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/**
 * Bringing operands to a common footing at bind time: for comparison (numbers with numbers,
 * DATE with TIMESTAMP at midnight, a TEXT constant read as the other side's type) and for
 * results (CASE, COALESCE: {@link Expressions#commonType}).
 */
final class Coercion {
    private Coercion() {
    }

    static boolean numberLike(SqlType t) {
        return t.isNumeric() || t == SqlType.BOOLEAN;
    }

    static boolean temporal(SqlType t) {
        return t == SqlType.DATE || t == SqlType.TIMESTAMP;
    }

    /**
     * The pair {@code {left, right}} made comparable, or SqlException naming both types.
     * {@code what} names the construct for the message ("operator '='", "IN", "BETWEEN").
     */
    static Expression[] forComparison(Expression l, Expression r, String what) {
        SqlType a = l.type();
        SqlType b = r.type();
        if (a == SqlType.NULL && b == SqlType.NULL) {
            return new Expression[] {Literal.ofNull(SqlType.BIGINT), Literal.ofNull(SqlType.BIGINT)};
        }
        if (a == SqlType.NULL) {
            return new Expression[] {Literal.ofNull(b), r};
        }
        if (b == SqlType.NULL) {
            return new Expression[] {l, Literal.ofNull(a)};
        }
        if (a == b || (numberLike(a) && numberLike(b))) {
            return new Expression[] {l, r};
        }
        if (a.isArray() || b.isArray()) { // arrays: with arrays of comparable elements, or an array literal
            if (a.isArray() && b.isArray() && Expressions.commonType(a.element(), b.element()) != null) {
                return new Expression[] {l, r};
            }
            if (a.isArray() && b == SqlType.TEXT && r.isConstant()) {
                return new Expression[] {l, ArrayNodes.cast(r, a)};
            }
            if (b.isArray() && a == SqlType.TEXT && l.isConstant()) {
                return new Expression[] {ArrayNodes.cast(l, b), r};
            }
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "operator does not exist: " + Expressions.pgName(a) + " "
                    + what + " " + Expressions.pgName(b));
        }
        if ((a == SqlType.NUMERIC && (b.isInteger() || b == SqlType.DOUBLE))
                || (b == SqlType.NUMERIC && (a.isInteger() || a == SqlType.DOUBLE))) {
            return new Expression[] {l, r}; // ValueCompare: as NUMERIC, or as doubles beside a DOUBLE (PostgreSQL)
        }
        if (temporal(a) && temporal(b)) {
            return new Expression[] {toType(l, SqlType.TIMESTAMP), toType(r, SqlType.TIMESTAMP)};
        }
        if (a == SqlType.TEXT && l.isConstant()) {
            return forComparison(textConstantAs(l, b, what), r, what);
        }
        if (b == SqlType.TEXT && r.isConstant()) {
            return forComparison(l, textConstantAs(r, a, what), what);
        }
        throw new SqlException(SqlState.DATATYPE_MISMATCH, what + " cannot compare " + a.sqlName() + " with " + b.sqlName());
    }

    /** A constant TEXT read as a value of {@code target}'s family, for comparison with it. */
    static Expression textConstantAs(Expression textConst, SqlType target, String what) {
        EvalContext ctx = new EvalContext(1);
        byte[] a = textConst.evalText(ctx);
        if (ctx.isNull) {
            return Literal.ofNull(target);
        }
        int off = ctx.textOffset;
        int len = ctx.textLength;
        String s = TextBuf.string(a, off, len);
        if (target == SqlType.NUMERIC) {
            return NumericNodes.literal(s);
        }
        if (target == SqlType.DOUBLE) {
            double v = Doubles.special(s);
            if (v != 0.0) {
                return Literal.ofDouble(v); // x = 'NaN', x < 'Infinity' on a FLOAT: PostgreSQL's words
            }
        }
        if (target.isNumeric()) {
            Number n = NumberText.whole(s);
            if (n == null) {
                if (io.respsql.sql.Dialect.postgres()) { // prepared: an unknown-typed literal takes the column's type, as PostgreSQL's
                    throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION,
                            "invalid input syntax for type " + Expressions.pgName(target) + ": \"" + s + "\"");
                }
                throw new SqlException(SqlState.DATATYPE_MISMATCH, what + " cannot compare " + target.sqlName() + " with TEXT '" + s + "'");
            }
            return n instanceof Long ? Literal.ofLong(SqlType.BIGINT, n.longValue()) : Literal.ofDouble(n.doubleValue());
        }
        if (target == SqlType.INTERVAL) {
            Interval.Value v = Interval.parse(a, off, len, Interval.NONE, new Interval.Value());
            return Literal.ofInterval(Interval.encode(v.months, v.days, v.micros));
        }
        if (temporal(target)) {
            long micros = Temporal.parseTimestamp(a, off, len);
            if (micros == Temporal.INVALID) {
                micros = Temporal.special(a, off, len, target == SqlType.DATE);
                if (micros != Temporal.INVALID) {
                    return target == SqlType.DATE ? Literal.ofLong(SqlType.DATE, Temporal.timestampToDate(micros))
                            : Literal.ofLong(SqlType.TIMESTAMP, micros);
                }
            }
            if (micros == Temporal.INVALID) {
                throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid " + target.sqlName() + " value '" + s + "'");
            }
            if (Temporal.dateOnly(a, off, len)) {
                return Literal.ofLong(SqlType.DATE, Math.floorDiv(micros, Temporal.MICROS_PER_DAY));
            }
            return Literal.ofLong(SqlType.TIMESTAMP, micros);
        }
        if (target == SqlType.BOOLEAN) {
            int v = Casts.parseBoolean(a, off, len);
            if (v < 0) {
                throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid BOOLEAN value '" + s + "'");
            }
            return Literal.ofLong(SqlType.BOOLEAN, v);
        }
        throw new SqlException(SqlState.DATATYPE_MISMATCH, what + " cannot compare " + target.sqlName() + " with TEXT");
    }

    /**
     * {@code e} as a value of {@code target}, where {@code target} is {@code e}'s type or a
     * common type of it: only DATE to TIMESTAMP changes the value; integers read as doubles
     * through {@link Expression#evalDouble} and INT/BIGINT share the long carriage.
     */
    static Expression toType(Expression e, SqlType target) {
        SqlType t = e.type();
        if (t == target) {
            return e;
        }
        if (t == SqlType.NULL) {
            return Literal.ofNull(target);
        }
        if (t == SqlType.DATE && target == SqlType.TIMESTAMP) {
            return Expressions.cast(e, SqlType.TIMESTAMP);
        }
        if (target == SqlType.NUMERIC) {
            return NumericNodes.numeric(e);
        }
        return e;
    }

    /** A condition operand: BOOLEAN as is; a number is true when not zero (SQLite); others refused. */
    static Expression condition(Expression e, String what) {
        SqlType t = e.type();
        if (t == SqlType.BOOLEAN) {
            return e;
        }
        if (t == SqlType.NULL) {
            return Literal.ofNull(SqlType.BOOLEAN);
        }
        if (t.isInteger()) {
            return Expressions.binary(io.respsql.sql.tree.Expr.BinaryOp.NE, e, Literal.ofLong(SqlType.BIGINT, 0));
        }
        if (t == SqlType.DOUBLE) {
            return Expressions.binary(io.respsql.sql.tree.Expr.BinaryOp.NE, e, Literal.ofDouble(0));
        }
        throw new SqlException(SqlState.DATATYPE_MISMATCH, "argument of " + what + " must be BOOLEAN, not " + t.sqlName());
    }
}
