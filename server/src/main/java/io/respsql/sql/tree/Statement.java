package io.respsql.sql.tree;

import java.util.List;

/** Statement syntax trees, one record per statement kind. Names are as written (case kept). */
public sealed interface Statement {

    /**
     * A column of CREATE TABLE. {@code defaultValue} is null when no DEFAULT is written;
     * {@code defaultText} is its source text (what a snapshot keeps).
     */
    record ColumnDef(String name, TypeName type, boolean primaryKey, boolean notNull, boolean unique,
                     Expr defaultValue, String defaultText) {
    }

    /**
     * A table constraint: {@code PRIMARY KEY (a, b)} or {@code UNIQUE (a, b)}; {@code name} is the
     * {@code CONSTRAINT name} written, or null (PostgreSQL's default name is then chosen).
     */
    record KeyConstraint(boolean primary, List<String> columns, String name) {
        public KeyConstraint(boolean primary, List<String> columns) {
            this(primary, columns, null);
        }
    }

    /**
     * CREATE TABLE. {@code constraints}: the CHECK and FOREIGN KEY constraints, column-level ones
     * included (UNIQUE and PRIMARY KEY are in {@code keys} and the columns' flags).
     */
    record CreateTable(String table, List<ColumnDef> columns, List<KeyConstraint> keys, boolean ifNotExists,
                       List<TableConstraint> constraints) implements Statement {
        public CreateTable(String table, List<ColumnDef> columns, List<KeyConstraint> keys, boolean ifNotExists) {
            this(table, columns, keys, ifNotExists, List.of());
        }
    }

    // ---- constraints (CHECK, FOREIGN KEY, ALTER TABLE ADD/DROP CONSTRAINT) ----

    /** What a foreign key does to referencing rows when the referenced row goes or its key changes. */
    enum FkAction { NO_ACTION, RESTRICT, CASCADE, SET_NULL, SET_DEFAULT }

    enum ConstraintKind { CHECK, UNIQUE, PRIMARY_KEY, FOREIGN_KEY }

    /**
     * A constraint as written: {@code name} null when none is given. CHECK: {@code check} and its
     * source text; UNIQUE, PRIMARY KEY: {@code columns}; FOREIGN KEY: {@code columns} REFERENCES
     * {@code refTable} ({@code refColumns}, null: its primary key) with its actions and MATCH FULL;
     * {@code setColumns}: an ON DELETE SET NULL / SET DEFAULT's column list (null: every column).
     */
    record TableConstraint(String name, ConstraintKind kind, List<String> columns, Expr check, String checkText,
                           String refTable, List<String> refColumns, FkAction onDelete, FkAction onUpdate,
                           boolean matchFull, List<String> setColumns) {
        public TableConstraint(String name, ConstraintKind kind, List<String> columns, Expr check, String checkText,
                               String refTable, List<String> refColumns, FkAction onDelete, FkAction onUpdate,
                               boolean matchFull) {
            this(name, kind, columns, check, checkText, refTable, refColumns, onDelete, onUpdate, matchFull, null);
        }
    }

    record IndexColumn(String name, boolean descending) {
    }

    record CreateIndex(String index, String table, List<IndexColumn> columns, boolean unique, boolean ifNotExists)
            implements Statement {
    }

    /** {@code queryText} is the view's query as written (kept by snapshots, replayed by the log). */
    record CreateView(String view, List<String> columnNames, Query query, String queryText, boolean ifNotExists)
            implements Statement {
    }

    record DropTable(String table, boolean ifExists) implements Statement {
    }

    record DropIndex(String index, boolean ifExists) implements Statement {
    }

    record DropView(String view, boolean ifExists) implements Statement {
    }

    record Describe(String table) implements Statement {
    }

    record Dump(String table) implements Statement {
    }

    record ShowTables() implements Statement {
    }

    /** {@code SHOW INDEXES [FROM t]}; {@code table} is null for every table's indexes. */
    record ShowIndexes(String table) implements Statement {
    }

    /** A query run for its rows: SELECT, SCANSELECT, a set operation, VALUES. */
    record QueryStatement(Query query) implements Statement {
    }

    /**
     * {@code INSERT INTO t [(cols)] VALUES (...), ... | SELECT ...}. {@code columns} is null when
     * none are listed; exactly one of {@code rows} and {@code query} is non-null.
     * {@code returnSize}: the 2010 {@code RETURN SIZE} suffix.
     */
    record Insert(String table, List<String> columns, List<List<Expr>> rows, Query query, boolean returnSize)
            implements Statement {
    }

    record Assignment(String column, Expr value) {
    }

    record Update(String table, List<Assignment> assignments, Expr where) implements Statement {
    }

    record Delete(String table, Expr where) implements Statement {
    }

    record Explain(Statement statement) implements Statement {
    }

    /** {@code ALTER TABLE [IF EXISTS] t action, ...}. */
    record AlterTable(String table, boolean ifExists, List<AlterAction> actions) implements Statement {
    }

    sealed interface AlterAction {
    }

    /** {@code ADD [CONSTRAINT n] CHECK | UNIQUE | PRIMARY KEY | FOREIGN KEY ...}. */
    record AddConstraint(TableConstraint constraint) implements AlterAction {
    }

    /** {@code DROP CONSTRAINT [IF EXISTS] n [CASCADE | RESTRICT]}. */
    record DropConstraint(String name, boolean ifExists, boolean cascade) implements AlterAction {
    }
}
