package io.respsql.exec.write;

import io.respsql.index.IndexKeys;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;

/**
 * Primary-key lookups by value. Numeric keys are exact in the index; a TEXT key's index entry is
 * an 8-byte prefix, so the rows under that prefix are compared in full.
 */
final class PrimaryKeys {
    private PrimaryKeys() {
    }

    static int findNumeric(Table t, long key) {
        return t.primaryIndex().tree().firstRow(key);
    }

    static int findText(Table t, byte[] value) {
        TextColumn col = (TextColumn) t.primaryColumn();
        long key = IndexKeys.ofText(value);
        LongIntBTree.Cursor c = t.primaryIndex().tree().cursor();
        for (boolean ok = c.seek(key); ok && c.key() == key; ok = c.next()) {
            if (col.equalsBytes(c.row(), value)) {
                return c.row();
            }
        }
        return -1;
    }

    /** Index key of a value about to be written to the primary-key column. */
    static long numericKey(Column pk, long asLong, double asDouble) {
        return pk.type() == ColumnType.FLOAT ? IndexKeys.ofDouble(asDouble) : asLong;
    }
}
