package io.respsql.plan;

import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.tree.TypeName;
import io.respsql.storage.ColumnType;

/** Conversions between the expression types and the storage types the planner meets. */
public final class SqlTypes {
    private SqlTypes() {
    }

    /** The storage type of a work-table column holding values of {@code t} (a bare NULL: INT, all NULL). */
    public static ColumnType storageOf(SqlType t) {
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
            default:
                return ColumnType.INT;
        }
    }

    /** The expression type of a stored column's values. */
    public static SqlType of(ColumnType t) {
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
            default:
                return SqlType.TIMESTAMP;
        }
    }

    /** The type a CAST or typed literal names ({@code VARCHAR(20)}, {@code DOUBLE PRECISION}, ...). */
    public static SqlType typeOf(TypeName name) {
        switch (name.base()) {
            case "INT":
            case "INTEGER":
            case "SMALLINT":
            case "TINYINT":
            case "MEDIUMINT":
            case "INT4":
            case "INT2":
                return SqlType.INT;
            case "BIGINT":
            case "INT8":
            case "LONG":
                return SqlType.BIGINT;
            case "FLOAT":
            case "DOUBLE":
            case "DOUBLE PRECISION":
            case "REAL":
            case "NUMERIC":
            case "DECIMAL":
            case "FLOAT8":
            case "FLOAT4":
                return SqlType.DOUBLE;
            case "TEXT":
            case "VARCHAR":
            case "CHAR":
            case "CHARACTER":
            case "CHARACTER VARYING":
            case "STRING":
            case "CLOB":
                return SqlType.TEXT;
            case "BOOLEAN":
            case "BOOL":
                return SqlType.BOOLEAN;
            case "DATE":
                return SqlType.DATE;
            case "TIMESTAMP":
            case "DATETIME":
                return SqlType.TIMESTAMP;
            default:
                throw new SqlException("unknown type '" + name.base() + "'");
        }
    }

    /** The name typed replies show for a result column of type {@code t}. */
    public static String resultName(SqlType t) {
        return t == SqlType.NULL ? "TEXT" : t.sqlName();
    }
}
