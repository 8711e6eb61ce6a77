package io.respsql.expr;

import io.respsql.protocol.RespWriter;

/**
 * An expression with its names resolved to columns. It is evaluated against a row tuple:
 * {@code rows[i]} is the current row slot of the i-th table in the statement's FROM list
 * (a single-table statement uses {@code rows[0]}). Evaluation never allocates.
 */
public abstract class BoundExpr {
    private final ValueType type;

    protected BoundExpr(ValueType type) {
        this.type = type;
    }

    public final ValueType type() {
        return type;
    }

    /** For LONG expressions. May throw {@link io.respsql.sql.SqlException} (overflow, division by zero). */
    public long evalLong(int[] rows) {
        throw new IllegalStateException(getClass().getSimpleName() + " is not LONG");
    }

    /** For numeric expressions; LONG ones convert. */
    public double evalDouble(int[] rows) {
        return evalLong(rows);
    }

    /** True when the value does not depend on any row (a literal, possibly folded). */
    public boolean isConstant() {
        return false;
    }

    /** Appends the value as one comma-separated field of a SELECT row. */
    public abstract void writeTo(RespWriter out, int[] rows);

    /** Source-like rendering for EXPLAIN. */
    public abstract String describe();
}
