package io.respsql.expr;

import io.respsql.storage.Column;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.TextColumn;

/**
 * A column of a numbered relation, read at {@code ctx.slots[relation]}; slot -1 (the row an
 * outer join adds) and a NULL bit read as NULL. One subclass per storage class, so each read
 * is a direct array access: {@link IntRef}, {@link LongRef} and {@link DoubleRef} are generated
 * from one template (src/main/templates/io/respsql/expr/TypeRef.java.tmpl), TEXT's is here. BOOLEAN (0/1) and DATE (days) live in IntColumn, TIMESTAMP (µs)
 * in LongColumn; a column class not known here is read through {@link Column#getLong}.
 */
abstract class ColumnRef extends Expression {
    final Column column;
    final int relation;
    final String label;

    ColumnRef(SqlType type, Column column, int relation, String label) {
        super(type);
        this.column = column;
        this.relation = relation;
        this.label = label;
    }

    static ColumnRef of(Column c, int relation, String label) {
        SqlType t = typeOf(c);
        if (c instanceof IntColumn) {
            return new IntRef(t, (IntColumn) c, relation, label);
        }
        if (c instanceof LongColumn) {
            return new LongRef(t, (LongColumn) c, relation, label);
        }
        if (c instanceof DoubleColumn) {
            return new DoubleRef(t, (DoubleColumn) c, relation, label);
        }
        if (c instanceof TextColumn) {
            return new TextRef(t, (TextColumn) c, relation, label);
        }
        if (t == SqlType.DOUBLE) {
            return new GenericDoubleRef(c, relation, label);
        }
        return new GenericLongRef(t, c, relation, label);
    }

    static SqlType typeOf(Column c) {
        switch (c.type()) {
            case INT:
                return SqlType.INT;
            case BIGINT:
                return SqlType.BIGINT;
            case FLOAT:
                return SqlType.DOUBLE;
            case TEXT:
                return SqlType.TEXT;
            case BOOLEAN:
                return SqlType.BOOLEAN;
            case DATE:
                return SqlType.DATE;
            case TIMESTAMP:
                return SqlType.TIMESTAMP;
            case INTERVAL:
                return SqlType.INTERVAL;
            default:
                if (c.type().isArray()) {
                    return Expressions.arrayTypeOfStorage(c.type()); // arrays
                }
                throw new IllegalArgumentException(c.type().name());
        }
    }

    /** The slot to read, or -1 with {@code ctx.isNull} set when the value is NULL. */
    final int slot(EvalContext ctx) {
        int s = ctx.slots[relation];
        boolean isNull = s < 0 || column.isNull(s);
        ctx.isNull = isNull;
        return isNull ? -1 : s;
    }

    @Override
    public final Column plainColumn(int rel) {
        return rel == relation ? column : null;
    }

    @Override
    public final int plainRelation() {
        return relation;
    }

    /** Fills {@code nulls} for a batch of this column's slots; false (nothing written) when the column holds no NULL. */
    final boolean batchNulls(int[] sel, int n, boolean[] nulls) {
        if (!column.mayHaveNulls()) {
            return false;
        }
        Column col = column;
        boolean any = false;
        for (int i = 0; i < n; i++) {
            boolean isNull = col.isNull(sel[i]);
            nulls[i] = isNull;
            any |= isNull;
        }
        return any;
    }

    /**
     * {@link ColumnRange#filter} over this column: keeps the slots of {@code sel[0..n)} within the
     * range's bounds, in a loop of the column's own type (only the typed refs have one: a range is
     * made only over them and TEXT, see {@link ColumnRange}).
     */
    int filterRange(ColumnRange r, int[] sel, int n) {
        throw new IllegalStateException("no range loop over " + describe());
    }

    @Override
    public final long relations() {
        return 1L << relation;
    }

    @Override
    public final boolean isConstant() {
        return false;
    }

    @Override
    public final String describe() {
        return label;
    }

    static final class TextRef extends ColumnRef {
        final TextColumn c;

        TextRef(SqlType t, TextColumn c, int relation, String label) {
            super(t, c, relation, label);
            this.c = c;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            int s = slot(ctx);
            if (s < 0) {
                ctx.textOffset = 0;
                ctx.textLength = 0;
                return TextBuf.EMPTY;
            }
            int len = c.length(s);
            ctx.textLength = len;
            if (len == 0) {
                // the column stores no bytes for the empty string: bytes() is null
                ctx.textOffset = 0;
                return TextBuf.EMPTY;
            }
            ctx.textOffset = c.offset(s);
            return c.bytes(s);
        }
    }

    static final class GenericLongRef extends ColumnRef {
        GenericLongRef(SqlType t, Column c, int relation, String label) {
            super(t, c, relation, label);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            int s = slot(ctx);
            return s < 0 ? 0 : column.getLong(s);
        }
    }

    static final class GenericDoubleRef extends ColumnRef {
        GenericDoubleRef(Column c, int relation, String label) {
            super(SqlType.DOUBLE, c, relation, label);
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            int s = slot(ctx);
            return s < 0 ? 0 : column.getDouble(s);
        }
    }
}
