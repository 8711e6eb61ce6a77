package io.respsql.exec;

import io.respsql.index.LongIntBTree;
import io.respsql.plan.AccessPath;
import io.respsql.storage.RowAllocator;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * Walks an {@link AccessPath} and appends the row slots that pass its residual condition.
 * Work is proportional to the index entries visited, never to the table, except for a full scan.
 * Rows are collected before any write, so an UPDATE that moves rows inside the index it is
 * reading cannot visit a row twice.
 */
final class RowSource {
    private RowSource() {
    }

    /**
     * @param tuple scratch tuple; {@code tuple[slot]} is set to each candidate row
     * @param max   stop after this many rows (only meaningful when the path is ordered and exact)
     */
    static void collect(AccessPath p, int[] tuple, int slot, IntArrayList out, long max) {
        switch (p.kind) {
            case EMPTY:
                return;
            case FULL_SCAN: {
                RowAllocator rows = p.table.rows();
                for (int row = rows.nextLive(0); row >= 0 && out.size() < max; row = rows.nextLive(row + 1)) {
                    tuple[slot] = row;
                    if (p.residual.test(tuple)) {
                        out.add(row);
                    }
                }
                return;
            }
            case KEY_PROBE: {
                LongIntBTree.Cursor c = p.index.tree().cursor();
                int n = p.keys.length;
                for (int i = 0; i < n && out.size() < max; i++) {
                    long key = p.keys[p.descending ? n - 1 - i : i];
                    for (boolean ok = c.seek(key); ok && c.key() == key && out.size() < max; ok = c.next()) {
                        int row = c.row();
                        tuple[slot] = row;
                        if (p.residual.test(tuple)) {
                            out.add(row);
                        }
                    }
                }
                return;
            }
            case KEY_RANGE: {
                LongIntBTree.Cursor c = p.index.tree().cursor();
                long lo = p.lo;
                long hi = p.hi;
                if (p.descending) {
                    for (boolean ok = c.seekLast(hi); ok && c.key() >= lo && out.size() < max; ok = c.prev()) {
                        int row = c.row();
                        tuple[slot] = row;
                        if (p.residual.test(tuple)) {
                            out.add(row);
                        }
                    }
                } else {
                    for (boolean ok = c.seek(lo); ok && c.key() <= hi && out.size() < max; ok = c.next()) {
                        int row = c.row();
                        tuple[slot] = row;
                        if (p.residual.test(tuple)) {
                            out.add(row);
                        }
                    }
                }
                return;
            }
            default: { // UNION: gather every part, then drop rows matched by several branches
                int from = out.size();
                for (AccessPath part : p.parts) {
                    collect(part, tuple, slot, out, Long.MAX_VALUE);
                }
                int[] a = out.elements();
                IntArrays.quickSort(a, from, out.size());
                int w = from;
                for (int r = from; r < out.size(); r++) {
                    if (r == from || a[r] != a[w - 1]) {
                        a[w++] = a[r];
                    }
                }
                out.size(w);
                if (out.size() - from > max) {
                    out.size((int) (from + max));
                }
            }
        }
    }
}
