package io.respsql.storage;

/**
 * A column as CREATE TABLE declares it. {@code defaultText} is the DEFAULT expression's source
 * text or null; storage keeps it (snapshots) but never evaluates it — the executor does.
 * {@code typeModifier}: PostgreSQL's atttypmod, -1 for none (varchar(n)/char(n): n; numeric(p,s):
 * {@code (p << 16) | s}).
 */
public record ColumnSpec(String name, ColumnType type, boolean notNull, String defaultText, int typeModifier) {
    public ColumnSpec(String name, ColumnType type, boolean notNull, String defaultText) {
        this(name, type, notNull, defaultText, -1);
    }
}
