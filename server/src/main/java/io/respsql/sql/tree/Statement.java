package io.respsql.sql.tree;

import java.util.List;

/** Statement syntax trees, one record per statement kind. Names are as written (case kept). */
public sealed interface Statement {

    /**
     * A column of CREATE TABLE. {@code defaultValue} is null when no DEFAULT is written;
     * {@code defaultText} is its source text (what a snapshot keeps).
     */
    record ColumnDef(String name, TypeName type, boolean primaryKey, boolean notNull, boolean unique,
                     Expr defaultValue, String defaultText, Identity identity) {
        public ColumnDef(String name, TypeName type, boolean primaryKey, boolean notNull, boolean unique,
                         Expr defaultValue, String defaultText) {
            this(name, type, primaryKey, notNull, unique, defaultValue, defaultText, null);
        }
    }

    /** A table constraint: {@code PRIMARY KEY (a, b)} or {@code UNIQUE (a, b)}. */
    record KeyConstraint(boolean primary, List<String> columns) {
    }

    record CreateTable(String table, List<ColumnDef> columns, List<KeyConstraint> keys, boolean ifNotExists)
            implements Statement {
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
    record Insert(String table, List<String> columns, List<List<Expr>> rows, Query query, boolean returnSize,
                  Overriding overriding) implements Statement {
        public Insert(String table, List<String> columns, List<List<Expr>> rows, Query query, boolean returnSize) {
            this(table, columns, rows, query, returnSize, Overriding.NONE);
        }
    }

    record Assignment(String column, Expr value) {
    }

    record Update(String table, List<Assignment> assignments, Expr where) implements Statement {
    }

    record Delete(String table, Expr where) implements Statement {
    }

    record Explain(Statement statement) implements Statement {
    }

    // ---- sequences (seq helper) ----

    /** INSERT's {@code OVERRIDING SYSTEM VALUE | OVERRIDING USER VALUE} (identity columns). */
    enum Overriding { NONE, SYSTEM, USER }

    /**
     * One option of CREATE/ALTER SEQUENCE or an identity column: {@code kind} is AS (with
     * {@code text} the type), INCREMENT, MINVALUE, MAXVALUE, START, CACHE, RESTART (value null:
     * RESTART without WITH), NO MINVALUE, NO MAXVALUE, CYCLE, NO CYCLE, OWNED BY ({@code text}
     * {@code table.column} or null for NONE), SEQUENCE NAME ({@code text}).
     */
    record SequenceOption(String kind, Long value, String text) {
    }

    /** {@code GENERATED ALWAYS | BY DEFAULT AS IDENTITY [(options)]}. */
    record Identity(boolean always, List<SequenceOption> options) {
    }

    record CreateSequence(String name, boolean ifNotExists, List<SequenceOption> options) implements Statement {
    }

    record AlterSequence(String name, boolean ifExists, List<SequenceOption> options) implements Statement {
    }

    record DropSequence(List<String> names, boolean ifExists, boolean cascade) implements Statement {
    }

    /** {@code DISCARD SEQUENCES} (or {@code DISCARD ALL}): forgets the session's currval/lastval. */
    record DiscardSequences() implements Statement {
    }
}
