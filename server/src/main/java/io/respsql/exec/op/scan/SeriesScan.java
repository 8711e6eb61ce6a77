package io.respsql.exec.op.scan;

import io.respsql.exec.op.CancelCheck;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.Outputs;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.Interval;
import io.respsql.expr.Numeric;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Column;
import io.respsql.storage.Table;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code generate_series(start, stop [, step])} in FROM (PostgreSQL): integers (INT or BIGINT), NUMERIC,
 * or timestamps stepped by an INTERVAL. Its arguments are evaluated when the run starts (they may read
 * outer rows: a correlated subquery's series); each value is written into a new row of the work table,
 * {@code ctx.slots[relation]} set to it, and pushed at once, so a consumer that stops (LIMIT) stops the
 * series. NULL arguments give no rows; a zero step is an error (22023); more than {@code maxRows} rows
 * stop it (54000) rather than filling memory. Integer and timestamp series allocate nothing per row;
 * a NUMERIC series goes through BigDecimal.
 */
public final class SeriesScan implements Operator {
    public enum Kind { INTEGER, NUMERIC, TIMESTAMP, /** unnest(array): {@code start} is the array (arrays). */ ARRAY }

    private final Kind kind;
    private final Expression start;
    private final Expression stop;
    private final Expression step;
    private final Table work;
    private final int relation;
    private final long maxRows;

    public SeriesScan(Kind kind, Expression start, Expression stop, Expression step, Table work, int relation, long maxRows) {
        this.kind = kind;
        this.start = start;
        this.stop = stop;
        this.step = step;
        this.work = work;
        this.relation = relation;
        this.maxRows = maxRows;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        Outputs.clear(work);
        switch (kind) {
            case INTEGER:
                return integers(ctx, out);
            case TIMESTAMP:
                return timestamps(ctx, out);
            case ARRAY:
                return elements(ctx, out);
            default:
                return numerics(ctx, out);
        }
    }

    // ---- arrays ----

    /** unnest(array): one row per element, in storage order (every dimension flattened), NULLs included. */
    private boolean elements(EvalContext ctx, TupleConsumer out) {
        byte[] b = start.evalText(ctx);
        if (ctx.isNull) {
            return true;
        }
        io.respsql.expr.PgArray.Value v = io.respsql.expr.PgArray.read(b, ctx.textOffset, ctx.textLength);
        io.respsql.expr.SqlType elem = start.type().element();
        Column c = work.column(0);
        CancelCheck check = CancelCheck.of(ctx);
        for (String s : v.items) {
            int row = work.allocateRow();
            if (s == null) {
                Outputs.writeNull(c, row);
            } else {
                switch (elem) {
                    case INT, BIGINT -> Outputs.writeLong(c, row, Long.parseLong(s));
                    case BOOLEAN -> Outputs.writeLong(c, row, s.equals("t") ? 1 : 0);
                    case DOUBLE -> Outputs.writeDouble(c, row, switch (s) {
                        case "NaN" -> Double.NaN;
                        case "Infinity" -> Double.POSITIVE_INFINITY;
                        case "-Infinity" -> Double.NEGATIVE_INFINITY;
                        default -> Double.parseDouble(s);
                    });
                    case DATE, TIMESTAMP -> {
                        byte[] t = s.getBytes(StandardCharsets.UTF_8);
                        boolean date = elem == io.respsql.expr.SqlType.DATE;
                        long x = date ? io.respsql.expr.Temporal.parseDate(t, 0, t.length) : io.respsql.expr.Temporal.parseTimestamp(t, 0, t.length);
                        if (x == io.respsql.expr.Temporal.INVALID) {
                            x = io.respsql.expr.Temporal.special(t, 0, t.length, date);
                            x = date ? Math.floorDiv(x, io.respsql.expr.Temporal.MICROS_PER_DAY) : x;
                        }
                        Outputs.writeLong(c, row, x);
                    }
                    default -> {
                        byte[] t = s.getBytes(StandardCharsets.UTF_8);
                        Outputs.writeText(c, row, t, 0, t.length);
                    }
                }
            }
            ctx.slots[relation] = row;
            if (!out.accept(ctx)) {
                return false;
            }
            if (check != null) {
                check.add(1);
            }
        }
        return true;
    }

    private static SqlException zeroStep() {
        return new SqlException(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
    }

    private SqlException tooMany() {
        return new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "generate_series made more than " + maxRows
                + " rows: stopped (narrow the range or the step)");
    }

    private boolean integers(EvalContext ctx, TupleConsumer out) {
        long a = start.evalLong(ctx);
        if (ctx.isNull) {
            return true;
        }
        long b = stop.evalLong(ctx);
        if (ctx.isNull) {
            return true;
        }
        long s = 1;
        if (step != null) {
            s = step.evalLong(ctx);
            if (ctx.isNull) {
                return true;
            }
        }
        if (s == 0) {
            throw zeroStep();
        }
        if (s > 0 ? a > b : a < b) {
            return true;
        }
        // rows = (b - a) / s + 1, in unsigned arithmetic of the distance (no overflow for any pair)
        long distance = s > 0 ? b - a : a - b;
        long count = Long.divideUnsigned(distance, s > 0 ? s : -s); // rows - 1, unsigned
        Column c = work.column(0);
        CancelCheck check = CancelCheck.of(ctx);
        long v = a;
        for (long i = 0; Long.compareUnsigned(i, count) <= 0; i++) {
            if (i >= maxRows) {
                throw tooMany(); // only when reached: an outer LIMIT may stop a long series first
            }
            int row = work.allocateRow();
            Outputs.writeLong(c, row, v);
            ctx.slots[relation] = row;
            if (!out.accept(ctx)) {
                return false;
            }
            if (check != null) {
                check.add(1);
            }
            v += s;
        }
        return true;
    }

    private boolean timestamps(EvalContext ctx, TupleConsumer out) {
        long a = start.evalLong(ctx);
        if (ctx.isNull) {
            return true;
        }
        long b = stop.evalLong(ctx);
        if (ctx.isNull) {
            return true;
        }
        byte[] iv = step.evalText(ctx);
        if (ctx.isNull) {
            return true;
        }
        int off = ctx.textOffset;
        long months = Interval.months(iv, off);
        long days = Interval.days(iv, off);
        long micros = Interval.micros(iv, off);
        double sign = Interval.epoch(months, days, micros);
        if (sign == 0) {
            throw zeroStep();
        }
        if (io.respsql.expr.Temporal.infiniteTimestamp(a) && (sign > 0 ? a <= b : a >= b)) {
            // infinity plus a step is infinity again: the series would never end (PostgreSQL loops until a LIMIT)
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "start value cannot be infinity");
        }
        Column c = work.column(0);
        CancelCheck check = CancelCheck.of(ctx);
        long n = 0;
        for (long v = a; sign > 0 ? v <= b : v >= b; v = Interval.addToTimestamp(v, months, days, micros)) {
            if (++n > maxRows) {
                throw tooMany();
            }
            int row = work.allocateRow();
            Outputs.writeLong(c, row, v);
            ctx.slots[relation] = row;
            if (!out.accept(ctx)) {
                return false;
            }
            if (check != null) {
                check.add(1);
            }
        }
        return true;
    }

    private BigDecimal numeric(Expression e, EvalContext ctx) {
        long u = e.evalNumeric(ctx);
        if (ctx.isNull) {
            return null;
        }
        BigDecimal big = ctx.numBig;
        if (big == Numeric.NAN) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "start, stop and step values cannot be NaN");
        }
        return big != null ? big : BigDecimal.valueOf(u, ctx.numScale);
    }

    private boolean numerics(EvalContext ctx, TupleConsumer out) {
        BigDecimal a = numeric(start, ctx);
        BigDecimal b = a == null ? null : numeric(stop, ctx);
        BigDecimal s = step == null ? BigDecimal.ONE : b == null ? null : numeric(step, ctx);
        if (a == null || b == null || s == null) {
            return true;
        }
        if (s.signum() == 0) {
            throw zeroStep();
        }
        Column c = work.column(0);
        CancelCheck check = CancelCheck.of(ctx);
        long n = 0;
        int scale = Math.max(a.scale(), s.scale()); // PostgreSQL: the values keep the larger of start's and step's scales
        for (BigDecimal v = a.setScale(scale); s.signum() > 0 ? v.compareTo(b) <= 0 : v.compareTo(b) >= 0; v = v.add(s)) {
            if (++n > maxRows) {
                throw tooMany();
            }
            int row = work.allocateRow();
            byte[] text = v.toPlainString().getBytes(StandardCharsets.US_ASCII);
            Outputs.writeText(c, row, text, 0, text.length);
            ctx.slots[relation] = row;
            if (!out.accept(ctx)) {
                return false;
            }
            if (check != null) {
                check.add(1);
            }
        }
        return true;
    }

    @Override
    public long relations() {
        return 1L << relation;
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + "generate_series (" + kind.name().toLowerCase(java.util.Locale.ROOT) + ")");
    }
}
