package io.respsql.storage;

/**
 * A CHECK or FOREIGN KEY constraint of a table (UNIQUE and PRIMARY KEY constraints are indexes,
 * named in {@link TableConstraints#keyNames}). Immutable; the tables hold it
 * ({@link Table#constraints()}): a CHECK in its table's {@code checks}, a foreign key in its
 * table's {@code foreignKeys} and its referenced table's {@code referencedBy}.
 */
public final class ConstraintDef {
    public enum Kind { CHECK, FOREIGN_KEY }

    /** Foreign key actions, PostgreSQL's letters (pg_constraint.confdeltype). */
    public static final char NO_ACTION = 'a';
    public static final char RESTRICT = 'r';
    public static final char CASCADE = 'c';
    public static final char SET_NULL = 'n';
    public static final char SET_DEFAULT = 'd';

    private final String name;
    private final Kind kind;
    private final Table table;
    /** CHECK: the expression's source text (bound by the planner of each write). */
    private final String checkText;
    /** FOREIGN KEY: the referencing columns, the referenced table and its columns (same order). */
    private final Column[] columns;
    private final Table refTable;
    private final Column[] refColumns;
    private final char onDelete;
    private final char onUpdate;
    private final boolean matchFull;
    /** The index declaring the foreign key created on its columns (dropped with it), or null. */
    private final String autoIndex;
    /** ON DELETE SET NULL / SET DEFAULT (cols): the columns it sets, or null: every referencing column. */
    private final Column[] setColumns;
    /** A CHECK written in PostgreSQL's dialect (its text is parsed and bound in it, whoever writes). */
    private boolean postgres;

    private ConstraintDef(String name, Kind kind, Table table, String checkText, Column[] columns, Table refTable,
                          Column[] refColumns, char onDelete, char onUpdate, boolean matchFull, String autoIndex,
                          Column[] setColumns) {
        this.name = name;
        this.kind = kind;
        this.table = table;
        this.checkText = checkText;
        this.columns = columns;
        this.refTable = refTable;
        this.refColumns = refColumns;
        this.onDelete = onDelete;
        this.onUpdate = onUpdate;
        this.matchFull = matchFull;
        this.autoIndex = autoIndex;
        this.setColumns = setColumns;
    }

    public static ConstraintDef check(String name, Table table, String text, boolean postgres) {
        ConstraintDef c = new ConstraintDef(name, Kind.CHECK, table, text, new Column[0], null, null, NO_ACTION, NO_ACTION, false,
                null, null);
        c.postgres = postgres;
        return c;
    }

    /** FOREIGN KEY: 0 NOT DEFERRABLE, 1 DEFERRABLE INITIALLY IMMEDIATE, 2 DEFERRABLE INITIALLY DEFERRED (regress24). */
    private int deferral;

    /** Sets the foreign key's deferral (0, 1 or 2, see {@link #deferrable()}); returns this. */
    public ConstraintDef deferral(int d) {
        this.deferral = d;
        return this;
    }

    /** 0 NOT DEFERRABLE, 1 DEFERRABLE INITIALLY IMMEDIATE, 2 DEFERRABLE INITIALLY DEFERRED. */
    public int deferral() {
        return deferral;
    }

    public boolean deferrable() {
        return deferral > 0;
    }

    public boolean initiallyDeferred() {
        return deferral == 2;
    }

    /** Whether a CHECK's text is in PostgreSQL's dialect (sql.Dialect). */
    public boolean postgres() {
        return postgres;
    }

    public static ConstraintDef foreignKey(String name, Table table, Column[] columns, Table refTable, Column[] refColumns,
                                           char onDelete, char onUpdate, boolean matchFull, String autoIndex,
                                           Column[] setColumns) {
        return new ConstraintDef(name, Kind.FOREIGN_KEY, table, null, columns, refTable, refColumns, onDelete, onUpdate,
                matchFull, autoIndex, setColumns);
    }

    /** The same constraint under another name (ALTER TABLE ... RENAME CONSTRAINT; regress24). */
    public ConstraintDef renamed(String to) {
        ConstraintDef c = new ConstraintDef(to, kind, table, checkText, columns, refTable, refColumns, onDelete, onUpdate, matchFull,
                autoIndex, setColumns);
        c.postgres = postgres;
        c.deferral = deferral;
        return c;
    }

    /** ON DELETE SET NULL / SET DEFAULT's columns, or null: all of {@link #columns()}. */
    public Column[] setColumns() {
        return setColumns;
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    public Table table() {
        return table;
    }

    public String checkText() {
        return checkText;
    }

    /** The referencing columns (the caller must not change the array). */
    public Column[] columns() {
        return columns;
    }

    public Table refTable() {
        return refTable;
    }

    public Column[] refColumns() {
        return refColumns;
    }

    public char onDelete() {
        return onDelete;
    }

    public char onUpdate() {
        return onUpdate;
    }

    public boolean matchFull() {
        return matchFull;
    }

    public String autoIndex() {
        return autoIndex;
    }

    /** Whether one of the referencing columns ({@code referenced}: the referenced ones) is {@code c}. */
    public boolean covers(Column c, boolean referenced) {
        for (Column x : referenced ? refColumns : columns) {
            if (x == c) {
                return true;
            }
        }
        return false;
    }

    /** PostgreSQL's action words, for DESCRIBE. */
    public static String actionText(char a) {
        switch (a) {
            case RESTRICT:
                return "RESTRICT";
            case CASCADE:
                return "CASCADE";
            case SET_NULL:
                return "SET NULL";
            case SET_DEFAULT:
                return "SET DEFAULT";
            default:
                return "NO ACTION";
        }
    }

    /** The definition as PostgreSQL's pg_get_constraintdef writes it (near enough). */
    public String definition() {
        if (kind == Kind.CHECK) {
            return "CHECK (" + checkText + ")";
        }
        StringBuilder b = new StringBuilder("FOREIGN KEY (");
        for (int i = 0; i < columns.length; i++) {
            b.append(i == 0 ? "" : ", ").append(columns[i].name());
        }
        b.append(") REFERENCES ").append(refTable.name()).append('(');
        for (int i = 0; i < refColumns.length; i++) {
            b.append(i == 0 ? "" : ", ").append(refColumns[i].name());
        }
        b.append(')');
        if (matchFull) {
            b.append(" MATCH FULL");
        }
        if (onUpdate != NO_ACTION) {
            b.append(" ON UPDATE ").append(actionText(onUpdate));
        }
        if (onDelete != NO_ACTION) {
            b.append(" ON DELETE ").append(actionText(onDelete));
            if (setColumns != null) {
                b.append(" (");
                for (int i = 0; i < setColumns.length; i++) {
                    b.append(i == 0 ? "" : ", ").append(setColumns[i].name());
                }
                b.append(')');
            }
        }
        if (deferral > 0) {
            b.append(deferral == 2 ? " DEFERRABLE INITIALLY DEFERRED" : " DEFERRABLE");
        }
        return b.toString();
    }
}
