package io.respsql.plan;

import io.respsql.expr.BoundExpr;
import io.respsql.expr.ColumnValue;
import io.respsql.expr.Constant;
import io.respsql.expr.Predicate;
import io.respsql.expr.ValueType;
import io.respsql.index.IndexKeys;
import io.respsql.sql.Expr;
import io.respsql.sql.Expr.CompareOp;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import it.unimi.dsi.fastutil.longs.LongAVLTreeSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Chooses the access path for one table from the conjuncts of WHERE. Rules, best first:
 * primary-key probe, index probe (= or IN), primary-key range, index range, union of such paths
 * for an OR, full scan. Conjuncts an exact (numeric) index decides are not re-checked per row.
 */
public final class Planner {
    private Planner() {
    }

    /** Splits a condition into its top-level AND terms. */
    public static List<Expr> conjuncts(Expr where) {
        List<Expr> out = new ArrayList<>();
        collect(where, out);
        return out;
    }

    private static void collect(Expr e, List<Expr> out) {
        if (e == null) {
            return;
        }
        if (e instanceof Expr.And a) {
            collect(a.left(), out);
            collect(a.right(), out);
        } else {
            out.add(e);
        }
    }

    /**
     * Plans a single-table statement (or one table of a join, given only its own conjuncts).
     * {@code orderBy}/{@code descending}: a column the caller wants rows ordered by, or null.
     */
    public static AccessPath plan(Binder binder, int tableIndex, List<Expr> terms, Column orderBy, boolean descending) {
        Table table = binder.scope().table(tableIndex);
        Candidate best = null;
        List<Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < terms.size(); i++) {
            Candidate c = sargable(binder, tableIndex, terms.get(i), i);
            if (c != null) {
                candidates.add(c);
            }
        }
        // Several range terms on one column narrow one range: id >= 4 AND id <= 9.
        for (Candidate c : candidates) {
            Candidate merged = c;
            if (!c.isProbe()) {
                for (Candidate o : candidates) {
                    if (o != c && !o.isProbe() && o.index == c.index && o.termIndex > c.termIndex) {
                        merged = merged.intersect(o);
                    }
                }
            }
            if (best == null || merged.score() < best.score()) {
                best = merged;
            }
        }
        AccessPath path;
        if (best == null) {
            AccessPath union = terms.size() == 1 ? unionForOr(binder, tableIndex, terms.get(0)) : null;
            path = union != null ? union : AccessPath.scan(table, residual(binder, terms, List.of()));
        } else if (best.isEmpty()) {
            path = AccessPath.empty(table, best.condition);
        } else {
            List<Integer> consumed = best.index.exact() ? best.terms : List.of();
            Predicate residual = residual(binder, terms, consumed);
            path = best.isProbe()
                    ? AccessPath.probe(table, best.index, best.keys, residual, best.condition)
                    : AccessPath.range(table, best.index, best.lo, best.hi, residual, best.condition);
        }
        return ordered(path, orderBy, descending);
    }

    /** Uses index order for ORDER BY when the index orders exactly by that column. */
    private static AccessPath ordered(AccessPath path, Column orderBy, boolean desc) {
        if (orderBy == null) {
            return path;
        }
        if (path.kind == AccessPath.Kind.EMPTY) {
            return path;
        }
        if ((path.kind == AccessPath.Kind.KEY_RANGE || path.kind == AccessPath.Kind.KEY_PROBE)
                && path.index.column() == orderBy && path.index.exact()) {
            return path.inOrder(desc);
        }
        if (path.kind == AccessPath.Kind.FULL_SCAN) {
            TableIndex ix = path.table.indexOn(orderBy);
            if (ix != null && ix.exact()) {
                return AccessPath.range(path.table, ix, Long.MIN_VALUE, Long.MAX_VALUE, path.residual, "all keys").inOrder(desc);
            }
        }
        return path;
    }

    private static AccessPath unionForOr(Binder binder, int tableIndex, Expr term) {
        if (!(term instanceof Expr.Or)) {
            return null;
        }
        List<Expr> branches = new ArrayList<>();
        flattenOr(term, branches);
        List<AccessPath> parts = new ArrayList<>();
        for (Expr b : branches) {
            AccessPath p = plan(binder, tableIndex, conjuncts(b), null, false);
            if (!p.usesIndex() && p.kind != AccessPath.Kind.EMPTY) {
                return null;
            }
            if (p.kind != AccessPath.Kind.EMPTY) {
                parts.add(p);
            }
        }
        Table t = binder.scope().table(tableIndex);
        if (parts.isEmpty()) {
            return AccessPath.empty(t, binder.text(term));
        }
        // Each part applies its own residual; the union removes duplicates of rows matching several branches.
        return AccessPath.union(t, parts, Predicate.TRUE);
    }

    private static void flattenOr(Expr e, List<Expr> out) {
        if (e instanceof Expr.Or o) {
            flattenOr(o.left(), out);
            flattenOr(o.right(), out);
        } else {
            out.add(e);
        }
    }

    private static Predicate residual(Binder binder, List<Expr> terms, List<Integer> consumed) {
        Predicate p = null;
        for (int i = 0; i < terms.size(); i++) {
            if (consumed.contains(i)) {
                continue;
            }
            Predicate q = binder.predicate(terms.get(i));
            p = p == null ? q : new Predicate.And(p, q);
        }
        return p == null ? Predicate.TRUE : p;
    }

    // ---- recognising index-servable terms ------------------------------------------------------

    private static Candidate sargable(Binder binder, int tableIndex, Expr term, int termIndex) {
        Table table = binder.scope().table(tableIndex);
        String cond = binder.text(term);
        if (term instanceof Expr.Compare c && c.op() != CompareOp.NE) {
            BoundExpr[] lr = binder.comparable(c.left(), c.right());
            CompareOp op = c.op();
            BoundExpr col = lr[0];
            BoundExpr val = lr[1];
            if (!(col instanceof ColumnValue) && val instanceof ColumnValue) {
                col = lr[1];
                val = lr[0];
                op = op.flip();
            }
            TableIndex ix = indexFor(table, tableIndex, col);
            if (ix == null || !val.isConstant()) {
                return null;
            }
            Candidate k = Candidate.range(ix, termIndex, cond);
            if (op == CompareOp.EQ || op == CompareOp.GE || op == CompareOp.GT) {
                k.lo = lowerKey(ix.column(), val, op == CompareOp.GT, k);
            }
            if (op == CompareOp.EQ || op == CompareOp.LE || op == CompareOp.LT) {
                k.hi = upperKey(ix.column(), val, op == CompareOp.LT, k);
            }
            if (op == CompareOp.EQ && k.lo == k.hi && !k.impossible) {
                return Candidate.probe(ix, termIndex, cond, new long[] {k.lo});
            }
            return k;
        }
        if (term instanceof Expr.Between b && !b.negated()) {
            BoundExpr[] lo = binder.comparable(b.operand(), b.low());
            BoundExpr[] hi = binder.comparable(b.operand(), b.high());
            TableIndex ix = indexFor(table, tableIndex, lo[0]);
            if (ix == null || !lo[1].isConstant() || !hi[1].isConstant()) {
                return null;
            }
            Candidate k = Candidate.range(ix, termIndex, cond);
            k.lo = lowerKey(ix.column(), lo[1], false, k);
            k.hi = upperKey(ix.column(), hi[1], false, k);
            return k;
        }
        if (term instanceof Expr.In in && !in.negated()) {
            BoundExpr operand = binder.value(in.operand());
            TableIndex ix = indexFor(table, tableIndex, operand);
            if (ix == null) {
                return null;
            }
            LongAVLTreeSet keys = new LongAVLTreeSet();
            for (Expr v : in.values()) {
                BoundExpr c = operand.type() == ValueType.TEXT ? textOf(binder, v) : binder.constant(v);
                if ((c.type() == ValueType.TEXT) != (operand.type() == ValueType.TEXT)) {
                    return null; // type error: let the predicate binder report it
                }
                Candidate one = Candidate.range(ix, termIndex, cond);
                long lo = lowerKey(ix.column(), c, false, one);
                long hi = upperKey(ix.column(), c, false, one);
                if (one.impossible || lo > hi) {
                    continue; // this value cannot match (a fraction for an integer column)
                }
                if (lo != hi) {
                    return null;
                }
                keys.add(lo);
            }
            return Candidate.probe(ix, termIndex, cond, keys.toLongArray());
        }
        return null;
    }

    private static BoundExpr textOf(Binder binder, Expr v) {
        BoundExpr c = binder.constant(v);
        return c.type() == ValueType.TEXT ? c : new Constant.Text(binder.text(v));
    }

    private static TableIndex indexFor(Table table, int tableIndex, BoundExpr e) {
        if (e instanceof ColumnValue cv && cv.tableIndex == tableIndex) {
            return table.indexOn(cv.column());
        }
        return null;
    }

    /** 2^63 as a double: the first value above every long. */
    private static final double TWO_63 = 9.223372036854775807E18;

    /**
     * Smallest key a row satisfying {@code col >= v} (or {@code >} when strict) can have, or
     * {@link Candidate#IMPOSSIBLE} when no value of the column's type can satisfy it.
     */
    static long lowerKey(Column col, BoundExpr v, boolean strict, Candidate into) {
        ColumnType t = col.type();
        if (t == ColumnType.TEXT) {
            return IndexKeys.ofText(((Constant.Text) v).bytes); // prefix: inclusive, re-checked
        }
        if (t == ColumnType.FLOAT) {
            long k = IndexKeys.ofDouble(v.evalDouble(null));
            return strict ? (k == Long.MAX_VALUE ? into.impossible() : k + 1) : k;
        }
        if (v.type() == ValueType.LONG) {
            long x = v.evalLong(null);
            return strict ? (x == Long.MAX_VALUE ? into.impossible() : x + 1) : x;
        }
        double d = v.evalDouble(null);
        double c = strict ? Math.floor(d) + 1 : Math.ceil(d);
        if (c >= TWO_63) {
            return into.impossible();
        }
        return c <= -TWO_63 ? Long.MIN_VALUE : (long) c;
    }

    /** Largest key a row satisfying {@code col <= v} (or {@code <}) can have. */
    static long upperKey(Column col, BoundExpr v, boolean strict, Candidate into) {
        ColumnType t = col.type();
        if (t == ColumnType.TEXT) {
            return IndexKeys.ofText(((Constant.Text) v).bytes);
        }
        if (t == ColumnType.FLOAT) {
            long k = IndexKeys.ofDouble(v.evalDouble(null));
            return strict ? (k == Long.MIN_VALUE ? into.impossible() : k - 1) : k;
        }
        if (v.type() == ValueType.LONG) {
            long x = v.evalLong(null);
            return strict ? (x == Long.MIN_VALUE ? into.impossible() : x - 1) : x;
        }
        double d = v.evalDouble(null);
        double c = strict ? Math.ceil(d) - 1 : Math.floor(d);
        if (c < -TWO_63) {
            return into.impossible();
        }
        return c >= TWO_63 ? Long.MAX_VALUE : (long) c;
    }

    /** A term an index can serve, with the keys it reaches. */
    private static final class Candidate {
        final TableIndex index;
        final List<Integer> terms = new ArrayList<>();
        final int termIndex;
        String condition;
        long[] keys;
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        /** Some bound lies beyond every value of the column's type: nothing matches. */
        boolean impossible;

        private Candidate(TableIndex index, int termIndex, String condition) {
            this.index = index;
            this.termIndex = termIndex;
            this.condition = condition;
            terms.add(termIndex);
        }

        static Candidate range(TableIndex ix, int term, String cond) {
            return new Candidate(ix, term, cond);
        }

        static Candidate probe(TableIndex ix, int term, String cond, long[] keys) {
            Candidate c = new Candidate(ix, term, cond);
            c.keys = keys;
            return c;
        }

        boolean isProbe() {
            return keys != null;
        }

        /** Marks the candidate as matching nothing; returns a placeholder key. */
        long impossible() {
            impossible = true;
            return 0;
        }

        boolean isEmpty() {
            return impossible || (isProbe() ? keys.length == 0 : lo > hi);
        }

        Candidate intersect(Candidate o) {
            Candidate c = new Candidate(index, termIndex, condition + " AND " + o.condition);
            c.terms.clear();
            c.terms.addAll(terms);
            c.terms.addAll(o.terms);
            c.lo = Math.max(lo, o.lo);
            c.hi = Math.min(hi, o.hi);
            c.impossible = impossible || o.impossible;
            return c;
        }

        /** Lower is better: an empty result beats everything, probes beat ranges, the PK beats others. */
        int score() {
            if (isEmpty()) {
                return -1;
            }
            return (isProbe() ? 0 : 2) + (index.isPrimary() ? 0 : 1);
        }
    }
}
