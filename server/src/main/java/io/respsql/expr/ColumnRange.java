package io.respsql.expr;

import io.respsql.sql.tree.Expr.BinaryOp;
import io.respsql.storage.TextColumn;

/**
 * The batch form of "column within constant bounds" (a comparison with a constant, BETWEEN
 * constants, and their negations): one tight loop over a selection vector reading the column's
 * chunks directly. A NULL value never passes, negated or not (3VL).
 */
final class ColumnRange {
    final ColumnRef col;
    // the bounds, read by the typed refs' loops (IntRef.filterRange, ...)
    final boolean negate;
    long lo = Long.MIN_VALUE;
    long hi = Long.MAX_VALUE;
    double dlo = Double.NEGATIVE_INFINITY;
    double dhi = Double.POSITIVE_INFINITY;
    /** No upper bound on a DOUBLE column: NaN (above +Infinity in PostgreSQL's order) is in. */
    boolean dhiOpen = true;
    boolean loInc = true;
    boolean hiInc = true;
    private byte[] tlo;
    private byte[] thi;
    /** An integer bound past the 64-bit range (v < MIN, v > MAX): nothing is in. */
    boolean empty;

    private ColumnRange(ColumnRef col, boolean negate) {
        this.col = col;
        this.negate = negate;
    }

    /** Whether a constant of type {@code t} can bound a column of this kind in a tight loop. */
    private static boolean fits(ColumnRef col, Expression k) {
        if (!(k instanceof Literal) || ((Literal) k).nullValue) {
            return false;
        }
        SqlType t = k.type();
        if (col instanceof IntRef || col instanceof LongRef) {
            return t.isLongCarried();
        }
        if (col instanceof DoubleRef) {
            return t.isNumeric() || t == SqlType.BOOLEAN;
        }
        if (col instanceof ColumnRef.TextRef) {
            return t == SqlType.TEXT && col.type() == SqlType.TEXT;
        }
        return false;
    }

    /** {@code col op k}, or null when there is no tight loop for it. */
    static ColumnRange compare(Expression left, BinaryOp op, Expression right) {
        if (!(left instanceof ColumnRef) || !fits((ColumnRef) left, right)) {
            return null;
        }
        ColumnRef col = (ColumnRef) left;
        Literal k = (Literal) right;
        ColumnRange r = new ColumnRange(col, op == BinaryOp.NE);
        if (col instanceof ColumnRef.TextRef) {
            switch (op) {
                case EQ: case NE: r.tlo = k.text; r.thi = k.text; break;
                case LT: r.thi = k.text; r.hiInc = false; break;
                case LE: r.thi = k.text; break;
                case GT: r.tlo = k.text; r.loInc = false; break;
                default: r.tlo = k.text; break;
            }
        } else if (col instanceof DoubleRef) {
            double v = k.type() == SqlType.DOUBLE ? k.doubleValue : k.longValue;
            switch (op) {
                case EQ: case NE: r.dlo = v; r.dhi = v; r.dhiOpen = false; break;
                case LT: r.dhi = v; r.hiInc = false; r.dhiOpen = false; break;
                case LE: r.dhi = v; r.dhiOpen = false; break;
                case GT: r.dlo = v; r.loInc = false; break;
                default: r.dlo = v; break;
            }
        } else {
            long v = k.longValue;
            switch (op) {
                case EQ: case NE: r.lo = v; r.hi = v; break;
                case LT: r.empty = v == Long.MIN_VALUE; r.hi = v - 1; break;
                case LE: r.hi = v; break;
                case GT: r.empty = v == Long.MAX_VALUE; r.lo = v + 1; break;
                default: r.lo = v; break;
            }
        }
        return r;
    }

    /** {@code col [NOT] BETWEEN lo AND hi}, or null. */
    static ColumnRange between(Expression e, Expression low, Expression high, boolean negated) {
        if (!(e instanceof ColumnRef) || !fits((ColumnRef) e, low) || !fits((ColumnRef) e, high)) {
            return null;
        }
        ColumnRef col = (ColumnRef) e;
        Literal l = (Literal) low;
        Literal h = (Literal) high;
        ColumnRange r = new ColumnRange(col, negated);
        if (col instanceof ColumnRef.TextRef) {
            r.tlo = l.text;
            r.thi = h.text;
        } else if (col instanceof DoubleRef) {
            r.dlo = l.type() == SqlType.DOUBLE ? l.doubleValue : l.longValue;
            r.dhi = h.type() == SqlType.DOUBLE ? h.doubleValue : h.longValue;
            r.dhiOpen = false;
        } else {
            r.lo = l.longValue;
            r.hi = h.longValue;
        }
        return r;
    }

    int filter(int[] sel, int n) {
        if (col instanceof ColumnRef.TextRef) {
            return filterText((TextColumn) col.column, sel, n);
        }
        return col.filterRange(this, sel, n); // IntRef, LongRef, DoubleRef: a loop of the column's type
    }

    /** {@code col = k} / {@code col <> k}: one reference read per row, the length compared before any byte. */
    private int filterTextPoint(TextColumn c, int[] sel, int n) {
        boolean nulls = c.mayHaveNulls();
        boolean want = !negate;
        byte[] k = tlo;
        int klen = k.length;
        int kept = 0;
        for (int i = 0; i < n; i++) {
            int s = sel[i];
            if (nulls && c.isNull(s)) {
                continue;
            }
            long ref = c.refOf(s);
            boolean in;
            if (ref == TextColumn.EMPTY_REF) {
                in = klen == 0;
            } else {
                byte[] a = c.refBytes(ref);
                int len = TextColumn.refLength(a, ref);
                int off = TextColumn.refOffset(ref);
                in = len == klen && java.util.Arrays.equals(a, off, off + len, k, 0, klen);
            }
            if (in == want) {
                sel[kept++] = s;
            }
        }
        return kept;
    }

    private int filterText(TextColumn c, int[] sel, int n) {
        boolean nulls = c.mayHaveNulls();
        boolean want = !negate;
        boolean point = tlo != null && tlo == thi;
        if (point) {
            return filterTextPoint(c, sel, n);
        }
        int kept = 0;
        for (int i = 0; i < n; i++) {
            int s = sel[i];
            if (nulls && c.isNull(s)) {
                continue;
            }
            boolean in;
            if (point) {
                in = c.equalsBytes(s, tlo);
            } else {
                in = true;
                if (tlo != null) {
                    int cmp = c.compareTo(s, tlo);
                    in = loInc ? cmp >= 0 : cmp > 0;
                }
                if (in && thi != null) {
                    int cmp = c.compareTo(s, thi);
                    in = hiInc ? cmp <= 0 : cmp < 0;
                }
            }
            if (in == want) {
                sel[kept++] = s;
            }
        }
        return kept;
    }
}
