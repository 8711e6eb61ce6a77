package io.respsql.plan;

import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.TypeName;
import io.respsql.storage.ColumnType;

/** Conversions between the expression types and the storage types the planner meets. */
public final class SqlTypes {
    private SqlTypes() {
    }

    /** The storage type of a work-table column holding values of {@code t} (a bare NULL: INT, all NULL). */
    public static ColumnType storageOf(SqlType t) {
        if (t.isArray()) {
            return arrayStorage(t); // arrays
        }
        switch (t) {
            case BOOLEAN:
                return ColumnType.BOOLEAN;
            case BIGINT:
                return ColumnType.BIGINT;
            case DOUBLE:
                return ColumnType.FLOAT;
            case TEXT:
                return ColumnType.TEXT;
            case DATE:
                return ColumnType.DATE;
            case TIMESTAMP:
                return ColumnType.TIMESTAMP;
            case NUMERIC:
                return ColumnType.NUMERIC_TEXT; // each value's text: its own scale kept
            case INTERVAL:
                return ColumnType.INTERVAL;
            default:
                return ColumnType.INT;
        }
    }

    /** The expression type of a stored column's values. */
    public static SqlType of(ColumnType t) {
        if (t.isArray()) {
            return arrayType(t); // arrays
        }
        switch (t) {
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
            case NUMERIC:
            case NUMERIC_TEXT:
                return SqlType.NUMERIC;
            case INTERVAL:
                return SqlType.INTERVAL;
            default:
                return SqlType.TIMESTAMP;
        }
    }

    // ---- arrays ----

    /** The storage of array type {@code t}. */
    public static ColumnType arrayStorage(SqlType t) {
        switch (t.element()) {
            case INT:
                return ColumnType.INT_ARRAY;
            case BIGINT:
                return ColumnType.BIGINT_ARRAY;
            case DOUBLE:
                return ColumnType.FLOAT_ARRAY;
            case BOOLEAN:
                return ColumnType.BOOLEAN_ARRAY;
            case DATE:
                return ColumnType.DATE_ARRAY;
            case TIMESTAMP:
                return ColumnType.TIMESTAMP_ARRAY;
            case NUMERIC:
                return ColumnType.NUMERIC_ARRAY;
            default:
                return ColumnType.TEXT_ARRAY;
        }
    }

    /** The expression type of an array column's values. */
    public static SqlType arrayType(ColumnType t) {
        return io.respsql.expr.Expressions.arrayTypeOfStorage(t);
    }

    /** The type a CAST or typed literal names ({@code VARCHAR(20)}, {@code DOUBLE PRECISION}, ...). */
    public static SqlType typeOf(TypeName name) {
        SqlType t = io.respsql.expr.Expressions.typeOf(name.base());
        if (t == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "unknown type '" + name.base() + "'");
        }
        return t;
    }

    /** The name typed replies show for a result column of type {@code t}. */
    public static String resultName(SqlType t) {
        return t == SqlType.NULL ? "TEXT" : t.sqlName();
    }
}
