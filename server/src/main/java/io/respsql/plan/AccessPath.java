package io.respsql.plan;

import io.respsql.expr.Predicate;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;

import java.util.List;

/**
 * How a statement reaches the rows of one table: probe an index for a few keys, walk an index
 * range, take the union of several such paths (for OR), or scan every live row. Rows it yields
 * still have to pass {@link #residual}, the part of WHERE the path does not decide by itself.
 */
public final class AccessPath {
    public enum Kind { FULL_SCAN, KEY_PROBE, KEY_RANGE, UNION, EMPTY }

    public final Kind kind;
    public final Table table;
    public final TableIndex index;
    /** KEY_PROBE: distinct keys in ascending order. */
    public final long[] keys;
    /** KEY_RANGE: inclusive key bounds. */
    public final long lo;
    public final long hi;
    public final List<AccessPath> parts;
    /** Rows come out in index-key order (walked backwards when {@link #descending}). */
    public final boolean ordered;
    public final boolean descending;
    public final Predicate residual;
    /** The condition the index serves, for EXPLAIN. */
    public final String condition;

    private AccessPath(Kind kind, Table table, TableIndex index, long[] keys, long lo, long hi, List<AccessPath> parts,
                       boolean ordered, boolean descending, Predicate residual, String condition) {
        this.kind = kind;
        this.table = table;
        this.index = index;
        this.keys = keys;
        this.lo = lo;
        this.hi = hi;
        this.parts = parts;
        this.ordered = ordered;
        this.descending = descending;
        this.residual = residual;
        this.condition = condition;
    }

    public static AccessPath scan(Table t, Predicate residual) {
        return new AccessPath(Kind.FULL_SCAN, t, null, null, 0, 0, null, false, false, residual, null);
    }

    public static AccessPath empty(Table t, String condition) {
        return new AccessPath(Kind.EMPTY, t, null, null, 0, 0, null, true, false, Predicate.TRUE, condition);
    }

    public static AccessPath probe(Table t, TableIndex ix, long[] keys, Predicate residual, String condition) {
        return new AccessPath(Kind.KEY_PROBE, t, ix, keys, 0, 0, null, false, false, residual, condition);
    }

    public static AccessPath range(Table t, TableIndex ix, long lo, long hi, Predicate residual, String condition) {
        return new AccessPath(Kind.KEY_RANGE, t, ix, null, lo, hi, null, false, false, residual, condition);
    }

    public static AccessPath union(Table t, List<AccessPath> parts, Predicate residual) {
        return new AccessPath(Kind.UNION, t, null, null, 0, 0, parts, false, false, residual, null);
    }

    /** The same path delivering rows in key order, ascending or descending. */
    public AccessPath inOrder(boolean desc) {
        return new AccessPath(kind, table, index, keys, lo, hi, parts, true, desc, residual, condition);
    }

    public boolean usesIndex() {
        return kind == Kind.KEY_PROBE || kind == Kind.KEY_RANGE || kind == Kind.UNION;
    }

    public String describe() {
        String base;
        switch (kind) {
            case FULL_SCAN:
                base = "full scan of " + table.name();
                break;
            case EMPTY:
                base = "no rows can match (" + condition + ")";
                break;
            case KEY_PROBE:
                base = (index.isPrimary() ? "primary key probe" : "index probe") + " on " + table.name() + " using "
                        + index.name() + " (" + condition + ")";
                break;
            case KEY_RANGE:
                base = (index.isPrimary() ? "primary key range" : "index range") + " on " + table.name() + " using "
                        + index.name() + " (" + condition + ")";
                break;
            default:
                StringBuilder sb = new StringBuilder("union of ");
                for (int i = 0; i < parts.size(); i++) {
                    sb.append(i == 0 ? "" : " + ").append('[').append(parts.get(i).describe()).append(']');
                }
                base = sb.toString();
        }
        if (ordered && kind != Kind.EMPTY && index != null) {
            base += descending ? ", in descending key order" : ", in key order";
        }
        if (residual != Predicate.TRUE) {
            base += "; filter " + residual.describe();
        }
        return base;
    }
}
