package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyStore;
import io.respsql.exec.op.KeyTable;
import io.respsql.exec.op.Keys;

/**
 * The values an aggregate's DISTINCT has seen, for all groups at once: one hash set of
 * (group, value) pairs, primitive, rather than a set object per group.
 */
final class DistinctValues {
    private final KeyBuffer buf;
    private final KeyTable table;

    DistinctValues(byte kind) {
        byte[] kinds = {Keys.LONG, kind};
        this.buf = new KeyBuffer(kinds);
        this.table = new KeyTable(new KeyStore(kinds));
    }

    boolean firstLong(int g, long v) {
        buf.reset();
        buf.setLong(0, g);
        buf.setLong(1, v);
        table.findOrAdd(buf);
        return table.added;
    }

    boolean firstDouble(int g, double d) {
        buf.reset();
        buf.setLong(0, g);
        buf.setDouble(1, d);
        table.findOrAdd(buf);
        return table.added;
    }

    boolean firstText(int g, byte[] b, int off, int len) {
        buf.reset();
        buf.setLong(0, g);
        buf.setText(1, b, off, len);
        table.findOrAdd(buf);
        return table.added;
    }
}
