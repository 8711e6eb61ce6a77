package io.respsql.expr;

import io.respsql.sql.tree.Expr.BinaryOp;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.TextColumn;

/**
 * The batch form of "column within constant bounds" (a comparison with a constant, BETWEEN
 * constants, and their negations): one tight loop over a selection vector reading the column's
 * chunks directly. A NULL value never passes, negated or not (3VL).
 */
final class ColumnRange {
    final ColumnRef col;
    private final boolean negate;
    private long lo = Long.MIN_VALUE;
    private long hi = Long.MAX_VALUE;
    private double dlo = Double.NEGATIVE_INFINITY;
    private double dhi = Double.POSITIVE_INFINITY;
    /** No upper bound on a DOUBLE column: NaN (above +Infinity in PostgreSQL's order) is in. */
    private boolean dhiOpen = true;
    private boolean loInc = true;
    private boolean hiInc = true;
    private byte[] tlo;
    private byte[] thi;
    private boolean empty;

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
        if (col instanceof ColumnRef.IntRef || col instanceof ColumnRef.LongRef) {
            return t.isLongCarried();
        }
        if (col instanceof ColumnRef.DoubleRef) {
            return t.isNumeric() || t == SqlType.BOOLEAN;
        }
        if (col instanceof ColumnRef.TextRef) {
            return t == SqlType.TEXT;
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
        } else if (col instanceof ColumnRef.DoubleRef) {
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
        } else if (col instanceof ColumnRef.DoubleRef) {
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
        if (col instanceof ColumnRef.IntRef) {
            return filterInt((IntColumn) col.column, sel, n);
        }
        if (col instanceof ColumnRef.LongRef) {
            return filterLong((LongColumn) col.column, sel, n);
        }
        if (col instanceof ColumnRef.DoubleRef) {
            return filterDouble((DoubleColumn) col.column, sel, n);
        }
        return filterText((TextColumn) col.column, sel, n);
    }

    // filterInt and filterLong are the same loop on purpose, one per column class: the per-row
    // c.get(s) stays a monomorphic, inlined array read (a shared loop over a common type would make
    // it a virtual call per row, megamorphic once INT, BIGINT and DOUBLE ranges all run).
    private int filterInt(IntColumn c, int[] sel, int n) {
        boolean nulls = c.mayHaveNulls();
        boolean want = !negate;
        long lo = this.lo;
        long hi = this.hi;
        if (empty) {
            lo = 0;
            hi = -1;
        }
        int kept = 0;
        if (!nulls) {
            // no branch on the outcome: each slot is written and kept or overwritten (a range keeping
            // a third of random values mispredicts a branch about every other row)
            for (int i = 0; i < n; i++) {
                int s = sel[i];
                long v = c.get(s);
                sel[kept] = s;
                kept += (v >= lo & v <= hi) == want ? 1 : 0;
            }
            return kept;
        }
        for (int i = 0; i < n; i++) {
            int s = sel[i];
            if (c.isNull(s)) {
                continue;
            }
            long v = c.get(s);
            if ((v >= lo && v <= hi) == want) {
                sel[kept++] = s;
            }
        }
        return kept;
    }

    private int filterLong(LongColumn c, int[] sel, int n) {
        boolean nulls = c.mayHaveNulls();
        boolean want = !negate;
        long lo = this.lo;
        long hi = this.hi;
        if (empty) {
            lo = 0;
            hi = -1;
        }
        int kept = 0;
        if (!nulls) {
            // no branch on the outcome: each slot is written and kept or overwritten (a range keeping
            // a third of random values mispredicts a branch about every other row)
            for (int i = 0; i < n; i++) {
                int s = sel[i];
                long v = c.get(s);
                sel[kept] = s;
                kept += (v >= lo & v <= hi) == want ? 1 : 0;
            }
            return kept;
        }
        for (int i = 0; i < n; i++) {
            int s = sel[i];
            if (c.isNull(s)) {
                continue;
            }
            long v = c.get(s);
            if ((v >= lo && v <= hi) == want) {
                sel[kept++] = s;
            }
        }
        return kept;
    }

    private int filterDouble(DoubleColumn c, int[] sel, int n) {
        // PostgreSQL's float8 order (Doubles): NaN equals NaN and is above everything. The bounds are
        // turned into plain compares for the non-NaN rows, and whether a NaN row is in is decided once.
        boolean loNaN = dlo != dlo;
        boolean hiNaN = !dhiOpen && dhi != dhi;
        double lo = loNaN ? Double.NaN : dlo; // a NaN lower bound: no non-NaN value reaches it (v >= NaN is false)
        double hi = dhiOpen || hiNaN ? Double.POSITIVE_INFINITY : dhi;
        boolean hiInc = dhiOpen || hiNaN || this.hiInc;
        boolean nanIn = (!loNaN || loInc) && (dhiOpen || hiNaN && this.hiInc);
        boolean nulls = c.mayHaveNulls();
        boolean want = !negate;
        int kept = 0;
        for (int i = 0; i < n; i++) {
            int s = sel[i];
            if (nulls && c.isNull(s)) {
                continue;
            }
            double v = c.get(s);
            boolean in = v == v ? (loInc ? v >= lo : v > lo) && (hiInc ? v <= hi : v < hi) : nanIn;
            if (in == want) {
                sel[kept++] = s;
            }
        }
        return kept;
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
