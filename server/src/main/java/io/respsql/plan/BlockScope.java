package io.respsql.plan;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Column;

import java.util.ArrayList;
import java.util.List;

/**
 * The names one query block sees: the relations of its FROM, in order, and the block around it
 * (a subquery resolves names it does not have in its enclosing blocks: correlated references).
 */
final class BlockScope {
    final BlockScope parent;
    final List<Relation> relations = new ArrayList<>();
    /** Relations of enclosing blocks this block (or a block inside it) reads: its correlation. */
    long outerRefs;
    /** EXPLAIN lines of the subqueries bound in this block's expressions. */
    final List<String> subplans = new ArrayList<>();
    /** Set while a grouped block's outputs, HAVING and ORDER BY are bound: they read the group relation. */
    QueryBinder.GroupOutput group;
    /** Set while a block's outputs and ORDER BY are bound: each window call's column. */
    java.util.Map<io.respsql.sql.tree.Expr, io.respsql.expr.Expression> windowCalls;

    BlockScope(BlockScope parent) {
        this.parent = parent;
    }

    record Resolved(Relation relation, Column column, String label) {
    }

    void add(Relation r) {
        if (r.name != null) {
            for (Relation seen : relations) {
                if (seen.name != null && seen.name.equalsIgnoreCase(r.name)) {
                    throw new SqlException(SqlState.DUPLICATE_ALIAS, "table '" + r.name + "' appears twice in FROM: give each an alias");
                }
            }
        }
        relations.add(r);
    }

    long mask() {
        long m = 0;
        for (Relation r : relations) {
            m |= r.bit();
        }
        return m;
    }

    Relation relation(String qualifier) {
        for (Relation r : relations) {
            if (r.name != null && r.name.equalsIgnoreCase(qualifier)) {
                return r;
            }
        }
        return null;
    }

    /**
     * The column a name means, searching this block then the enclosing ones; null when no block
     * has it (the caller decides: an error, or 2010 unquoted text). A qualified name whose
     * qualifier names a table without that column is an error.
     */
    Resolved resolve(String qualifier, String name) {
        for (BlockScope s = this; s != null; s = s.parent) {
            Resolved r = s.resolveHere(qualifier, name);
            if (r != null && s != this && s.group != null) {
                r = s.group.outerView(r); // a subquery of a grouped block reads the group's key column
            }
            if (r != null) {
                if (s != this) {
                    for (BlockScope inner = this; inner != s; inner = inner.parent) {
                        inner.outerRefs |= r.relation().bit();
                    }
                }
                return r;
            }
        }
        if (qualifier != null) {
            throw new SqlException(SqlState.UNDEFINED_TABLE, "table '" + qualifier + "' is not in the FROM list");
        }
        return null;
    }

    private Resolved resolveHere(String qualifier, String name) {
        if (qualifier != null) {
            Relation r = relation(qualifier);
            if (r == null) {
                return null;
            }
            Column c = r.column(name);
            if (c == null) {
                throw new SqlException(SqlState.UNDEFINED_COLUMN, "column '" + name + "' does not exist in table '" + r.displayName() + "'");
            }
            return new Resolved(r, c, r.name + "." + c.name());
        }
        Resolved found = null;
        for (Relation r : relations) {
            Column c = r.column(name);
            if (c != null) {
                if (found != null) {
                    throw new SqlException(SqlState.AMBIGUOUS_COLUMN, "column '" + name + "' is ambiguous: qualify it with its table name");
                }
                found = new Resolved(r, c, relations.size() > 1 && r.name != null ? r.name + "." + c.name() : c.name());
            }
        }
        return found;
    }

    /** The error for a name no block resolves. */
    String unknownColumn(String name) {
        if (relations.size() == 1) {
            return "column '" + name + "' does not exist in table '" + relations.get(0).displayName() + "'";
        }
        if (relations.isEmpty()) {
            return "column '" + name + "' does not exist";
        }
        return "column '" + name + "' does not exist in any table of the FROM list";
    }
}
