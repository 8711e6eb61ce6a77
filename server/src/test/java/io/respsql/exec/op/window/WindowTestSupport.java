package io.respsql.exec.op.window;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.tree.Expr.BoundKind;
import io.respsql.sql.tree.Expr.FrameUnit;
import io.respsql.storage.ColumnType;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A scan over row slots 0..n-1 of relation 0, column readers over Java arrays, and a runner. */
final class WindowTestSupport {
    static final int INPUT = 0;
    static final int OUTPUT = 1;

    private WindowTestSupport() {
    }

    /** Pushes row slots 0..rows-1 of relation {@link #INPUT}. */
    static final class Scan implements Operator {
        final int rows;

        Scan(int rows) {
            this.rows = rows;
        }

        @Override
        public boolean run(EvalContext ctx, TupleConsumer out) {
            for (int i = 0; i < rows; i++) {
                ctx.slots[INPUT] = i;
                if (!out.accept(ctx)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public long relations() {
            return 1L << INPUT;
        }

        @Override
        public void explain(List<String> lines, int depth) {
            lines.add("  ".repeat(depth) + "TestScan " + rows);
        }
    }

    /** An integer column: null entries are NULL. */
    static final class LongCol extends Expression {
        final Long[] values;
        final String name;

        LongCol(String name, SqlType type, Long... values) {
            super(type);
            this.name = name;
            this.values = values;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            Long v = values[ctx.slots[INPUT]];
            ctx.isNull = v == null;
            return v == null ? 0 : v;
        }

        @Override
        public long relations() {
            return 1L << INPUT;
        }

        @Override
        public String describe() {
            return name;
        }
    }

    static final class DoubleCol extends Expression {
        final Double[] values;

        DoubleCol(Double... values) {
            super(SqlType.DOUBLE);
            this.values = values;
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            Double v = values[ctx.slots[INPUT]];
            ctx.isNull = v == null;
            return v == null ? 0 : v;
        }

        @Override
        public long relations() {
            return 1L << INPUT;
        }

        @Override
        public String describe() {
            return "d";
        }
    }

    /** TEXT, served from the middle of a shared buffer to exercise offsets. */
    static final class TextCol extends Expression {
        final String[] values;
        final byte[] buf = new byte[256];

        TextCol(String... values) {
            super(SqlType.TEXT);
            this.values = values;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            String v = values[ctx.slots[INPUT]];
            ctx.isNull = v == null;
            if (v != null) {
                byte[] b = v.getBytes(StandardCharsets.UTF_8);
                System.arraycopy(b, 0, buf, 7, b.length);
                ctx.textOffset = 7;
                ctx.textLength = b.length;
            }
            return buf;
        }

        @Override
        public long relations() {
            return 1L << INPUT;
        }

        @Override
        public String describe() {
            return "t";
        }
    }

    static final class Const extends Expression {
        final long value;
        final double dvalue;

        Const(SqlType type, long value) {
            super(type);
            this.value = value;
            this.dvalue = value;
        }

        Const(double value) {
            super(SqlType.DOUBLE);
            this.value = 0;
            this.dvalue = value;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            ctx.isNull = type == SqlType.NULL;
            return value;
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            ctx.isNull = type == SqlType.NULL;
            return dvalue;
        }

        @Override
        public String describe() {
            return type == SqlType.DOUBLE ? Double.toString(dvalue) : Long.toString(value);
        }
    }

    static Expression lit(long v) {
        return new Const(SqlType.BIGINT, v);
    }

    static Expression nul() {
        return new Const(SqlType.NULL, 0);
    }

    static WindowFunctionSpec fn(WindowFunctionKind kind, Expression... args) {
        return new WindowFunctionSpec(kind, args, null);
    }

    static WindowFunctionSpec fn(WindowFunctionKind kind, WindowFrame frame, Expression... args) {
        return new WindowFunctionSpec(kind, args, frame);
    }

    static WindowFrame frame(FrameUnit unit, BoundKind s, Long sn, BoundKind e, Long en) {
        return new WindowFrame(unit, s, sn == null ? null : lit(sn), e, en == null ? null : lit(en));
    }

    /** What a run pushed: input slots in push order, and per input slot each function's value. */
    static final class Result {
        final List<Integer> order = new ArrayList<>();
        final Object[][] values;

        Result(int rows, int functions) {
            values = new Object[rows][functions];
        }

        /** Function {@code f}'s value for every input row, by input slot. */
        List<Object> column(int f) {
            List<Object> l = new ArrayList<>();
            for (Object[] v : values) {
                l.add(v[f]);
            }
            return l;
        }
    }

    /** Pushes the given row slots of relation {@link #INPUT}, in that order; counts what it pushed. */
    static final class OrderedScan implements Operator {
        final int[] slots;
        int pushed;

        OrderedScan(int[] slots) {
            this.slots = slots;
        }

        @Override
        public boolean run(EvalContext ctx, TupleConsumer out) {
            for (int s : slots) {
                ctx.slots[INPUT] = s;
                pushed++;
                if (!out.accept(ctx)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public long relations() {
            return 1L << INPUT;
        }

        @Override
        public void explain(List<String> lines, int depth) {
            lines.add("  ".repeat(depth) + "TestScan " + slots.length);
        }
    }

    static Result run(int rows, Expression[] partition, WindowSortKey[] order, WindowFunctionSpec... fns) {
        return run(new Scan(rows), rows, null, false, -1, partition, order, fns);
    }

    /**
     * A run over {@code input} (row slots below {@code rows}) with a top-k cut and/or grouped
     * input; {@code stopAfter} >= 0: the consumer stops after that many tuples.
     */
    static Result run(Operator input, int rows, WindowOperator.TopK topK, boolean grouped, int stopAfter,
                      Expression[] partition, WindowSortKey[] order, WindowFunctionSpec... fns) {
        List<String> names = new ArrayList<>();
        List<ColumnType> types = new ArrayList<>();
        for (int f = 0; f < fns.length; f++) {
            names.add("f" + f);
            types.add(fns[f].columnType());
        }
        Table out = new Table("w", names, types, 0);
        Set<Long> nulls = new HashSet<>();
        WindowOperator op = new WindowOperator(input, new int[] {INPUT}, partition, order, fns, out, OUTPUT, topK, grouped)
                .withStubStorage((f, row) -> nulls.add(((long) f << 32) | row));
        Result r = new Result(rows, fns.length);
        EvalContext ctx = new EvalContext(2);
        Set<Integer> seenOut = new HashSet<>();
        op.run(ctx, c -> {
            int in = c.slots[INPUT];
            int row = c.slots[OUTPUT];
            if (!seenOut.add(row)) {
                throw new AssertionError("output row " + row + " pushed twice");
            }
            r.order.add(in);
            for (int f = 0; f < fns.length; f++) {
                r.values[in][f] = nulls.contains(((long) f << 32) | row) ? null : read(out, f, row);
            }
            return stopAfter < 0 || r.order.size() < stopAfter;
        });
        return r;
    }

    private static Object read(Table t, int f, int row) {
        var c = t.column(f);
        if (c instanceof IntColumn) {
            return (long) ((IntColumn) c).get(row);
        }
        if (c instanceof LongColumn) {
            return ((LongColumn) c).get(row);
        }
        if (c instanceof DoubleColumn) {
            return ((DoubleColumn) c).get(row);
        }
        return ((TextColumn) c).getString(row);
    }

    static Expression[] parts(Expression... e) {
        return e;
    }

    static WindowSortKey[] keys(WindowSortKey... k) {
        return k;
    }

    static WindowSortKey asc(Expression e) {
        return WindowSortKey.of(e, false);
    }

    static WindowSortKey desc(Expression e) {
        return WindowSortKey.of(e, true);
    }
}
