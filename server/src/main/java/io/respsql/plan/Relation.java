package io.respsql.plan;

import io.respsql.storage.Column;
import io.respsql.storage.Table;

import java.util.ArrayList;
import java.util.List;

/**
 * One relation of a statement, numbered once across every query block: a base table, a
 * derived table or view (rows materialized into a work table), a GROUP BY's groups, the
 * result of a set operation or a VALUES list. Its row slot is {@code EvalContext.slots[number]}.
 */
public final class Relation {
    public enum Kind { TABLE, DERIVED, GROUP, VALUES, SETOP, WINDOW }

    public final int number;
    public final Kind kind;
    /** The name the query block sees it by: its alias, else the table's or view's name; null for an unnamed derived table. */
    public final String name;
    public final Table table;
    /** Column names as the query sees them (a view's declared names, a derived table's output names). */
    public final List<String> columnNames;
    /** partition: how many of the columns {@code *} shows (-1: all; a partitioned table's hides its tableoid). */
    int starColumns = -1;
    /** DERIVED: the query whose rows fill the work table. */
    LogicalQuery source;
    /** Planned for EXPLAIN: only then are descriptions built (planning a statement to run builds no text). */
    boolean explain;
    /** DERIVED: the source's plan, made once however often join planning costs the relation. */
    QueryPlanner.Planned sourcePlan;
    /** DERIVED: plans of the source told of an outer top-k filter or order ({@link DerivedAccess}), by variant. */
    java.util.Map<Object, QueryPlanner.Planned> variants;

    // ---- join structure of the block that lists it ----------------------------------------------
    /** Joined by LEFT JOIN: rows of the relations before it are kept with slot -1 here when nothing matches. */
    boolean outerJoined;
    /** The ON conditions of its LEFT JOIN (they decide matches, they filter nothing). */
    final List<Conjunct> on = new ArrayList<>();
    /** Relations (bits) that must be joined before it: the preserved side of its LEFT JOIN. */
    long dependsOn;

    Relation(int number, Kind kind, String name, Table table, List<String> columnNames) {
        this.number = number;
        this.kind = kind;
        this.name = name;
        this.table = table;
        this.columnNames = columnNames;
    }

    /** The column called {@code columnName} (case-insensitive), or null. */
    public Column column(String columnName) {
        if (kind == Kind.TABLE) {
            return table.column(columnName); // by hash; the names are the table's own
        }
        for (int i = 0; i < columnNames.size(); i++) {
            if (columnNames.get(i).equalsIgnoreCase(columnName)) {
                return table.column(i);
            }
        }
        return null;
    }

    public long bit() {
        return 1L << number;
    }

    /** The name EXPLAIN and errors use. */
    public String displayName() {
        return name != null ? name : "(subquery)";
    }

    @Override
    public String toString() {
        return displayName() + "#" + number;
    }
}
