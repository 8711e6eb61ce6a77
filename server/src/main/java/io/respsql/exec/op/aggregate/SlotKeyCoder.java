package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyStore;
import io.respsql.exec.op.KeyTable;
import io.respsql.exec.op.Keys;
import io.respsql.exec.op.Outputs;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.storage.Column;

import java.util.Arrays;

/**
 * Some GROUP BY keys taken a tuple at a time (the input is a join, not a scan) as one dense code:
 * equal value lists one code (as grouping compares them, NULL a value of its own), in first-seen
 * order.
 *
 * <p>Keys that are plainly columns of one relation whose rows never change during the run (a
 * read view's columns: a background query's point-in-time capture) have values fixed by that
 * relation's row slot, so their code is resolved once per row slot and then read from
 * {@code memo[slot]}. Over a join the keys' relation is usually a dimension table whose few rows
 * recur in every joined tuple (c.tier for each order line): per tuple one int read from a small
 * array instead of reading the stored TEXT at a random row and hashing it.
 *
 * <p>A unit of one integer-carried key (a.product_id) is coded from its value instead
 * ({@link KeyCoder.NumberCoder#code}: a direct array by value - base while the values span
 * little, else a {@link io.respsql.exec.op.LongKeyTable}): reading the value is one column read,
 * as the memo read would be, and neither a {@link KeyBuffer} nor a {@link KeyTable} is needed.
 */
final class SlotKeyCoder {
    /** A memo past this many slots (64 MB) is dropped: the key's rows are too many to pay off. */
    private static final int MAX_MEMO = 1 << 24;
    /** A one-integer unit's direct array spans at most this many values (4 MB), else it hashes. */
    private static final long MAX_DIRECT_SPAN = 1 << 20;

    private final Keys keys;
    private final KeyBuffer buf;
    final KeyStore store;
    private final KeyTable table;
    /** The relation whose slot the memo is indexed by; -1: no memo. */
    private final int relation;
    /** Per row slot: the code + 1, 0 while not resolved yet; null without a memo. */
    private int[] memo;
    /** A unit of one integer-carried key: its value coder (no keys/table/memo used); else null. */
    private final KeyCoder.NumberCoder number;
    private final Expression numberExpr;

    /** {@code relation}: the one relation all of {@code exprs} are plain columns of (see {@link #memoRelation}), or -1. */
    SlotKeyCoder(Expression[] exprs, int relation) {
        this.keys = new Keys(exprs);
        this.buf = keys.newBuffer();
        this.store = keys.newStore();
        this.table = new KeyTable(store);
        SqlType t = exprs.length == 1 ? exprs[0].type() : SqlType.NULL;
        if (t.isLongCarried()) {
            this.numberExpr = exprs[0];
            this.number = new KeyCoder.NumberCoder(exprs[0], false, MAX_DIRECT_SPAN);
            this.relation = -1;
            this.memo = null;
        } else {
            this.numberExpr = null;
            this.number = null;
            this.relation = relation;
            this.memo = relation >= 0 ? new int[1024] : null;
        }
    }

    /**
     * The relation by whose slot {@code e} can be resolved: it is plainly a column of that
     * relation, of a read view (or of any table, for tests); else -1.
     */
    static int memoRelation(Expression e, boolean liveColumnsToo) {
        int rel = e.plainRelation();
        if (rel < 0) {
            return -1;
        }
        Column c = e.plainColumn(rel);
        return liveColumnsToo || c != null && c.isReadOnly() ? rel : -1;
    }

    /** The code of the current tuple's key values. */
    int code(EvalContext ctx) {
        KeyCoder.NumberCoder nc = number;
        if (nc != null) {
            long v = numberExpr.evalLong(ctx);
            return nc.code(v, ctx.isNull);
        }
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
        return number != null ? number.size() : store.size();
    }

    /** Writes key {@code j} (of this coder's) of {@code code}'s values into {@code c} at {@code row}. */
    void write(Column c, int row, int code, int j) {
        if (number != null) {
            number.write(c, row, code);
            return;
        }
        Outputs.writeKey(store, code, j, c, row);
    }
}
