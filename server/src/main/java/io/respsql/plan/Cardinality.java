package io.respsql.plan;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.Column;
import io.respsql.storage.TableIndex;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Row estimates for join planning (one instance per planned block). A table's row count is
 * exact; a column's distinct values come from its index (a unique index: one per row; otherwise
 * the keys of a sorted prefix of the index, scaled up: the prefix holds the same share of the
 * keys as of the entries when they are evenly spread), else are guessed as one per ten rows.
 * A condition's selectivity: {@code col = constant} one over the column's distinct values
 * ({@value #EQ} without an index), IN that times the list's length, a range on an integer index
 * interpolated between its smallest and largest key, else fixed defaults; the terms of one
 * relation are taken as independent.
 */
final class Cardinality {
    static final double EQ = 0.1;
    static final double RANGE = 1.0 / 3;
    static final double BETWEEN = 0.25;
    static final double OTHER = 0.25;
    /** A derived table, view or VALUES list: its size is not known before it runs. */
    static final double NOT_A_TABLE = 1000;
    private static final int SAMPLE = 512;

    private final Map<Column, Double> distinct = new IdentityHashMap<>();
    private final Map<Column, long[]> bounds = new IdentityHashMap<>();
    private final EvalContext ctx = new EvalContext(QueryBinder.MAX_RELATIONS);

    /** The relation's rows before any condition. */
    double tableRows(Relation r) {
        return r.kind == Relation.Kind.TABLE ? Math.max(1, r.table.rowCount()) : NOT_A_TABLE;
    }

    /** The relation's rows after {@code own} (conditions on it alone). */
    double rows(Relation r, List<Conjunct> own) {
        double sel = 1;
        for (Conjunct c : own) {
            sel *= selectivity(r, c);
        }
        return Math.max(1, tableRows(r) * sel);
    }

    private double selectivity(Relation r, Conjunct c) {
        if (c.orBranches != null) {
            double s = 0;
            for (List<Conjunct> branch : c.orBranches) {
                double b = 1;
                for (Conjunct x : branch) {
                    b *= selectivity(r, x);
                }
                s += b;
            }
            return Math.min(1, s);
        }
        double best = OTHER;
        boolean found = false;
        for (Conjunct.Sarg sa : c.sargs) {
            if (sa.relation != r || (sa.valueRels & r.bit()) != 0) {
                continue;
            }
            double s = switch (sa.op) {
                case EQ -> eq(r, sa.column);
                case IN -> Math.min(1, sa.values.length * eq(r, sa.column));
                case BETWEEN -> range(r, sa.column, sa.values[0], sa.values[1], BETWEEN);
                case GT, GE -> range(r, sa.column, sa.values[0], null, RANGE);
                default -> range(r, sa.column, null, sa.values[0], RANGE);
            };
            best = found ? Math.min(best, s) : s;
            found = true;
        }
        return best;
    }

    private double eq(Relation r, Column c) {
        return index(r, c) == null ? EQ : 1 / distinct(r, c);
    }

    /** Distinct values of column {@code c} of {@code r} (at least 1, at most its rows). */
    double distinct(Relation r, Column c) {
        double n = tableRows(r);
        TableIndex ix = index(r, c);
        if (ix == null) {
            return Math.max(1, n / 10);
        }
        if (ix.unique()) {
            return n;
        }
        Double d = distinct.get(c);
        if (d == null) {
            d = Math.max(1, Math.min(n, sampleDistinct(ix.tree())));
            distinct.put(c, d);
        }
        return d;
    }

    private static double sampleDistinct(LongIntBTree tree) {
        LongIntBTree.Cursor cur = tree.cursor();
        if (!cur.first()) {
            return 1;
        }
        int seen = 0;
        int keys = 0;
        long last = 0;
        boolean more = true;
        for (; more && seen < SAMPLE; more = cur.next()) {
            long k = cur.key();
            if (seen == 0 || k != last) {
                keys++;
                last = k;
            }
            seen++;
        }
        return more ? (double) keys * tree.size() / seen : keys;
    }

    /** A range's share of the rows: interpolated over an integer index's key span, else {@code fallback}. */
    private double range(Relation r, Column c, Expression low, Expression high, double fallback) {
        TableIndex ix = index(r, c);
        if (ix == null || !c.type().isInteger() || (low != null && !low.isConstant()) || (high != null && !high.isConstant())) {
            return fallback;
        }
        long[] b = bounds.get(c);
        if (b == null) {
            LongIntBTree.Cursor cur = ix.tree().cursor();
            if (!cur.first()) {
                return fallback;
            }
            long min = cur.key();
            cur.last();
            b = new long[]{min, cur.key()};
            bounds.put(c, b);
        }
        double lo = b[0];
        double hi = b[1];
        try {
            if (low != null) {
                double v = low.evalDouble(ctx);
                if (ctx.isNull) {
                    return fallback; // NULL (or a parameter not bound yet): no share known
                }
                lo = Math.max(lo, v);
            }
            if (high != null) {
                double v = high.evalDouble(ctx);
                if (ctx.isNull) {
                    return fallback;
                }
                hi = Math.min(hi, v);
            }
        } catch (RuntimeException e) { // a constant that fails to evaluate fails at run time, not here
            return fallback;
        }
        double span = (double) b[1] - b[0] + 1;
        return Math.max(0, Math.min(1, (hi - lo + 1) / span));
    }

    private static TableIndex index(Relation r, Column c) {
        return r.kind == Relation.Kind.TABLE ? AccessPlanner.indexOn(r.table, c) : null;
    }
}
