package io.respsql.exec.write;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.Interval;
import io.respsql.expr.Numeric;
import io.respsql.expr.SqlType;
import io.respsql.result.ShortestDouble;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * How the values of one SQL type become values of one column, exactly or not at all
 * ({@link ValueRules}' rules and messages). Which conversion applies is decided once, from the
 * column's type and the bound expression's, where the value is bound (plan.WritePlanner: an
 * UPDATE's SET value, an INSERT ... SELECT's outputs; a DEFAULT) and kept in the plan; a run
 * evaluates, converts and checks (out of range, not valid for the column, too long for
 * varchar(n)) without asking either type again.
 */
public final class Conversion {
    /** The conversions, by the value's type; a NUMERIC column's values, whatever their type, by {@code DECIMAL}. */
    private enum Kind { DECIMAL, FROM_NUMERIC, FROM_NULL, FROM_DOUBLE, FROM_TEXT_CARRIED, FROM_ARRAY, FROM_LONG }

    private final Column column;
    private final ColumnType to;
    private final SqlType from;
    private final Kind kind;
    private final int modifier;
    /** A TEXT column with a declared length (varchar(n), char(n)): the value is fitted to it ({@link ValueRules#fitLength}). */
    private final boolean fitted;

    private Conversion(Column column, SqlType from) {
        this.column = column;
        this.to = column.type();
        this.from = from;
        this.modifier = column.typeModifier();
        this.fitted = to == ColumnType.TEXT && modifier >= 0;
        this.kind = to.isDecimal() ? Kind.DECIMAL : from.isArray() ? Kind.FROM_ARRAY : switch (from) {
            case NUMERIC -> Kind.FROM_NUMERIC;
            case NULL -> Kind.FROM_NULL;
            case DOUBLE -> Kind.FROM_DOUBLE;
            case INTERVAL, TEXT -> Kind.FROM_TEXT_CARRIED;
            default -> Kind.FROM_LONG;
        };
    }

    /** The conversion of {@code x}'s values (a bound expression: its type is known) into column {@code c}. */
    public static Conversion of(Column c, Expression x) {
        return new Conversion(c, x.type());
    }

    /**
     * {@code x}'s value in {@code ctx} as a value of the column, into {@code out}; {@code shown} is
     * how it was written (errors), or null to show the value itself. {@code x} is of the type this
     * conversion was made for.
     */
    public void convert(Expression x, EvalContext ctx, String shown, Cell out) {
        switch (kind) {
            case DECIMAL -> decimal(x, ctx, out);
            case FROM_NUMERIC -> fromNumeric(x, ctx, out);
            case FROM_NULL -> out.setNull();
            case FROM_DOUBLE -> {
                double d = x.evalDouble(ctx);
                if (ctx.isNull) {
                    out.setNull();
                } else {
                    fromDouble(d, shown, out);
                }
            }
            case FROM_TEXT_CARRIED -> fromTextCarried(x, ctx, shown, out);
            case FROM_ARRAY -> fromArray(x, ctx, shown, out);
            default -> {
                long v = x.evalLong(ctx);
                if (ctx.isNull) {
                    out.setNull();
                } else {
                    fromLong(v, shown, out);
                }
            }
        }
        if (fitted) {
            ValueRules.fitLength(column, out);
        }
    }

    /** arrays: as they are into a column of their type, else read as the column's. */
    private void fromArray(Expression x, EvalContext ctx, String shown, Cell out) {
        byte[] b = x.evalText(ctx);
        if (ctx.isNull) {
            out.setNull();
            return;
        }
        if (to.isArray() && io.respsql.expr.Expressions.arrayTypeOfStorage(to) == from || to == ColumnType.TEXT) {
            out.setText(Arrays.copyOfRange(b, ctx.textOffset, ctx.textOffset + ctx.textLength));
        } else if (to.isArray()) {
            ValueRules.quoted(column, new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8), shown, out);
        } else {
            throw new SqlException(SqlState.DATATYPE_MISMATCH, "column \"" + column.name() + "\" is of type "
                    + to.name().toLowerCase(java.util.Locale.ROOT) + " but expression is of type "
                    + io.respsql.expr.Expressions.pgName(from));
        }
    }

    private void decimal(Expression x, EvalContext ctx, Cell out) {
        long u = Numeric.evalForColumn(x, ctx, modifier);
        if (ctx.isNull) {
            out.setNull();
        } else if (to == ColumnType.NUMERIC) {
            // p <= 18: the long form at the column's scale; NaN as its sentinel
            out.setLong(ctx.numBig == Numeric.NAN ? Numeric.STORED_NAN : u);
        } else {
            out.setText(Numeric.textBytes(u, ctx));
        }
    }

    private void fromNumeric(Expression x, EvalContext ctx, Cell out) {
        long u = x.evalNumeric(ctx);
        if (ctx.isNull) {
            out.setNull();
        } else if (to == ColumnType.TEXT) {
            out.setText(Numeric.textBytes(u, ctx));
        } else if (to == ColumnType.FLOAT) {
            out.setDouble(Numeric.doubleOf(u, ctx));
        } else if (to.isInteger()) {
            out.setLong(Numeric.longOf(u, ctx, to == ColumnType.INT ? 32 : 64));
        } else {
            throw new SqlException(SqlState.DATATYPE_MISMATCH, "column \"" + column.name() + "\" cannot take a numeric value");
        }
    }

    /** A TEXT or INTERVAL value (both carried as bytes, {@code SqlType.isTextCarried}). */
    private void fromTextCarried(Expression x, EvalContext ctx, String shown, Cell out) {
        byte[] b = x.evalText(ctx);
        if (ctx.isNull) {
            out.setNull();
            return;
        }
        boolean interval = from == SqlType.INTERVAL;
        if (to == (interval ? ColumnType.INTERVAL : ColumnType.TEXT)) {
            out.setText(Arrays.copyOfRange(b, ctx.textOffset, ctx.textOffset + ctx.textLength));
        } else if (interval) {
            String s = Interval.toString(b, ctx.textOffset);
            if (to != ColumnType.TEXT) {
                throw ValueRules.notValid(column, shown != null ? shown : "'" + s + "'");
            }
            out.setText(s.getBytes(StandardCharsets.UTF_8));
        } else {
            String s = new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8);
            ValueRules.quoted(column, s, shown != null ? shown : "'" + s + "'", out);
        }
    }

    private void fromDouble(double d, String shown, Cell out) {
        switch (to) {
            case FLOAT:
                out.setDouble(d); // NaN and ±Infinity are FLOAT values (PostgreSQL); overflowing arithmetic is refused where it happens
                return;
            case INT:
            case BIGINT:
                out.setLong(ValueRules.toInteger(column, d, shown));
                return;
            case TEXT:
                out.setText(ShortestDouble.text(d).getBytes(StandardCharsets.UTF_8));
                return;
            default:
                throw ValueRules.notValid(column, shown != null ? shown : Double.toString(d));
        }
    }

    private void fromLong(long v, String shown, Cell out) {
        boolean temporal = from == SqlType.DATE || from == SqlType.TIMESTAMP;
        switch (to) {
            case INT:
            case BIGINT:
            case BOOLEAN:
                if (temporal) {
                    break;
                }
                out.setLong(fits(v, shown));
                return;
            case FLOAT:
                if (temporal) {
                    break;
                }
                out.setDouble(v);
                return;
            case DATE:
                if (from == SqlType.DATE) {
                    out.setLong(v);
                    return;
                }
                break;
            case TIMESTAMP:
                if (from == SqlType.TIMESTAMP) {
                    out.setLong(v);
                    return;
                }
                if (from == SqlType.DATE) {
                    out.setLong(io.respsql.expr.Temporal.dateToTimestamp(v));
                    return;
                }
                break;
            case TEXT: {
                String s = from == SqlType.DATE ? Temporals.dateText(v)
                        : from == SqlType.TIMESTAMP ? Temporals.timestampText(v)
                        : from == SqlType.BOOLEAN ? (v != 0 ? "true" : "false") : Long.toString(v);
                out.setText(s.getBytes(StandardCharsets.UTF_8));
                return;
            }
            default:
                break;
        }
        throw ValueRules.notValid(column, shown != null ? shown : Long.toString(v));
    }

    /** {@link ValueRules#toInteger(Column, long, String)} with the column's type known: v, when the column takes it. */
    private long fits(long v, String shown) {
        if ((to == ColumnType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE))
                || (to == ColumnType.BOOLEAN && v != 0 && v != 1)) {
            return ValueRules.toInteger(column, v, shown); // throws, with its message
        }
        return v;
    }
}
