package io.respsql.storage;

import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * Finding rows by the values of other rows, across tables: what foreign keys ask. An index keyed
 * on one of the columns is probed with the other row's key and the candidates are compared on
 * every column (text keys are prefixes). No allocation beyond the caller's list.
 */
public final class KeyMatch {
    private KeyMatch() {
    }

    /** Whether values of {@code a} and {@code b} compare (numbers with numbers, text with text). */
    public static boolean comparable(Column a, Column b) {
        return (family(a) == 2) == (family(b) == 2);
    }

    /**
     * The key in an index on {@code target} of {@code from}'s value at {@code row}: its own key
     * when both store alike, else the number converted (an integer looked up among FLOATs).
     */
    private static long keyFor(Column target, Column from, int row) {
        if (family(target) == family(from)) {
            return from.indexKey(row);
        }
        if (family(target) == 1) {
            return io.respsql.index.IndexKeys.ofDouble(from.getDouble(row));
        }
        double v = from.getDouble(row); // an integer column probed with a FLOAT: a fraction matches nothing
        return v == Math.rint(v) && Math.abs(v) < 0x1p63 ? (long) v : Long.MIN_VALUE;
    }

    private static int family(Column c) {
        switch (c.type().storedAs()) {
            case FLOAT:
                return 1;
            case TEXT:
                return 2;
            default:
                return 0;
        }
    }

    /** The index of {@code t} keyed on one of {@code cols} (a unique one when {@code unique}), or null. */
    public static TableIndex indexOn(Table t, Column[] cols, boolean unique) {
        for (TableIndex ix : t.indexes()) {
            if (unique) {
                if (ix.unique() && sameSet(ix.columnsRef(), cols)) {
                    return ix;
                }
            } else if (lead(ix, cols) >= 0) {
                return ix;
            }
        }
        return null;
    }

    /** Whether {@code a} and {@code b} hold the same columns in any order. */
    public static boolean sameSet(Column[] a, Column[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (Column x : a) {
            boolean found = false;
            for (Column y : b) {
                found |= x == y;
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    /** Which of {@code cols} the index is keyed on, or -1. */
    private static int lead(TableIndex ix, Column[] cols) {
        for (int i = 0; i < cols.length; i++) {
            if (cols[i] == ix.column()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A live row of {@code ix}'s table, other than {@code except} and not in {@code skip} (may be
     * null), whose {@code cols} equal {@code fromCols} of {@code fromRow} (none NULL), or -1.
     */
    public static int find(TableIndex ix, Column[] cols, Column[] fromCols, int fromRow, Table table, int except) {
        return probe(ix, cols, fromCols, fromRow, table, except, null);
    }

    /** Every live row of {@code ix}'s table whose {@code cols} equal {@code fromCols} of {@code fromRow}, into {@code out}. */
    public static void findAll(TableIndex ix, Column[] cols, Column[] fromCols, int fromRow, Table table, IntArrayList out) {
        probe(ix, cols, fromCols, fromRow, table, -1, out);
    }

    /**
     * The live rows other than {@code except} whose {@code cols} equal {@code fromCols} of
     * {@code fromRow}: the first one returned when {@code out} is null, else each added to
     * {@code out} (and -1 returned).
     */
    private static int probe(TableIndex ix, Column[] cols, Column[] fromCols, int fromRow, Table table, int except, IntArrayList out) {
        int k = lead(ix, cols);
        long key = keyFor(cols[k], fromCols[k], fromRow);
        io.respsql.index.LongIntBTree.Cursor cur = ix.probe();
        for (boolean ok = cur.seek(key); ok && cur.key() == key; ok = cur.next()) {
            int other = cur.row();
            if (other != except && table.isLive(other) && equal(cols, other, fromCols, fromRow)) {
                if (out == null) {
                    return other;
                }
                out.add(other);
            }
        }
        return -1;
    }

    /** Whether {@code a[i]} at {@code ra} equals {@code b[i]} at {@code rb} for every i, none NULL. */
    public static boolean equal(Column[] a, int ra, Column[] b, int rb) {
        for (int i = 0; i < a.length; i++) {
            Column x = a[i];
            Column y = b[i];
            if (x.isNull(ra) || y.isNull(rb)) {
                return false;
            }
            switch (Math.max(family(x), family(y)) == 2 ? 2 : family(x) == 1 || family(y) == 1 ? 1 : 0) {
                case 1:
                    if (x.getDouble(ra) != y.getDouble(rb)) {
                        return false;
                    }
                    break;
                case 2:
                    if (((TextColumn) x).compareRows(ra, (TextColumn) y, rb) != 0) {
                        return false;
                    }
                    break;
                default:
                    if (x.getLong(ra) != y.getLong(rb)) {
                        return false;
                    }
            }
        }
        return true;
    }
}
