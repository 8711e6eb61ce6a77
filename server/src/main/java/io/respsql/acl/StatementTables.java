package io.respsql.acl;

import io.respsql.sql.tree.Query;
import io.respsql.sql.tree.Statement;

import java.lang.reflect.RecordComponent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The one walker that finds every table a statement reads or writes, from its syntax tree (never
 * from its text): the target of INSERT/UPDATE/DELETE and of each schema change, and every table
 * named in FROM, joins, subqueries (in any expression), CTEs, INSERT ... SELECT, UPDATE ... FROM,
 * DELETE ... USING, RETURNING, a view's query (CREATE VIEW) and the table a foreign key references
 * (CREATE/ALTER TABLE: PostgreSQL's REFERENCES privilege, taken as a read).
 *
 * <p>It walks every record of the tree generically (its components, lists of them), so the nodes
 * other statements add later (a data-modifying CTE's INSERT inside a query, LATERAL) are walked
 * too: a {@link Query.TableRef} anywhere is a read, a write statement anywhere writes its target.
 * A name bound by an enclosing WITH is the CTE, not a table. Names are compared in lower case, a
 * {@code public.} prefix dropped (the catalog's rule); PostgreSQL's system relations
 * ({@code pg_catalog.*}, {@code information_schema.*}) are readable by everyone, as in PostgreSQL.
 *
 * <p>A view is checked by its own name: the tables of its query are not checked against the
 * user reading it (PostgreSQL checks them as the view's owner; here CREATE VIEW needed read
 * access to each of them). Foreign-key checks and actions (ON DELETE CASCADE ...) are not checked
 * against the user either, as PostgreSQL runs them as the table's owner.
 */
public final class StatementTables {
    /** Table name (lower case) to the access it needs: {@link AclUser#READ} | {@link AclUser#WRITE}. */
    private final Map<String, Integer> tables = new LinkedHashMap<>();
    private final Deque<Set<String>> cteScopes = new ArrayDeque<>();
    private final Function<String, String> indexOwner;
    /** False when the statement is of a kind this walker does not know (its targets may be missed). */
    private boolean known = true;

    private StatementTables(Function<String, String> indexOwner) {
        this.indexOwner = indexOwner;
    }

    /**
     * The tables {@code st} reads and writes. {@code indexOwner}: the table an index belongs to
     * (DROP INDEX), or null when there is no such index.
     */
    public static StatementTables of(Statement st, Function<String, String> indexOwner) {
        StatementTables t = new StatementTables(indexOwner);
        t.visit(st);
        return t;
    }

    public Map<String, Integer> tables() {
        return tables;
    }

    /** Whether every node of the statement was one whose targets this walker knows. */
    public boolean known() {
        return known;
    }

    private void need(String name, int flags) {
        if (name == null) {
            return;
        }
        String n = name.toLowerCase(Locale.ROOT);
        if (n.startsWith("public.")) {
            n = n.substring(7);
        }
        if ((flags & AclUser.WRITE) == 0 && io.respsql.catalog.SystemRelations.isSystem(n)) {
            return;
        }
        tables.merge(n, flags, (a, b) -> a | b);
    }

    private boolean isCte(String name) {
        for (Set<String> scope : cteScopes) {
            if (scope.contains(name.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    private void visit(Object node) {
        if (node == null || node instanceof String || node instanceof Number || node instanceof Boolean
                || node instanceof Enum<?>) {
            return;
        }
        if (node instanceof Collection<?> c) {
            for (Object o : c) {
                visit(o);
            }
            return;
        }
        if (node instanceof Query.TableRef r) {
            if (!isCte(r.name())) {
                need(r.name(), AclUser.READ);
            }
            return;
        }
        if (node instanceof Query.With w) {
            visitWith(w);
            return;
        }
        if (node instanceof Statement st) {
            targets(st);
        }
        if (node instanceof Record) {
            for (RecordComponent rc : components(node.getClass())) {
                try {
                    visit(rc.getAccessor().invoke(node));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    private void visitWith(Query.With w) {
        Set<String> scope = new HashSet<>();
        cteScopes.push(scope);
        try {
            for (Query.Cte c : w.ctes()) {
                if (w.recursive()) {
                    scope.add(c.name().toLowerCase(Locale.ROOT));
                }
                visit(c);
                scope.add(c.name().toLowerCase(Locale.ROOT));
            }
            visit(w.body());
        } finally {
            cteScopes.pop();
        }
    }

    private static final ClassValue<RecordComponent[]> COMPONENTS = new ClassValue<>() {
        @Override
        protected RecordComponent[] computeValue(Class<?> type) {
            RecordComponent[] rc = type.getRecordComponents();
            for (RecordComponent c : rc) {
                c.getAccessor().setAccessible(true);
            }
            return rc;
        }
    };

    private static RecordComponent[] components(Class<?> type) {
        return COMPONENTS.get(type);
    }

    /** The tables a statement itself writes (or reads by name); its trees are walked by {@link #visit}. */
    private void targets(Statement st) {
        int w = AclUser.WRITE;
        if (st instanceof Statement.Insert s) {
            need(s.table(), s.returning() != null ? w | AclUser.READ : w);
        } else if (st instanceof Statement.Update s) {
            need(s.table(), s.returning() != null ? w | AclUser.READ : w);
        } else if (st instanceof Statement.Delete s) {
            need(s.table(), s.returning() != null ? w | AclUser.READ : w);
        } else if (st instanceof Statement.CreateTable s) {
            need(s.table(), w);
            references(s.constraints());
        } else if (st instanceof Statement.CreateIndex s) {
            need(s.table(), w);
        } else if (st instanceof Statement.CreateView s) {
            need(s.view(), w);
        } else if (st instanceof Statement.DropTable s) {
            for (String t : s.tables()) {
                need(t, w);
            }
        } else if (st instanceof Statement.AlterTable s) {
            need(s.table(), w);
            List<Statement.TableConstraint> fks = new ArrayList<>();
            for (Statement.AlterAction a : s.actions()) {
                if (a instanceof Statement.RenameTable r) {
                    need(r.to(), w);
                } else if (a instanceof Statement.AddConstraint c) {
                    fks.add(c.constraint());
                }
            }
            references(fks);
        } else if (st instanceof Statement.Truncate s) {
            for (String t : s.tables()) {
                need(t, w);
            }
        } else if (st instanceof Statement.CreateTableAs s) {
            need(s.table(), w);
        } else if (st instanceof Statement.DropIndex s) {
            need(indexOwner == null ? null : indexOwner.apply(s.index()), w);
        } else if (st instanceof Statement.DropView s) {
            need(s.view(), w);
        } else if (st instanceof Statement.Describe s) {
            need(s.table(), AclUser.READ);
        } else if (st instanceof Statement.Dump s) {
            need(s.table(), AclUser.READ);
        } else if (st instanceof Statement.ShowIndexes s) {
            need(s.table(), AclUser.READ);
        } else if (st instanceof Statement.Maintenance s) { // regress25
            for (String t : s.tables()) {
                need(t, AclUser.READ);
            }
        } else if (st instanceof Statement.CreateSequence s) {
            need(s.name(), w);
        } else if (st instanceof Statement.AlterSequence s) {
            need(s.name(), w);
        } else if (st instanceof Statement.DropSequence s) {
            for (String t : s.names()) {
                need(t, w);
            }
        } else if (!(st instanceof Statement.QueryStatement || st instanceof Statement.Explain
                || st instanceof Statement.ShowTables || st instanceof Statement.DiscardSequences
                || Acl.isUserStatement(st))) {
            known = false;
        }
    }

    private void references(List<Statement.TableConstraint> constraints) {
        if (constraints == null) {
            return;
        }
        for (Statement.TableConstraint c : constraints) {
            if (c.kind() == Statement.ConstraintKind.FOREIGN_KEY) {
                need(c.refTable(), AclUser.READ);
            }
        }
    }

    /**
     * The SQL verb of a statement, the ACL command it is checked as: {@code select} for a query,
     * else the first word of its kind ({@code CreateIndex} is {@code create}).
     */
    public static String verb(Statement st) {
        if (st instanceof Statement.QueryStatement) {
            return "select";
        }
        String n = st.getClass().getSimpleName();
        int end = 1;
        while (end < n.length() && !Character.isUpperCase(n.charAt(end))) {
            end++;
        }
        return n.substring(0, end).toLowerCase(Locale.ROOT);
    }
}
