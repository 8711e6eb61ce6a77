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
                           boolean matchFull, List<String> setColumns, int deferral) {
        /** {@code deferral}: 0 NOT DEFERRABLE, 1 DEFERRABLE INITIALLY IMMEDIATE, 2 DEFERRABLE INITIALLY DEFERRED (regress24). */
        public TableConstraint(String name, ConstraintKind kind, List<String> columns, Expr check, String checkText,
                               String refTable, List<String> refColumns, FkAction onDelete, FkAction onUpdate,
                               boolean matchFull, List<String> setColumns) {
            this(name, kind, columns, check, checkText, refTable, refColumns, onDelete, onUpdate, matchFull, setColumns, 0);
        }

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

    /**
     * {@code DROP TABLE [IF EXISTS] a[, b ...] [CASCADE | RESTRICT]}; {@code cascade}: dependent
     * views go too (else they refuse the drop).
     */
    record DropTable(List<String> tables, boolean ifExists, boolean cascade) implements Statement {
        public DropTable {
            tables = List.copyOf(tables);
        }

        public DropTable(String table, boolean ifExists) {
            this(List.of(table), ifExists, false);
        }

        /** The first table named (the only one in the 2010 dialect). */
        public String table() {
            return tables.get(0);
        }
    }

    // ---- schema changes on live tables (ALTER TABLE, TRUNCATE, CREATE TABLE AS) ----

    /** {@code ALTER TABLE [IF EXISTS] t action[, action ...]}: the actions apply together or not at all. */
    record AlterTable(String table, boolean ifExists, List<AlterAction> actions) implements Statement {
        public AlterTable {
            actions = List.copyOf(actions);
        }
    }

    /** One action of ALTER TABLE. */
    sealed interface AlterAction {
    }

    /** {@code ADD [COLUMN] [IF NOT EXISTS] c type [DEFAULT e] [NOT NULL] ...}. */
    record AddColumn(ColumnDef column, boolean ifNotExists) implements AlterAction {
    }

    /** {@code DROP [COLUMN] [IF EXISTS] c [CASCADE | RESTRICT]}. */
    record DropColumn(String column, boolean ifExists, boolean cascade) implements AlterAction {
    }

    /** {@code RENAME [COLUMN] a TO b}. */
    record RenameColumn(String column, String to) implements AlterAction {
    }

    /** {@code RENAME TO new}. */
    record RenameTable(String to) implements AlterAction {
    }

    /** {@code ALTER [COLUMN] c [SET DATA] TYPE t [USING e]}; {@code using} null when not written. */
    record AlterColumnType(String column, TypeName type, Expr using, String usingText) implements AlterAction {
    }

    /** {@code ALTER [COLUMN] c SET DEFAULT e} ({@code text} its source) or {@code DROP DEFAULT} ({@code value} null). */
    record SetDefault(String column, Expr value, String text) implements AlterAction {
    }

    /** {@code ALTER [COLUMN] c SET NOT NULL} ({@code notNull} true) or {@code DROP NOT NULL}. */
    record SetNotNull(String column, boolean notNull) implements AlterAction {
    }

    /** An action this build parses but does not run yet ({@code what}: its words, for the error). */
    record UnsupportedAction(String what) implements AlterAction {
    }

    /** {@code TRUNCATE [TABLE] a[, b ...] [RESTART | CONTINUE IDENTITY] [CASCADE | RESTRICT]}. */
    record Truncate(List<String> tables, boolean restartIdentity, boolean cascade) implements Statement {
        public Truncate {
            tables = List.copyOf(tables);
        }
    }

    /**
     * {@code CREATE TABLE t [(names)] AS query [WITH [NO] DATA]} and {@code SELECT ... INTO t FROM ...}:
     * a table with the query's columns, filled with its rows unless {@code withData} is false.
     */
    record CreateTableAs(String table, List<String> columnNames, Query query, boolean withData, boolean ifNotExists)
            implements Statement {
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
     * {@code returnSize}: the 2010 {@code RETURN SIZE} suffix. A null value in a row is {@code DEFAULT};
     * {@code DEFAULT VALUES} is one empty row of no columns. {@code alias} ({@code INSERT INTO t AS x}),
     * {@code onConflict} and {@code returning} are null when not written.
     */
    record Insert(String table, List<String> columns, List<List<Expr>> rows, Query query, boolean returnSize,
                  String alias, OnConflict onConflict, List<Query.SelectItem> returning,
                  Overriding overriding)
            implements Statement {
        public Insert(String table, List<String> columns, List<List<Expr>> rows, Query query, boolean returnSize) {
            this(table, columns, rows, query, returnSize, null, null, null, Overriding.NONE);
        }
    }

    record Assignment(String column, Expr value) {
    }

    /**
     * {@code UPDATE t [AS alias] SET ... [FROM from] [WHERE ...] [RETURNING ...]}; {@code alias},
     * {@code from} and {@code returning} are null when not written.
     */
    record Update(String table, String alias, List<Assignment> assignments, Query.FromItem from, Expr where,
                  List<Query.SelectItem> returning) implements Statement {
        public Update(String table, List<Assignment> assignments, Expr where) {
            this(table, null, assignments, null, where, null);
        }
    }

    /** {@code DELETE FROM t [AS alias] [USING from] [WHERE ...] [RETURNING ...]}; null parts are not written. */
    record Delete(String table, String alias, Query.FromItem using, Expr where, List<Query.SelectItem> returning)
            implements Statement {
        public Delete(String table, Expr where) {
            this(table, null, null, where, null);
        }
    }

    // ---- writes (upsert) ----

    /**
     * {@code ON CONFLICT [(cols) | ON CONSTRAINT name] DO NOTHING | DO UPDATE SET ... [WHERE ...]}:
     * {@code columns} and {@code constraint} null when no target is written; {@code sets} null for
     * DO NOTHING.
     */
    record OnConflict(List<String> columns, String constraint, List<Assignment> sets, Expr where) {
        public boolean doNothing() {
            return sets == null;
        }
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

    /** {@code ADD [CONSTRAINT n] CHECK | UNIQUE | PRIMARY KEY | FOREIGN KEY ...}. */
    record AddConstraint(TableConstraint constraint) implements AlterAction {
    }

    /** {@code DROP CONSTRAINT [IF EXISTS] n [CASCADE | RESTRICT]}. */
    record DropConstraint(String name, boolean ifExists, boolean cascade) implements AlterAction {
    }

    // ---- acl ----

    /** What CREATE/ALTER USER|ROLE set: null where not written; {@code password} "" for PASSWORD NULL. */
    record RoleOptions(Boolean login, String password, Boolean superuser) {
    }

    /** {@code CREATE USER|ROLE name [WITH] [LOGIN|NOLOGIN] [PASSWORD 'p'] [SUPERUSER]}: an ACL user. */
    record CreateUser(String name, Boolean login, String password, Boolean superuser) implements Statement {
        @Override
        public String toString() {
            return "CreateUser[" + name + "]"; // never the password
        }
    }

    /** {@code ALTER USER|ROLE name [WITH] options}. */
    record AlterUser(String name, Boolean login, String password, Boolean superuser) implements Statement {
        @Override
        public String toString() {
            return "AlterUser[" + name + "]";
        }
    }

    /** {@code DROP USER|ROLE [IF EXISTS] a[, b]}. */
    record DropUser(List<String> names, boolean ifExists) implements Statement {
    }

    /** {@code GRANT SELECT|INSERT|UPDATE|DELETE|TRUNCATE|ALL [, ...] ON [TABLE] t[, ...] TO u[, ...]}. */
    record Grant(List<String> privileges, List<String> tables, List<String> users) implements Statement {
    }

    /** {@code REVOKE ... ON [TABLE] t[, ...] FROM u[, ...]}. */
    record Revoke(List<String> privileges, List<String> tables, List<String> users) implements Statement {
    }

    // ---- partition ----

    /** The prefix of a FROM name written {@code ONLY t}: the table's own rows, not its partitions'. */
    String ONLY = "\u0000only:";

    /**
     * {@code PARTITION BY RANGE|LIST|HASH (key, ...)}: {@code strategy} upper case, each key's source text
     * (a column name or an expression) and its operator class (null when none is written).
     */
    record PartitionKey(String strategy, List<String> keys, List<String> opclasses) {
    }

    /**
     * {@code FOR VALUES IN (...) | FROM (...) TO (...) | WITH (MODULUS m, REMAINDER r)} or {@code DEFAULT}:
     * the values' source texts ({@code MINVALUE} / {@code MAXVALUE} upper case in a range).
     */
    record PartitionBound(String kind, List<String> in, List<String> from, List<String> to, int modulus, int remainder) {
        public boolean isDefault() {
            return kind.equals("DEFAULT");
        }
    }

    /** {@code CREATE TABLE t (...) PARTITION BY ...}. */
    record CreatePartitioned(CreateTable table, PartitionKey key) implements Statement {
    }

    /**
     * {@code CREATE TABLE t PARTITION OF p [(constraints)] FOR VALUES ... | DEFAULT [PARTITION BY ...]}:
     * {@code key} null when the partition is not partitioned itself; {@code columnOptions}: a column's own
     * NOT NULL / DEFAULT / UNIQUE / PRIMARY KEY (its type null: the parent's).
     */
    record CreatePartitionOf(String table, String parent, boolean ifNotExists, List<TableConstraint> constraints,
                             List<KeyConstraint> keys, PartitionBound bound, PartitionKey key, List<ColumnDef> columnOptions)
            implements Statement {
    }

    /** {@code ALTER TABLE p ATTACH PARTITION t FOR VALUES ... | DEFAULT}. */
    record AttachPartition(String partition, PartitionBound bound) implements AlterAction {
    }

    /** {@code ALTER TABLE p DETACH PARTITION t}. */
    record DetachPartition(String partition) implements AlterAction {
    }

    // ---- regress25 ----

    /** PostgreSQL's {@code ANALYZE}/{@code VACUUM}: checks its tables (and columns) exist; nothing else to do. */
    record Maintenance(List<String> tables, List<List<String>> columns) implements Statement {
    }

    // ---- regress24 ----

    /**
     * {@code ALTER [COLUMN] c ADD GENERATED ... AS IDENTITY [(options)]} (op ADD, {@code options}),
     * {@code DROP IDENTITY [IF EXISTS]} (DROP), {@code SET GENERATED ALWAYS | BY DEFAULT} (SET),
     * {@code RESTART [[WITH] n]} (RESTART, {@code restart} null: the start value).
     */
    record IdentityAction(String column, String op, boolean always, boolean ifExists, Long restart,
                          List<SequenceOption> options) implements AlterAction {
    }

    /** {@code ALTER TABLE t RENAME CONSTRAINT a TO b}. */
    record RenameConstraint(String name, String to) implements AlterAction {
    }
}
