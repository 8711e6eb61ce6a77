package io.respsql.expr;

/** What an expression evaluates to: INT and BIGINT columns both compute in 64-bit LONG. */
public enum ValueType {
    LONG, DOUBLE, TEXT;

    public boolean isNumeric() {
        return this != TEXT;
    }
}
