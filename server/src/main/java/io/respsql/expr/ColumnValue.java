package io.respsql.expr;

import io.respsql.storage.Column;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.TextColumn;

/** A column of the {@code tableIndex}-th table of the statement. One subclass per storage type. */
public abstract class ColumnValue extends BoundExpr {
    public final int tableIndex;
    public final String label;

    private ColumnValue(ValueType type, int tableIndex, String label) {
        super(type);
        this.tableIndex = tableIndex;
        this.label = label;
    }

    public abstract Column column();

    @Override
    public String describe() {
        return label;
    }

    public static ColumnValue of(Column c, int tableIndex, String label) {
        switch (c.type()) {
            case INT:
                return new IntValue((IntColumn) c, tableIndex, label);
            case BIGINT:
                return new BigintValue((LongColumn) c, tableIndex, label);
            case FLOAT:
                return new FloatValue((DoubleColumn) c, tableIndex, label);
            default:
                return new TextValue((TextColumn) c, tableIndex, label);
        }
    }

    public static final class IntValue extends ColumnValue {
        public final IntColumn col;

        IntValue(IntColumn col, int tableIndex, String label) {
            super(ValueType.LONG, tableIndex, label);
            this.col = col;
        }

        @Override
        public Column column() {
            return col;
        }

        @Override
        public long evalLong(int[] rows) {
            return col.get(rows[tableIndex]);
        }
    }

    public static final class BigintValue extends ColumnValue {
        public final LongColumn col;

        BigintValue(LongColumn col, int tableIndex, String label) {
            super(ValueType.LONG, tableIndex, label);
            this.col = col;
        }

        @Override
        public Column column() {
            return col;
        }

        @Override
        public long evalLong(int[] rows) {
            return col.get(rows[tableIndex]);
        }
    }

    public static final class FloatValue extends ColumnValue {
        public final DoubleColumn col;

        FloatValue(DoubleColumn col, int tableIndex, String label) {
            super(ValueType.DOUBLE, tableIndex, label);
            this.col = col;
        }

        @Override
        public Column column() {
            return col;
        }

        @Override
        public double evalDouble(int[] rows) {
            return col.get(rows[tableIndex]);
        }
    }

    public static final class TextValue extends ColumnValue {
        public final TextColumn col;

        TextValue(TextColumn col, int tableIndex, String label) {
            super(ValueType.TEXT, tableIndex, label);
            this.col = col;
        }

        @Override
        public Column column() {
            return col;
        }

        @Override
        public byte[] textBytes(int[] rows) {
            byte[] b = col.bytes(rows[tableIndex]);
            return b == null ? EMPTY : b;
        }

        @Override
        public int textOffset(int[] rows) {
            return col.offset(rows[tableIndex]);
        }

        @Override
        public int textLength(int[] rows) {
            return col.length(rows[tableIndex]);
        }

        private static final byte[] EMPTY = new byte[0];
    }
}
