package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyStore;
import io.respsql.exec.op.KeyTable;
import io.respsql.exec.op.Keys;
import io.respsql.exec.op.Outputs;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;

import java.util.Arrays;

/**
 * One GROUP BY key taken a tuple at a time (the input is a join, not a scan) as a dense code:
 * equal values one code (as grouping compares them, NULL a code of its own), in first-seen order.
 *
 * <p>A key that is plainly a column of one relation whose rows never change during the run (a
 * read view's column: a background query's point-in-time capture) has a value fixed by that
 * relation's row slot, so its code is resolved once per row slot and then read from
 * {@code memo[slot]}. Over a join the key's relation is usually a dimension table whose few rows
 * recur in every joined tuple (c.tier for each order line): per tuple one int read from a small
 * array instead of reading the stored TEXT at a random row and hashing it.
 */
final class SlotKeyCoder {
    /** A memo past this many slots (64 MB) is dropped: the key's rows are too many to pay off. */
    private static final int MAX_MEMO = 1 << 24;

    private final Keys keys;
    private final KeyBuffer buf;
    final KeyStore store;
    private final KeyTable table;
    /** The relation whose slot the memo is indexed by; -1: no memo. */
    private final int relation;
    /** Per row slot: the code + 1, 0 while not resolved yet; null without a memo. */
    private int[] memo;

    SlotKeyCoder(Expression e, boolean liveColumnsToo) {
        this.keys = new Keys(new Expression[] {e});
        this.buf = keys.newBuffer();
        this.store = keys.newStore();
        this.table = new KeyTable(store);
        boolean fixed = memoizes(e, liveColumnsToo);
        this.relation = fixed ? e.plainRelation() : -1;
        this.memo = fixed ? new int[1024] : null;
    }

    /** Whether {@code e} is resolved per row slot: a plain column of a read view (or of any table, for tests). */
    static boolean memoizes(Expression e, boolean liveColumnsToo) {
        int rel = e.plainRelation();
        if (rel < 0) {
            return false;
        }
        Column c = e.plainColumn(rel);
        return liveColumnsToo || c != null && c.isReadOnly();
    }

    /** The code of the current tuple's key value. */
    int code(EvalContext ctx) {
        int[] m = memo;
        if (m != null) {
            int s = ctx.slots[relation];
            if (s >= 0) { // -1: an outer join's NULL row, looked up as any other value
                if (s < m.length) {
                    int c = m[s];
                    if (c != 0) {
                        return c - 1;
                    }
                }
                int c = lookup(ctx);
                remember(s, c);
                return c;
            }
        }
        return lookup(ctx);
    }

    private int lookup(EvalContext ctx) {
        keys.load(ctx, buf);
        return table.findOrAdd(buf);
    }

    private void remember(int slot, int code) {
        int[] m = memo;
        if (slot >= m.length) {
            if (slot >= MAX_MEMO) {
                memo = null;
                return;
            }
            m = memo = Arrays.copyOf(m, Math.min(MAX_MEMO, Math.max(slot + 1, m.length * 2)));
        }
        m[slot] = code + 1;
    }

    /** Number of codes handed out so far. */
    int size() {
        return store.size();
    }

    void write(Column c, int row, int code) {
        Outputs.writeKey(store, code, 0, c, row);
    }
}
