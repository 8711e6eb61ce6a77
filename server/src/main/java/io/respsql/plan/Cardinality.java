package io.respsql.plan;

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
 * ({@value #EQ} without an index), IN that times the list's length, ranges and other terms fixed
 * defaults; the terms of one relation are taken as independent. No estimate reads a constant's
 * value: the plan cache plans {@code v < 49} once for every value, and the plan must not depend on
 * which value came first.
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
                case BETWEEN -> BETWEEN;
                default -> RANGE;
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

    private static TableIndex index(Relation r, Column c) {
        return r.kind == Relation.Kind.TABLE ? AccessPlanner.indexOn(r.table, c) : null;
    }
}
