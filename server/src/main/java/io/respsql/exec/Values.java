package io.respsql.exec;

import io.respsql.expr.BoundExpr;
import io.respsql.expr.Constant;
import io.respsql.expr.ValueType;
import io.respsql.plan.Binder;
import io.respsql.sql.Expr;
import io.respsql.sql.SqlException;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;

import java.nio.charset.StandardCharsets;

/**
 * Converts literal values to what a column can store, exactly or not at all: a number that does
 * not fit an INT, a fraction for an integer column, or text for a number column is an error
 * naming the value and the column (the 2010 server stored such values as 0).
 */
final class Values {
    private Values() {
    }

    /** {@code shown} is how the value was written, or null to print the value itself (built only on error). */
    static long toInteger(Column c, long v, String shown) {
        if (c.type() == ColumnType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
            throw new SqlException("value " + (shown == null ? Long.toString(v) : shown) + " is out of range for INT column '" + c.name() + "'");
        }
        return v;
    }

    static long toInteger(Column c, double d, String shown) {
        if (d != Math.rint(d) || Double.isInfinite(d) || Math.abs(d) >= 9.223372036854775807E18) {
            throw new SqlException("value " + (shown == null ? Double.toString(d) : shown) + " is not a whole number for " + c.type() + " column '" + c.name() + "'");
        }
        return toInteger(c, (long) d, shown);
    }

    /** The value of a constant expression for integer column {@code c}. */
    static long integerLiteral(Column c, Expr e, String sql, Binder constants) {
        String integerText = e instanceof Expr.Num n && n.integral() ? n.text()
                : e instanceof Expr.Neg neg && neg.operand() instanceof Expr.Num n && n.integral() ? "-" + n.text() : null;
        if (integerText != null) {
            long v;
            try {
                v = Long.parseLong(integerText);
            } catch (NumberFormatException ex) {
                throw new SqlException("value " + integerText + " is out of range for " + c.type() + " column '" + c.name() + "'");
            }
            return toInteger(c, v, integerText);
        }
        BoundExpr b = numericConstant(c, e, sql, constants);
        String shown = sql.substring(e.start(), e.end());
        return b.type() == ValueType.LONG ? toInteger(c, b.evalLong(null), shown) : toInteger(c, b.evalDouble(null), shown);
    }

    static double floatLiteral(Column c, Expr e, String sql, Binder constants) {
        if (e instanceof Expr.Num n) {
            double d = Double.parseDouble(n.text());
            if (Double.isInfinite(d)) {
                throw new SqlException("value " + n.text() + " is out of range for FLOAT column '" + c.name() + "'");
            }
            return d;
        }
        return numericConstant(c, e, sql, constants).evalDouble(null);
    }

    /**
     * A constant for number column {@code c}: literals, constant arithmetic, or a quoted string
     * that is exactly a number ({@code '5'}). Anything else is an error naming the value.
     */
    static BoundExpr numericConstant(Column c, Expr e, String sql, Binder constants) {
        String shown = sql.substring(e.start(), e.end());
        if (e instanceof Expr.Str s) {
            // A quoted number is accepted when it is exactly a number.
            try {
                String t = s.value().trim();
                if (c.type() != ColumnType.FLOAT && t.matches("[-+]?\\d+")) {
                    return new Constant.LongValue(Long.parseLong(t));
                }
                double d = Double.parseDouble(t);
                if (!Double.isInfinite(d) && !Double.isNaN(d)) {
                    return new Constant.DoubleValue(d);
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw notNumber(c, shown);
        }
        if (e instanceof Expr.Ident || e instanceof Expr.Raw) {
            throw notNumber(c, shown);
        }
        BoundExpr b;
        try {
            b = constants.value(e);
        } catch (SqlException ex) {
            throw notNumber(c, shown);
        }
        if (b.type() == ValueType.TEXT || !b.isConstant()) {
            throw notNumber(c, shown);
        }
        return b;
    }

    private static SqlException notNumber(Column c, String shown) {
        return new SqlException("value " + shown + " is not a valid " + c.type() + " for column '" + c.name() + "'");
    }

    /** Text as stored: quoted strings unquoted, anything else verbatim as written (2010 style). */
    static byte[] textLiteral(Expr e, String sql) {
        String s = e instanceof Expr.Str str ? str.value() : sql.substring(e.start(), e.end());
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
