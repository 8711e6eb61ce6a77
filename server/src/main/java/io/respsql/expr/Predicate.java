package io.respsql.expr;

import io.respsql.protocol.RespWriter;
import io.respsql.sql.Expr.CompareOp;
import io.respsql.storage.TextColumn;

import java.util.Arrays;

/** A bound WHERE condition, tested against a row tuple without allocating. */
public abstract class Predicate {
    public abstract boolean test(int[] rows);

    public abstract String describe();

    public static final Predicate TRUE = new Predicate() {
        @Override
        public boolean test(int[] rows) {
            return true;
        }

        @Override
        public String describe() {
            return "true";
        }
    };

    static boolean holds(CompareOp op, int cmp) {
        switch (op) {
            case EQ:
                return cmp == 0;
            case NE:
                return cmp != 0;
            case LT:
                return cmp < 0;
            case LE:
                return cmp <= 0;
            case GT:
                return cmp > 0;
            default:
                return cmp >= 0;
        }
    }

    /** A comparison of two bound expressions of compatible types. */
    public static Predicate compare(CompareOp op, BoundExpr l, BoundExpr r) {
        if (l.type() == ValueType.TEXT) {
            return new TextCompare(op, l, r);
        }
        if (l.type() == ValueType.LONG && r.type() == ValueType.LONG) {
            if (l instanceof ColumnValue.IntValue && r instanceof Constant.LongValue) {
                return new IntColumnCompare(op, (ColumnValue.IntValue) l, ((Constant.LongValue) r).value);
            }
            return new LongCompare(op, l, r);
        }
        return new DoubleCompare(op, l, r);
    }

    /** The hot shape of the benchmark: {@code intColumn op constant}. */
    static final class IntColumnCompare extends Predicate {
        private final CompareOp op;
        private final ColumnValue.IntValue col;
        private final long value;

        IntColumnCompare(CompareOp op, ColumnValue.IntValue col, long value) {
            this.op = op;
            this.col = col;
            this.value = value;
        }

        @Override
        public boolean test(int[] rows) {
            return holds(op, Long.compare(col.col.get(rows[col.tableIndex]), value));
        }

        @Override
        public String describe() {
            return col.describe() + " " + op.symbol + " " + value;
        }
    }

    /** {@code l op r} over two expressions; subclasses differ only in how they compare values. */
    abstract static class Comparison extends Predicate {
        final CompareOp op;
        final BoundExpr l;
        final BoundExpr r;

        Comparison(CompareOp op, BoundExpr l, BoundExpr r) {
            this.op = op;
            this.l = l;
            this.r = r;
        }

        @Override
        public String describe() {
            return l.describe() + " " + op.symbol + " " + r.describe();
        }
    }

    static final class LongCompare extends Comparison {
        LongCompare(CompareOp op, BoundExpr l, BoundExpr r) {
            super(op, l, r);
        }

        @Override
        public boolean test(int[] rows) {
            return holds(op, Long.compare(l.evalLong(rows), r.evalLong(rows)));
        }
    }

    /** SQL order: -0.0 equals 0.0 (unlike {@link Double#compare}). */
    static final class DoubleCompare extends Comparison {
        DoubleCompare(CompareOp op, BoundExpr l, BoundExpr r) {
            super(op, l, r);
        }

        @Override
        public boolean test(int[] rows) {
            double a = l.evalDouble(rows);
            double b = r.evalDouble(rows);
            return holds(op, a < b ? -1 : (a > b ? 1 : 0));
        }
    }

    static final class TextCompare extends Comparison {
        TextCompare(CompareOp op, BoundExpr l, BoundExpr r) {
            super(op, l, r);
        }

        @Override
        public boolean test(int[] rows) {
            return holds(op, compareText(l, r, rows));
        }
    }

    static int compareText(BoundExpr l, BoundExpr r, int[] rows) {
        if (l instanceof ColumnValue.TextValue) {
            ColumnValue.TextValue a = (ColumnValue.TextValue) l;
            if (r instanceof Constant.Text) {
                return a.col.compareTo(rows[a.tableIndex], ((Constant.Text) r).bytes);
            }
            ColumnValue.TextValue b = (ColumnValue.TextValue) r;
            return a.col.compareRows(rows[a.tableIndex], b.col, rows[b.tableIndex]);
        }
        byte[] a = ((Constant.Text) l).bytes;
        if (r instanceof Constant.Text) {
            return Arrays.compareUnsigned(a, ((Constant.Text) r).bytes);
        }
        ColumnValue.TextValue b = (ColumnValue.TextValue) r;
        return -b.col.compareTo(rows[b.tableIndex], a);
    }

    public static final class And extends Predicate {
        public final Predicate left;
        public final Predicate right;

        public And(Predicate left, Predicate right) {
            this.left = left;
            this.right = right;
        }

        @Override
        public boolean test(int[] rows) {
            return left.test(rows) && right.test(rows);
        }

        @Override
        public String describe() {
            return "(" + left.describe() + " AND " + right.describe() + ")";
        }
    }

    public static final class Or extends Predicate {
        private final Predicate left;
        private final Predicate right;

        public Or(Predicate left, Predicate right) {
            this.left = left;
            this.right = right;
        }

        @Override
        public boolean test(int[] rows) {
            return left.test(rows) || right.test(rows);
        }

        @Override
        public String describe() {
            return "(" + left.describe() + " OR " + right.describe() + ")";
        }
    }

    public static final class Not extends Predicate {
        private final Predicate operand;

        public Not(Predicate operand) {
            this.operand = operand;
        }

        @Override
        public boolean test(int[] rows) {
            return !operand.test(rows);
        }

        @Override
        public String describe() {
            return "NOT " + operand.describe();
        }
    }

    /** {@code x IN (...)} over numbers: a sorted array and binary search. */
    public static final class InLongs extends Predicate {
        private final BoundExpr operand;
        private final long[] sorted;

        public InLongs(BoundExpr operand, long[] values) {
            this.operand = operand;
            this.sorted = values.clone();
            Arrays.sort(this.sorted);
        }

        @Override
        public boolean test(int[] rows) {
            return Arrays.binarySearch(sorted, operand.evalLong(rows)) >= 0;
        }

        @Override
        public String describe() {
            StringBuilder sb = new StringBuilder(operand.describe()).append(" IN (");
            for (int i = 0; i < sorted.length; i++) {
                sb.append(i == 0 ? "" : ",").append(sorted[i]);
            }
            return sb.append(')').toString();
        }
    }

    public static final class InDoubles extends Predicate {
        private final BoundExpr operand;
        private final double[] sorted;

        public InDoubles(BoundExpr operand, double[] values) {
            this.operand = operand;
            this.sorted = values.clone();
            Arrays.sort(this.sorted);
        }

        @Override
        public boolean test(int[] rows) {
            double v = operand.evalDouble(rows);
            for (double d : sorted) {
                if (d == v) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String describe() {
            StringBuilder sb = new StringBuilder(operand.describe()).append(" IN (");
            for (int i = 0; i < sorted.length; i++) {
                sb.append(i == 0 ? "" : ",").append(RespWriter.doubleText(sorted[i]));
            }
            return sb.append(')').toString();
        }
    }

    public static final class InTexts extends Predicate {
        private final ColumnValue.TextValue operand;
        private final byte[][] values;
        private final String shown;

        public InTexts(ColumnValue.TextValue operand, byte[][] values, String shown) {
            this.operand = operand;
            this.values = values;
            this.shown = shown;
        }

        @Override
        public boolean test(int[] rows) {
            TextColumn c = operand.col;
            int row = rows[operand.tableIndex];
            for (byte[] v : values) {
                if (c.equalsBytes(row, v)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String describe() {
            return operand.describe() + " IN " + shown;
        }
    }
}
