package io.respsql.expr;

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

    /**
     * For TEXT expressions: the array holding the value's UTF-8 bytes, from {@link #textOffset}
     * for {@link #textLength} bytes. Three calls rather than a value object, so reading text
     * allocates nothing; how the value is encoded is the result sink's business.
     */
    public byte[] textBytes(int[] rows) {
        throw new IllegalStateException(getClass().getSimpleName() + " is not TEXT");
    }

    public int textOffset(int[] rows) {
        throw new IllegalStateException(getClass().getSimpleName() + " is not TEXT");
    }

    public int textLength(int[] rows) {
        throw new IllegalStateException(getClass().getSimpleName() + " is not TEXT");
    }

    /** Source-like rendering for EXPLAIN. */
    public abstract String describe();
}
