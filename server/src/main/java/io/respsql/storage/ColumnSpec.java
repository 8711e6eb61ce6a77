package io.respsql.storage;

/**
 * A column as CREATE TABLE declares it. {@code defaultText} is the DEFAULT expression's source
 * text or null; storage keeps it (snapshots) but never evaluates it — the executor does.
 */
public record ColumnSpec(String name, ColumnType type, boolean notNull, String defaultText) {
}
