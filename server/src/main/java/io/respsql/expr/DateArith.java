package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr.BinaryOp;

/**
 * DATE ± integer and DATE - DATE in PostgreSQL's dialect, with its infinities: {@code 'infinity'}
 * and {@code '-infinity'} stay what they are when days are added or taken away, the difference of
 * an infinite date is an error ({@code cannot subtract infinite dates}), and a finite result
 * outside PostgreSQL's DATE range is {@code date out of range} (22008).
 */
final class DateArith extends BinaryNode {
    /** PostgreSQL's DATE range: 4714-11-24 BC to 5874897-12-31, as days since 1970-01-01. */
    private static final long MIN_DAYS = -2_440_588;
    private static final long MAX_DAYS = 2_145_042_905L; // JD 2147483493

    private final BinaryOp op;

    DateArith(SqlType type, BinaryOp op, Expression left, Expression right) {
        super(type, left, right);
        this.op = op;
    }

    @Override
    public long evalLong(EvalContext ctx) {
        long a = left.evalLong(ctx);
        if (ctx.isNull) {
            return 0;
        }
        long b = right.evalLong(ctx);
        if (ctx.isNull) {
            return 0;
        }
        boolean aDate = left.type() == SqlType.DATE;
        boolean bDate = right.type() == SqlType.DATE;
        if (aDate && bDate) { // DATE - DATE: days between
            if (Temporal.infiniteDate(a) || Temporal.infiniteDate(b)) {
                throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "cannot subtract infinite dates");
            }
            return a - b;
        }
        long date = aDate ? a : b;
        long n = aDate ? b : a;
        if (Temporal.infiniteDate(date)) {
            return date;
        }
        long r = op == BinaryOp.SUB ? date - n : date + n; // |n| < 2^63, |date| < 2^31: no overflow
        if (n > Integer.MAX_VALUE || n < Integer.MIN_VALUE || r < MIN_DAYS || r > MAX_DAYS) {
            throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "date out of range");
        }
        return r;
    }

    @Override
    public double evalDouble(EvalContext ctx) {
        return evalLong(ctx);
    }

    @Override
    public String describe() {
        return "(" + left.describe() + " " + op.symbol + " " + right.describe() + ")";
    }
}
