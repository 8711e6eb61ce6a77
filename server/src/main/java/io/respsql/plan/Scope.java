package io.respsql.plan;

import io.respsql.sql.SqlException;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.Table;

import java.util.ArrayList;
import java.util.List;

/** The tables a statement names, in FROM order; position i is {@code rows[i]} at run time. */
public final class Scope {
    private final List<Table> tables = new ArrayList<>();

    public static Scope of(Catalog catalog, List<String> names) {
        Scope s = new Scope();
        for (String n : names) {
            Table t = requireTable(catalog, n);
            for (Table seen : s.tables) {
                if (seen == t) {
                    throw new SqlException("table '" + t.name() + "' appears twice in FROM (self-joins are not supported)");
                }
            }
            s.tables.add(t);
        }
        return s;
    }

    public static Table requireTable(Catalog catalog, String name) {
        Table t = catalog.table(name);
        if (t == null) {
            throw new SqlException("table '" + name + "' does not exist");
        }
        return t;
    }

    public int size() {
        return tables.size();
    }

    public Table table(int i) {
        return tables.get(i);
    }

    public List<Table> tables() {
        return tables;
    }

    /** Resolved column reference, or null when no table of the scope has that column. */
    public Resolved resolve(String qualifier, String name) {
        if (qualifier != null) {
            for (int i = 0; i < tables.size(); i++) {
                Table t = tables.get(i);
                if (t.name().equalsIgnoreCase(qualifier)) {
                    Column c = t.column(name);
                    if (c == null) {
                        throw new SqlException("column '" + name + "' does not exist in table '" + t.name() + "'");
                    }
                    return new Resolved(i, c, tables.size() > 1 ? t.name() + "." + c.name() : c.name());
                }
            }
            throw new SqlException("table '" + qualifier + "' is not in the FROM list");
        }
        Resolved found = null;
        for (int i = 0; i < tables.size(); i++) {
            Column c = tables.get(i).column(name);
            if (c != null) {
                if (found != null) {
                    throw new SqlException("column '" + name + "' is ambiguous: qualify it with its table name");
                }
                found = new Resolved(i, c, tables.size() > 1 ? tables.get(i).name() + "." + c.name() : c.name());
            }
        }
        return found;
    }

    /** Error text for a name that resolves to no column. */
    public String unknownColumn(String name) {
        if (tables.size() == 1) {
            return "column '" + name + "' does not exist in table '" + tables.get(0).name() + "'";
        }
        return "column '" + name + "' does not exist in any table of the FROM list";
    }

    public record Resolved(int tableIndex, Column column, String label) {
    }
}
