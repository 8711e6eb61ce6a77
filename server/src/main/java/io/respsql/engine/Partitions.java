package io.respsql.engine;

import io.respsql.result.Outcome;
import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlParser;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.ConstraintDef;
import io.respsql.storage.Partitioning;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.UndoLog;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's declarative partitioning (partition helper): the DDL (PARTITION BY, PARTITION OF,
 * ATTACH / DETACH PARTITION, DROP of a partitioned table) and a routing step in front of the
 * ordinary INSERT, UPDATE and DELETE. A partition is a table of its own; a partitioned table is a
 * table whose rows are none outside a routing statement. A write through it runs as it would on
 * the table itself (defaults, NOT NULL, RETURNING of INSERT), then its rows are moved to the
 * partitions whose bound they satisfy by statements of their own ({@code INSERT INTO leaf ...
 * SELECT ... FROM ONLY parent WHERE bound}); an UPDATE or DELETE runs on every leaf partition, and
 * a row an UPDATE takes outside its partition's bound is moved through the parent again. A
 * partition's bound is an SQL condition built from the bound's values and the parent's key (a
 * DEFAULT partition's the negation of its siblings'), so the engine's own expressions evaluate it.
 * Everything runs in one undo log: a failure takes the whole statement back.
 */
final class Partitions {
    /** Runs a statement as the engine would, without routing, recording its changes in {@code log}. */
    interface Runner {
        Outcome run(Statement st, String sql, ResultSink sink, UndoLog log);
    }

    private final Catalog catalog;
    private final Runner runner;
    /** True while a routing statement runs its own statements: those are not routed again. */
    private boolean routing;

    Partitions(Catalog catalog, Runner runner) {
        this.catalog = catalog;
        this.runner = runner;
    }

    /** Whether {@code st} needs partitioning's hand (false also while a routing statement runs its parts). */
    boolean handles(Statement st) {
        if (routing) {
            return false;
        }
        if (st instanceof Statement.CreatePartitioned || st instanceof Statement.CreatePartitionOf) {
            return true;
        }
        if (st instanceof Statement.AlterTable a) {
            for (Statement.AlterAction x : a.actions()) {
                if (x instanceof Statement.AttachPartition || x instanceof Statement.DetachPartition) {
                    return true;
                }
            }
            Table t = catalog.table(a.table());
            return t != null && t.partitioning != null && !(a.actions().size() == 1 && a.actions().get(0) instanceof Statement.RenameTable);
        }
        if (st instanceof Statement.CreateIndex c) {
            return Partitioning.partitioned(catalog.table(c.table()));
        }
        String target = st instanceof Statement.Insert s ? s.table() : st instanceof Statement.Update s ? s.table()
                : st instanceof Statement.Delete s ? s.table() : null;
        if (target != null) {
            Table t = catalog.table(target);
            return t != null && t.partitioning != null;
        }
        if (st instanceof Statement.DropTable d) {
            return inTree(d.tables());
        }
        if (st instanceof Statement.Truncate d) {
            return inTree(d.tables());
        }
        return false;
    }

    private boolean inTree(List<String> names) {
        for (String n : names) {
            Table t = catalog.table(n);
            if (t != null && t.partitioning != null) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code st} (one {@link #handles} took) within {@code block} (null: outside MULTI/EXEC). */
    Outcome run(Statement st, String sql, ResultSink sink, UndoLog block) {
        UndoLog log = new UndoLog(catalog);
        routing = true;
        try {
            Outcome o = dispatch(st, sql, sink, log);
            if (block != null) {
                block.absorb(log);
            }
            return o;
        } catch (RuntimeException | Error e) {
            log.rollback();
            catalog.schemaChanged();
            throw e;
        } finally {
            routing = false;
        }
    }

    private Outcome dispatch(Statement st, String sql, ResultSink sink, UndoLog log) {
        if (st instanceof Statement.CreatePartitioned s) {
            return createPartitioned(s, sql, log);
        } else if (st instanceof Statement.CreatePartitionOf s) {
            return createPartitionOf(s, sql, log);
        } else if (st instanceof Statement.AlterTable s) {
            return alter(s, sql, log);
        } else if (st instanceof Statement.CreateIndex s) {
            return createIndex(s, sql, log);
        } else if (st instanceof Statement.Insert s) {
            return insert(s, sql, sink, log);
        } else if (st instanceof Statement.Update s) {
            return update(s, sql, sink, log);
        } else if (st instanceof Statement.Delete s) {
            return delete(s, sql, sink, log);
        } else if (st instanceof Statement.DropTable s) {
            return drop(s, sql, sink, log);
        } else if (st instanceof Statement.Truncate s) {
            List<String> all = new ArrayList<>();
            for (String n : s.tables()) {
                Table t = catalog.table(n);
                all.add(n);
                if (t != null) {
                    for (Table d : descendants(t)) {
                        all.add(d.name());
                    }
                }
            }
            return runner.run(new Statement.Truncate(all, s.restartIdentity(), s.cascade()), sql, sink, log);
        }
        throw new IllegalStateException("partitioning cannot run " + st.getClass().getSimpleName());
    }

    // ---- DDL ----

    private Outcome createPartitioned(Statement.CreatePartitioned s, String sql, UndoLog log) {
        Outcome o = runner.run(s.table(), sql, ResultSink.NONE, log);
        if (o.changes() <= 0) {
            return o;
        }
        Table t = catalog.table(s.table().table());
        refuseForeignKeys(t);
        checkKey(t, s.key());
        Partitioning.of(t).key = s.key();
        return o;
    }

    /** Each key names a column of {@code t} or is an expression over them. */
    private void checkKey(Table t, Statement.PartitionKey key) {
        for (String k : key.keys()) {
            if (SIMPLE_NAME.matcher(k).matches() && t.column(unquote(k)) == null) {
                throw new SqlException(SqlState.UNDEFINED_COLUMN, "column \"" + unquote(k) + "\" named in partition key does not exist");
            }
        }
        for (String k : key.keys()) {
            if (SUBQUERY.matcher(k).find()) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot use subquery in partition key expression");
            }
            if (WINDOW.matcher(k).find()) {
                throw new SqlException(SqlState.WINDOWING_ERROR, "window functions are not allowed in partition key expressions");
            }
            boolean column = false;
            Matcher m = WORD.matcher(k);
            while (m.find()) {
                column |= t.column(unquote(m.group())) != null;
            }
            if (!column) {
                throw new SqlException(SqlState.INVALID_OBJECT_DEFINITION, "cannot use constant expression as partition key");
            }
        }
        StringBuilder q = new StringBuilder("SELECT ");
        for (int i = 0; i < key.keys().size(); i++) {
            q.append(i == 0 ? "" : ", ").append(key.keys().get(i));
        }
        q.append(" FROM ONLY ").append(quote(t.name())).append(" WHERE FALSE");
        Capture rows = new Capture();
        generated(q.toString(), rows, null);
        if (rows.rows > 0) { // an aggregate answers a row even over no rows
            throw new SqlException(SqlState.GROUPING_ERROR, "aggregate functions are not allowed in partition key expressions");
        }
    }

    private static final Pattern SUBQUERY = Pattern.compile("(?i)\\(\\s*SELECT\\b");
    private static final Pattern WINDOW = Pattern.compile("(?i)\\bOVER\\s*\\(");
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z_0-9$]*|\"([^\"]|\"\")+\"");

    private static final Pattern SIMPLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z_0-9$]*|\"([^\"]|\"\")+\"");

    private static String unquote(String k) {
        return k.startsWith("\"") ? k.substring(1, k.length() - 1).replace("\"\"", "\"") : k.toLowerCase(Locale.ROOT);
    }

    private Outcome createPartitionOf(Statement.CreatePartitionOf s, String sql, UndoLog log) {
        if (catalog.table(s.table()) != null || catalog.view(s.table()) != null) {
            if (s.ifNotExists()) {
                return Outcome.ok(0);
            }
            throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + s.table() + "\" already exists");
        }
        Table parent = parentTable(s.parent());
        List<Statement.KeyConstraint> keys = new ArrayList<>(s.keys());
        for (Statement.ColumnDef o : s.columnOptions()) {
            if (parent.column(o.name()) == null) {
                throw new SqlException(SqlState.UNDEFINED_COLUMN, "column \"" + o.name() + "\" does not exist");
            }
            if (o.primaryKey() || o.unique()) {
                keys.add(new Statement.KeyConstraint(o.primaryKey(), List.of(parent.column(o.name()).name())));
            }
        }
        List<ColumnSpec> specs = new ArrayList<>();
        for (int i = 0; i < parent.columnCount(); i++) {
            Column c = parent.column(i);
            boolean notNull = c.notNull();
            String defaultText = c.defaultText();
            for (Statement.ColumnDef o : s.columnOptions()) {
                if (o.name().equalsIgnoreCase(c.name())) {
                    notNull |= o.notNull() || o.primaryKey();
                    defaultText = o.defaultText() != null ? o.defaultText() : defaultText;
                }
            }
            for (Statement.KeyConstraint k : keys) {
                if (k.primary() && k.columns().stream().anyMatch(n -> n.equalsIgnoreCase(c.name()))) {
                    notNull = true;
                }
            }
            specs.add(new ColumnSpec(c.name(), c.type(), notNull, defaultText, c.typeModifier()));
        }
        Column pk = parent.primaryColumn();
        Table t = new Table(s.table(), specs, pk == null ? -1 : pk.position());
        List<TableIndex> built = new ArrayList<>();
        for (TableIndex ix : parent.indexes()) {
            if (!ix.unique() || ix.isPrimary()) {
                continue;
            }
            List<Column> cols = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (Column c : ix.columns()) {
                cols.add(t.column(c.name()));
                names.add(c.name());
            }
            String name = s.table() + ":" + String.join(",", names) + (ix.name().endsWith(":pk") ? ":pk" : ":unique");
            built.add(t.createIndex(name, cols, true, ix.descending()));
        }
        for (Statement.KeyConstraint k : keys) { // the partition's own UNIQUE / PRIMARY KEY
            List<Column> cols = new ArrayList<>();
            for (String n : k.columns()) {
                Column c = t.column(n);
                if (c == null) {
                    throw new SqlException(SqlState.UNDEFINED_COLUMN, "column \"" + n + "\" named in key does not exist");
                }
                cols.add(c);
            }
            String name = s.table() + ":" + String.join(",", k.columns()) + (k.primary() ? ":pk" : ":unique");
            if (t.indexPosition(name) < 0) {
                built.add(t.createIndex(name, cols, true, new boolean[cols.size()]));
            }
        }
        for (TableIndex ix : built) {
            if (catalog.indexOwner(ix.name()) != null) {
                throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + ix.name() + "\" already exists");
            }
        }
        log.catalogChanging();
        catalog.add(t);
        for (TableIndex ix : built) {
            catalog.registerIndex(ix.name(), t);
        }
        // the parent's CHECKs and key constraints' names, then the partition's own constraints
        for (ConstraintDef c : parent.constraints().checks) {
            t.constraints().checks.add(ConstraintDef.check(c.name(), t, c.checkText(), c.postgres()));
        }
        if (t.primaryIndex() != null) {
            t.constraints().nameKey(s.table() + "_pkey", t.primaryIndex().name());
        }
        for (TableIndex ix : built) {
            String base = s.table() + "_" + String.join("_", ix.name().split(":")[1].split(",")) + (ix.name().endsWith(":pk") ? "_pkey" : "_key");
            String name = base;
            for (int i = 1; t.constraints().has(name); i++) {
                name = base + i;
            }
            t.constraints().nameKey(name, ix.name());
        }
        List<Statement.TableConstraint> own = new ArrayList<>();
        for (Statement.TableConstraint c : s.constraints()) {
            if (c.name() == null || !t.constraints().has(c.name())) { // one named as an inherited one merges with it
                own.add(c);
            }
        }
        if (!own.isEmpty()) {
            io.respsql.exec.write.ConstraintDdl.created(catalog, t, new Statement.CreateTable(s.table(), List.of(), List.of(), false,
                    own), log, def -> io.respsql.plan.WritePlanner.bindCheck(catalog, def));
        }
        if (s.key() != null) {
            checkKey(t, s.key());
            Partitioning.of(t).key = s.key();
        }
        attach(parent, t, s.bound(), log, false);
        return Outcome.ok(1);
    }

    private Table parentTable(String name) {
        Table parent = catalog.table(name);
        if (parent == null) {
            throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
        }
        if (!Partitioning.partitioned(parent)) {
            throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "table \"" + parent.name() + "\" is not partitioned");
        }
        return parent;
    }

    /** ALTER TABLE of a partition tree's table: a partitioned table's change goes to its partitions too. */
    private Outcome alterTree(Statement.AlterTable s, String sql, UndoLog log) {
        Table t = catalog.table(s.table());
        Table parent = Partitioning.parentOf(t);
        if (parent != null) {
            for (Statement.AlterAction a : s.actions()) {
                String col = a instanceof Statement.DropColumn d ? d.column() : a instanceof Statement.RenameColumn r ? r.column() : null;
                if (col != null && parent.column(col) != null) {
                    throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "cannot " + (a instanceof Statement.DropColumn ? "drop" : "rename")
                            + " inherited column \"" + col + "\"");
                }
            }
        }
        Outcome o = runner.run(s, sql, ResultSink.NONE, log);
        if (Partitioning.partitioned(t)) {
            refuseForeignKeys(t);
            for (Table d : descendants(t)) {
                runner.run(new Statement.AlterTable(d.name(), false, s.actions()), sql, ResultSink.NONE, log);
            }
        }
        return o;
    }

    /** CREATE INDEX on a partitioned table: each partition gets its own. */
    private Outcome createIndex(Statement.CreateIndex s, String sql, UndoLog log) {
        Outcome o = runner.run(s, sql, ResultSink.NONE, log);
        if (o.changes() <= 0) {
            return o;
        }
        for (Table d : descendants(catalog.table(s.table()))) {
            StringBuilder base = new StringBuilder(d.name());
            for (Statement.IndexColumn c : s.columns()) {
                base.append('_').append(c.name());
            }
            base.append(s.unique() ? "_key" : "_idx");
            String name = base.toString();
            for (int i = 1; catalog.indexOwner(name) != null || catalog.nameTaken(name); i++) {
                name = base.toString() + i;
            }
            runner.run(new Statement.CreateIndex(name, d.name(), s.columns(), s.unique(), false), sql, ResultSink.NONE, log);
        }
        return o;
    }

    private Outcome alter(Statement.AlterTable s, String sql, UndoLog log) {
        boolean partitionAction = false;
        for (Statement.AlterAction x : s.actions()) {
            partitionAction |= x instanceof Statement.AttachPartition || x instanceof Statement.DetachPartition;
        }
        if (!partitionAction) {
            return alterTree(s, sql, log);
        }
        if (s.actions().size() != 1) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "ATTACH / DETACH PARTITION is not supported with other ALTER TABLE actions");
        }
        Table parent = catalog.table(s.table());
        if (parent == null) {
            if (s.ifExists()) {
                return Outcome.ok(0);
            }
            throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + s.table() + "\" does not exist");
        }
        if (!Partitioning.partitioned(parent)) {
            throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "table \"" + parent.name() + "\" is not partitioned");
        }
        if (s.actions().get(0) instanceof Statement.AttachPartition a) {
            Table t = catalog.table(a.partition());
            if (t == null) {
                throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + a.partition() + "\" does not exist");
            }
            if (t.partitioning != null && t.partitioning.parent != null) {
                throw new SqlException(SqlState.OBJECT_IN_USE, "\"" + t.name() + "\" is already a partition");
            }
            if (t == parent || descendants(t).contains(parent)) {
                throw new SqlException(SqlState.DUPLICATE_TABLE, "cannot attach a table to itself or one of its partitions");
            }
            sameColumns(parent, t);
            attach(parent, t, a.bound(), log, true);
            return Outcome.ok(1);
        }
        Statement.DetachPartition d = (Statement.DetachPartition) s.actions().get(0);
        Table t = catalog.table(d.partition());
        if (t == null) {
            throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + d.partition() + "\" does not exist");
        }
        if (Partitioning.parentOf(t) != parent) {
            throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + t.name() + "\" is not a partition of relation \""
                    + parent.name() + "\"");
        }
        detach(t, log);
        return Outcome.ok(1);
    }

    /** ATTACH PARTITION: the table's columns are the parent's (by name and type, in any order). */
    private static void sameColumns(Table parent, Table t) {
        for (int i = 0; i < t.columnCount(); i++) {
            Column c = t.column(i);
            Column p = parent.column(c.name());
            if (p == null) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, "table \"" + t.name() + "\" contains column \"" + c.name()
                        + "\" not found in parent \"" + parent.name() + "\"");
            }
            if (p.type() != c.type()) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, "child table \"" + t.name() + "\" has different type for column \""
                        + c.name() + "\"");
            }
        }
        for (int i = 0; i < parent.columnCount(); i++) {
            Column p = parent.column(i);
            Column c = t.column(p.name());
            if (c == null) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, "child table is missing column \"" + p.name() + "\"");
            }
            if (p.notNull() && !c.notNull()) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, "column \"" + p.name() + "\" in child table must be marked NOT NULL");
            }
        }
    }

    /**
     * Makes {@code t} a partition of {@code parent} with {@code bound}, after checking the bound
     * against the key and the other partitions; {@code validate}: the table's rows must satisfy it
     * (ATTACH; a new table has none). A DEFAULT partition's rows must not belong to the new one.
     */
    private void attach(Table parent, Table t, Statement.PartitionBound bound, UndoLog log, boolean validate) {
        Partitioning pp = parent.partitioning;
        checkBound(parent, t, bound);
        Partitioning tp = Partitioning.of(t);
        Partitioning saved = copy(tp);
        log.onRollback(() -> {
            t.partitioning = saved;
            pp.partitions.remove(t);
        });
        tp.parent = parent;
        tp.bound = bound;
        pp.partitions.add(t);
        catalog.schemaChanged();
        if (validate) {
            for (Table leaf : leaves(t)) {
                if (violations(leaf, fullCondition(leaf), log) > 0) {
                    throw new SqlException(SqlState.CHECK_VIOLATION, "partition constraint of relation \"" + leaf.name()
                            + "\" is violated by some row");
                }
            }
        }
        Table def = pp.defaultPartition();
        if (def != null && def != t) {
            for (Table leaf : leaves(def)) {
                if (violations(leaf, fullCondition(leaf), log) > 0) {
                    throw new SqlException(SqlState.CHECK_VIOLATION, "updated partition constraint for default partition \""
                            + def.name() + "\" would be violated by some row");
                }
            }
        }
    }

    private static Partitioning copy(Partitioning p) {
        Partitioning c = new Partitioning();
        c.key = p.key;
        c.parent = p.parent;
        c.bound = p.bound;
        c.partitions.addAll(p.partitions);
        return c;
    }

    private void detach(Table t, UndoLog log) {
        Partitioning tp = t.partitioning;
        Table parent = tp.parent;
        Statement.PartitionBound bound = tp.bound;
        int at = parent.partitioning.partitions.indexOf(t);
        log.onRollback(() -> {
            tp.parent = parent;
            tp.bound = bound;
            if (!parent.partitioning.partitions.contains(t)) {
                parent.partitioning.partitions.add(Math.min(at, parent.partitioning.partitions.size()), t);
            }
        });
        parent.partitioning.partitions.remove(t);
        tp.parent = null;
        tp.bound = null;
        if (tp.key == null) {
            t.partitioning = null;
            log.onRollback(() -> t.partitioning = tp);
        }
        catalog.schemaChanged();
    }

    /** The bound fits the parent's key and overlaps no other partition's. */
    private void checkBound(Table parent, Table t, Statement.PartitionBound b) {
        Statement.PartitionKey key = parent.partitioning.key;
        Partitioning pp = parent.partitioning;
        if (b.isDefault()) {
            if (key.strategy().equals("HASH")) {
                throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "a hash-partitioned table may not have a default partition");
            }
            Table def = pp.defaultPartition();
            if (def != null) {
                throw new SqlException(SqlState.INVALID_OBJECT_DEFINITION, "partition \"" + t.name()
                        + "\" conflicts with existing default partition \"" + def.name() + "\"");
            }
            return;
        }
        if (!b.kind().equals(key.strategy())) {
            throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "invalid bound specification for a "
                    + key.strategy().toLowerCase(Locale.ROOT) + " partition");
        }
        switch (b.kind()) {
            case "LIST" -> {
                for (Table c : pp.partitions) {
                    Statement.PartitionBound o = c.partitioning.bound;
                    if (o == null || o.isDefault()) {
                        continue;
                    }
                    for (String v : b.in()) {
                        for (String w : o.in()) {
                            boolean overlap = isNull(v) || isNull(w) ? isNull(v) && isNull(w)
                                    : truth("SELECT (" + v + ") = (" + w + ")");
                            if (overlap) {
                                throw overlap(t, c);
                            }
                        }
                    }
                }
            }
            case "RANGE" -> {
                int n = key.keys().size();
                if (b.from().size() != n || b.to().size() != n) {
                    throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, (b.from().size() != n ? "FROM" : "TO")
                            + " must specify exactly one value per partitioning column");
                }
                for (String v : b.from()) {
                    if (isNull(v)) {
                        throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "cannot specify NULL in range bound");
                    }
                }
                for (String v : b.to()) {
                    if (isNull(v)) {
                        throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "cannot specify NULL in range bound");
                    }
                }
                infinitiesFollow(b.from());
                infinitiesFollow(b.to());
                if (!truth("SELECT " + less(b.from(), b.to()))) {
                    throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "empty range bound specified for partition \""
                            + t.name() + "\"");
                }
                for (Table c : pp.partitions) {
                    Statement.PartitionBound o = c.partitioning.bound;
                    if (o == null || o.isDefault()) {
                        continue;
                    }
                    if (truth("SELECT " + less(b.from(), o.to()) + " AND " + less(o.from(), b.to()))) {
                        throw overlap(t, c);
                    }
                }
            }
            default -> {
                if (b.modulus() <= 0) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "modulus for hash partition must be an integer value greater than zero");
                }
                if (b.remainder() >= b.modulus()) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                            "remainder for hash partition must be less than modulus");
                }
                for (Table c : pp.partitions) {
                    Statement.PartitionBound o = c.partitioning.bound;
                    int small = Math.min(o.modulus(), b.modulus());
                    int big = Math.max(o.modulus(), b.modulus());
                    if (big % small != 0) {
                        throw new SqlException(SqlState.INVALID_OBJECT_DEFINITION,
                                "every hash partition modulus must be a factor of the next larger modulus");
                    }
                    if (o.remainder() % small == b.remainder() % small) {
                        throw overlap(t, c);
                    }
                }
            }
        }
    }

    /** After MINVALUE every bound value is MINVALUE, after MAXVALUE MAXVALUE. */
    private static void infinitiesFollow(List<String> bound) {
        String inf = null;
        for (String v : bound) {
            if (inf != null && !v.equals(inf)) {
                throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "every bound following " + inf + " must also be " + inf);
            }
            if (rank(v) != 0) {
                inf = v;
            }
        }
    }

    private static SqlException overlap(Table t, Table c) {
        return new SqlException(SqlState.INVALID_OBJECT_DEFINITION, "partition \"" + t.name() + "\" would overlap partition \""
                + c.name() + "\"");
    }

    private static boolean isNull(String v) {
        return v.trim().equalsIgnoreCase("NULL");
    }

    /** The SQL condition "bound tuple a < bound tuple b" (MINVALUE / MAXVALUE ends the comparison). */
    private static String less(List<String> a, List<String> b) {
        return less(a, b, 0);
    }

    private static String less(List<String> a, List<String> b, int i) {
        if (i == a.size()) {
            return "FALSE";
        }
        String x = a.get(i);
        String y = b.get(i);
        int rx = rank(x);
        int ry = rank(y);
        if (rx != 0 || ry != 0) {
            return rx < ry ? "TRUE" : "FALSE"; // equal infinities: the rest are infinities too
        }
        return "((" + x + ") < (" + y + ") OR (" + x + ") = (" + y + ") AND " + less(a, b, i + 1) + ")";
    }

    private static int rank(String v) {
        return v.equals("MINVALUE") ? -1 : v.equals("MAXVALUE") ? 1 : 0;
    }

    // ---- conditions ----

    /** The condition {@code t}'s bound puts on its parent's key (its DEFAULT: none of its siblings'). */
    static String levelCondition(Table t) {
        Partitioning tp = t.partitioning;
        Table parent = tp.parent;
        Statement.PartitionKey key = parent.partitioning.key;
        Statement.PartitionBound b = tp.bound;
        if (b.isDefault()) {
            StringBuilder others = new StringBuilder();
            for (Table c : parent.partitioning.partitions) {
                if (c != t && c.partitioning.bound != null && !c.partitioning.bound.isDefault()) {
                    others.append(others.length() == 0 ? "" : " OR ").append(levelCondition(c));
                }
            }
            return others.length() == 0 ? "TRUE" : "(NOT COALESCE(" + others + ", FALSE))";
        }
        List<String> keys = key.keys();
        switch (b.kind()) {
            case "LIST": {
                String k = keys.get(0);
                StringBuilder in = new StringBuilder();
                boolean nulls = false;
                for (String v : b.in()) {
                    if (isNull(v)) {
                        nulls = true;
                    } else {
                        in.append(in.length() == 0 ? "" : ", ").append(v);
                    }
                }
                String inList = in.length() == 0 ? "FALSE" : "(" + k + ") IN (" + in + ")";
                return nulls ? "((" + k + ") IS NULL OR " + inList + ")" : "((" + k + ") IS NOT NULL AND " + inList + ")";
            }
            case "RANGE": {
                StringBuilder c = new StringBuilder("(");
                for (String k : keys) {
                    c.append("(").append(k).append(") IS NOT NULL AND ");
                }
                c.append("NOT ").append(keyLess(keys, b.from(), 0)).append(" AND ").append(keyLess(keys, b.to(), 0)).append(")");
                return c.toString();
            }
            default: {
                StringBuilder c = new StringBuilder("respsql_hash_partition(" + b.modulus() + ", " + b.remainder());
                for (int i = 0; i < keys.size(); i++) {
                    String op = key.opclasses().get(i);
                    c.append(", '").append(op == null ? "" : op.replace("'", "''")).append("', ").append(keys.get(i));
                }
                return c.append(")").toString();
            }
        }
    }

    /** "key tuple < bound tuple" over the key expressions (keys are not NULL here). */
    private static String keyLess(List<String> keys, List<String> bound, int i) {
        if (i == keys.size()) {
            return "FALSE";
        }
        String v = bound.get(i);
        int r = rank(v);
        if (r != 0) {
            return r > 0 ? "TRUE" : "FALSE";
        }
        String k = "(" + keys.get(i) + ")";
        return "(" + k + " < (" + v + ") OR " + k + " = (" + v + ") AND " + keyLess(keys, bound, i + 1) + ")";
    }

    /** The condition every row of {@code t} satisfies: its bound and its ancestors'. */
    static String fullCondition(Table t) {
        return conditionBelow(t, null);
    }

    /** {@code t}'s bound and its ancestors' up to (not including) {@code top}'s own bound. */
    static String conditionBelow(Table t, Table top) {
        StringBuilder c = new StringBuilder();
        for (Table x = t; x != top && x.partitioning != null && x.partitioning.parent != null; x = x.partitioning.parent) {
            c.append(c.length() == 0 ? "" : " AND ").append(levelCondition(x));
        }
        return c.length() == 0 ? "TRUE" : c.toString();
    }

    /** The tables that hold rows below {@code t} ({@code t} itself when it is not partitioned). */
    static List<Table> leaves(Table t) {
        List<Table> out = new ArrayList<>();
        leaves(t, out);
        return out;
    }

    private static void leaves(Table t, List<Table> out) {
        if (!Partitioning.partitioned(t)) {
            out.add(t);
            return;
        }
        for (Table c : t.partitioning.partitions) {
            leaves(c, out);
        }
    }

    static List<Table> descendants(Table t) {
        List<Table> out = new ArrayList<>();
        if (t.partitioning != null) {
            for (Table c : t.partitioning.partitions) {
                out.add(c);
                out.addAll(descendants(c));
            }
        }
        return out;
    }

    static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static String columnList(Table t) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < t.columnCount(); i++) {
            b.append(i == 0 ? "" : ", ").append(quote(t.column(i).name()));
        }
        return b.toString();
    }

    /** Runs generated text as a statement; its changes go to {@code log}. */
    private Outcome exec(String text, UndoLog log) {
        return generated(text, ResultSink.NONE, log);
    }

    /**
     * Parses and runs a statement this class wrote: in PostgreSQL's dialect whatever the session's, as it
     * is written in it ({@code FROM ONLY}, quoted names); the 2010 dialect refused it ("table 'ONLY' does
     * not exist"), so a write through RESP to a partition tree failed.
     */
    private Outcome generated(String text, ResultSink sink, UndoLog log) {
        boolean prior = io.respsql.sql.Dialect.set(true);
        try {
            return runner.run(SqlParser.parse(text), text, sink, log);
        } finally {
            io.respsql.sql.Dialect.set(prior);
        }
    }

    /** Takes out (into {@code log}) the rows of {@code t} (its own, ONLY) that do not satisfy {@code condition}; their number. */
    private long violations(Table t, String condition, UndoLog log) {
        if (condition.equals("TRUE") || t.rowCount() == 0) {
            return 0;
        }
        return exec("DELETE FROM " + quote(t.name()) + " WHERE NOT COALESCE(" + condition + ", FALSE)", log).changes();
    }

    /** Whether a one-value query answers true. */
    private boolean truth(String query) {
        Capture c = new Capture();
        generated(query, c, null);
        return c.value != null && (c.value.equals("1") || c.value.equalsIgnoreCase("t") || c.value.equalsIgnoreCase("true"));
    }

    /** The first value of a result. */
    private static final class Capture implements ResultSink {
        String value;
        int rows;

        @Override
        public void columns(ResultColumns columns, long rowCount) {
        }

        @Override
        public void beginRow() {
            rows++;
        }

        @Override
        public void longValue(long v) {
            if (value == null) {
                value = Long.toString(v);
            }
        }

        @Override
        public void doubleValue(double v) {
            if (value == null) {
                value = Double.toString(v);
            }
        }

        @Override
        public void textValue(byte[] b, int off, int len) {
            if (value == null) {
                value = new String(b, off, len, StandardCharsets.UTF_8);
            }
        }

        @Override
        public void nullValue() {
        }

        @Override
        public void endRow() {
        }

        @Override
        public void end() {
        }

        @Override
        public void countStar(ResultColumns columns, long count) {
            rows++;
            if (value == null) {
                value = Long.toString(count);
            }
        }
    }

    // ---- writes ----

    private Outcome insert(Statement.Insert s, String sql, ResultSink sink, UndoLog log) {
        Table t = catalog.table(s.table());
        if (!Partitioning.partitioned(t)) {
            // a partition written directly: its rows must satisfy its bound (and its ancestors')
            Outcome o = runner.run(s, sql, sink, log);
            if (violations(t, fullCondition(t), log) > 0) {
                throw partitionViolation(t);
            }
            return o;
        }
        String conflict = null;
        Statement.Insert staged = s;
        if (s.onConflict() != null) {
            if (s.returning() != null) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "ON CONFLICT with RETURNING on a partitioned table is not supported");
            }
            conflict = conflictClause(sql);
            staged = new Statement.Insert(s.table(), s.columns(), s.rows(), s.query(), s.returnSize(), s.alias(), null, null, s.overriding());
        }
        Outcome o = runner.run(staged, sql, conflict == null ? sink : ResultSink.NONE, log);
        long routed = route(t, conflict, s.alias(), log);
        return conflict == null ? o : Outcome.ok(routed);
    }

    private static final Pattern ON_CONFLICT = Pattern.compile("(?is)\\bON\\s+CONFLICT\\b");

    /** The ON CONFLICT clause as written (its last occurrence: the statement's own, after the rows). */
    private static String conflictClause(String sql) {
        Matcher m = ON_CONFLICT.matcher(sql);
        int at = -1;
        while (m.find()) {
            at = m.start();
        }
        if (at < 0) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "ON CONFLICT on a partitioned table: clause not found");
        }
        String c = sql.substring(at).trim();
        while (c.endsWith(";")) {
            c = c.substring(0, c.length() - 1).trim();
        }
        return c;
    }

    private static SqlException partitionViolation(Table t) {
        return new SqlException(SqlState.CHECK_VIOLATION, "new row for relation \"" + t.name() + "\" violates partition constraint");
    }

    /**
     * Moves the rows a write left in partitioned {@code p}'s own storage to its leaves; a row no
     * leaf accepts is an error. Returns the rows the leaves took.
     */
    private long route(Table p, String conflict, String alias, UndoLog log) {
        if (p.rowCount() == 0) {
            return 0;
        }
        if (p.partitioning.parent != null && violations(p, fullCondition(p), log) > 0) {
            throw partitionViolation(p);
        }
        long staged = p.rowCount();
        List<Table> leaves = leaves(p);
        StringBuilder any = new StringBuilder();
        for (Table leaf : leaves) {
            if (leaf != p) {
                any.append(any.length() == 0 ? "" : " OR ").append(conditionBelow(leaf, p));
            }
        }
        if (any.length() == 0 || count(p, "NOT COALESCE(" + any + ", FALSE)") > 0) {
            throw noPartition(p, p);
        }
        String cols = columnList(p);
        long taken = 0;
        for (Table leaf : leaves) {
            String text = "INSERT INTO " + quote(leaf.name()) + (alias != null ? " AS " + quote(alias) : conflict != null ? " AS " + quote(p.name()) : "")
                    + " (" + cols + ") SELECT " + cols + " FROM ONLY " + quote(p.name()) + " WHERE " + conditionBelow(leaf, p)
                    + (conflict == null ? "" : " " + conflict);
            taken += exec(text, log).changes();
        }
        exec("DELETE FROM " + quote(p.name()), log);
        if (conflict == null && taken != staged) {
            throw new SqlException(SqlState.CHECK_VIOLATION, "no partition of relation \"" + p.name() + "\" found for row");
        }
        return taken;
    }

    /**
     * The error for rows of {@code p}'s own storage that no leaf below {@code top} takes: PostgreSQL
     * names the deepest partitioned table the row reached.
     */
    private SqlException noPartition(Table p, Table top) {
        List<Table> below = descendants(top);
        for (int i = below.size() - 1; i >= 0; i--) {
            Table d = below.get(i);
            if (!Partitioning.partitioned(d)) {
                continue;
            }
            StringBuilder any = new StringBuilder();
            for (Table leaf : leaves(d)) {
                if (leaf != d) {
                    any.append(any.length() == 0 ? "" : " OR ").append(conditionBelow(leaf, d));
                }
            }
            String reached = conditionBelow(d, top);
            if (count(p, reached + " AND NOT COALESCE(" + (any.length() == 0 ? "FALSE" : any) + ", FALSE)") > 0) {
                return new SqlException(SqlState.CHECK_VIOLATION, "no partition of relation \"" + d.name() + "\" found for row");
            }
        }
        return new SqlException(SqlState.CHECK_VIOLATION, "no partition of relation \"" + top.name() + "\" found for row");
    }

    /** How many of {@code t}'s own rows satisfy {@code condition}. */
    private long count(Table t, String condition) {
        String q = "SELECT count(*) FROM ONLY " + quote(t.name()) + " WHERE " + condition;
        Capture c = new Capture();
        generated(q, c, null);
        return c.value == null ? 0 : Long.parseLong(c.value);
    }

    private Outcome update(Statement.Update s, String sql, ResultSink sink, UndoLog log) {
        Table t = catalog.table(s.table());
        boolean keysKept = !setsKeyColumn(s, t); // review2: no row can leave its partition, no scan for those that did
        if (!Partitioning.partitioned(t)) {
            Outcome o = runner.run(s, sql, sink, log);
            if (!keysKept && violations(t, fullCondition(t), log) > 0) {
                throw partitionViolation(t);
            }
            return o;
        }
        if (s.returning() != null) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "UPDATE ... RETURNING on a partitioned table is not supported");
        }
        refuseTreeRead(s, t, "UPDATE");
        String alias = s.alias() != null ? s.alias() : t.name();
        long n = 0;
        String cols = columnList(t);
        for (Table leaf : leaves(t)) {
            Outcome o = runner.run(new Statement.Update(leaf.name(), alias, s.assignments(), s.from(), s.where(), null), sql,
                    ResultSink.NONE, log);
            n += Math.max(o.changes(), 0);
            String cond = conditionBelow(leaf, t);
            if (!keysKept && !cond.equals("TRUE") && leaf.rowCount() > 0) {
                // rows the UPDATE took outside their partition move through the parent
                String outside = " WHERE NOT COALESCE(" + cond + ", FALSE)";
                long moved = exec("INSERT INTO " + quote(t.name()) + " (" + cols + ") SELECT " + cols + " FROM "
                        + quote(leaf.name()) + outside, log).changes();
                if (moved > 0) {
                    exec("DELETE FROM " + quote(leaf.name()) + outside, log);
                }
            }
            if (!keysKept && t.partitioning.parent != null && violations(leaf, fullCondition(leaf), log) > 0) {
                throw partitionViolation(t);
            }
        }
        route(t, null, null, log);
        return Outcome.count(n);
    }

    private Outcome delete(Statement.Delete s, String sql, ResultSink sink, UndoLog log) {
        Table t = catalog.table(s.table());
        if (!Partitioning.partitioned(t)) {
            return runner.run(s, sql, sink, log);
        }
        if (s.returning() != null) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "DELETE ... RETURNING on a partitioned table is not supported");
        }
        refuseTreeRead(s, t, "DELETE");
        String alias = s.alias() != null ? s.alias() : t.name();
        long n = 0;
        for (Table leaf : leaves(t)) {
            if (leaf == t) {
                continue;
            }
            n += Math.max(runner.run(new Statement.Delete(leaf.name(), alias, s.using(), s.where(), null), sql, ResultSink.NONE, log)
                    .changes(), 0);
        }
        return Outcome.count(n);
    }

    /**
     * review2: an UPDATE or DELETE through a partitioned table runs partition by partition, so a
     * subquery (or FROM / USING) reading the same partition tree would see the partitions already
     * changed, where PostgreSQL reads the rows as they were before the statement
     * ({@code UPDATE p SET v = (SELECT max(v) FROM p)} gave later partitions a larger maximum):
     * refused until the routing step reads a snapshot.
     */
    private void refuseTreeRead(Statement st, Table t, String verb) {
        Table root = root(t);
        for (String n : ModifyingWith.tablesNamed(st)) {
            if (n.startsWith(Statement.ONLY.toLowerCase(Locale.ROOT))) {
                n = n.substring(Statement.ONLY.length());
            }
            Table r = catalog.table(n);
            if (r != null && r.partitioning != null && root(r) == root) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, verb + " of partitioned table \"" + t.name()
                        + "\" reading its own partition tree (\"" + r.name() + "\") in a subquery, FROM or USING is not supported yet");
            }
        }
    }

    /**
     * review2: whether an UPDATE of {@code t} may set a column a partition key of its tree reads
     * (its ancestors' keys, its own and its partitions'): when not, no row can leave its partition
     * and the full scans of every partition for rows that did (which held the event loop ~0.1 s per
     * 2M rows for a one-row UPDATE by key, and past loop-write-max-ms failed it) are skipped.
     * Conservative: any word of a key expression equal to an assigned column's name counts.
     */
    private static boolean setsKeyColumn(Statement.Update s, Table t) {
        java.util.Set<String> words = new java.util.HashSet<>();
        for (Table x = t; x != null; x = x.partitioning == null ? null : x.partitioning.parent) {
            keyWords(x, words);
        }
        for (Table d : descendants(t)) {
            keyWords(d, words);
        }
        for (Statement.Assignment a : s.assignments()) {
            String c = a.column().toLowerCase(Locale.ROOT);
            if (!c.matches("[a-z_][a-z_0-9$]*") || words.contains(c)) { // another spelling: counted as a key column
                return true;
            }
        }
        return false;
    }

    private static void keyWords(Table x, java.util.Set<String> words) {
        if (x.partitioning == null || x.partitioning.key == null) {
            return;
        }
        for (String k : x.partitioning.key.keys()) {
            Matcher m = WORD.matcher(k);
            while (m.find()) {
                words.add(unquote(m.group()).toLowerCase(Locale.ROOT));
            }
        }
    }

    /**
     * review2: a foreign key declared on a partitioned table was kept on the parent only (whose own
     * storage is empty): its partitions' rows were never checked (a direct INSERT of an orphan, a
     * deferred orphan routed at COMMIT) nor protected (DELETE of a referenced row left orphans).
     * Refused until partitions inherit it; a key declared on each partition works.
     */
    private static void refuseForeignKeys(Table t) {
        if (!t.constraints().foreignKeys.isEmpty()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "a foreign key on partitioned table \"" + t.name()
                    + "\" is not supported yet (declare it on each partition)");
        }
    }

    private static Table root(Table t) {
        while (t.partitioning != null && t.partitioning.parent != null) {
            t = t.partitioning.parent;
        }
        return t;
    }

    /** DROP TABLE: a partitioned table's partitions go with it; a partition leaves its parent. */
    private Outcome drop(Statement.DropTable s, String sql, ResultSink sink, UndoLog log) {
        List<String> all = new ArrayList<>();
        List<Table> tables = new ArrayList<>();
        for (String n : s.tables()) {
            Table t = catalog.table(n);
            all.add(n);
            if (t != null) {
                tables.add(t);
                for (Table d : descendants(t)) {
                    if (!all.contains(d.name())) {
                        all.add(d.name());
                        tables.add(d);
                    }
                }
            }
        }
        Outcome o = runner.run(new Statement.DropTable(all, s.ifExists(), s.cascade()), sql, sink, log);
        for (Table t : tables) {
            Table parent = Partitioning.parentOf(t);
            if (parent != null && !tables.contains(parent) && catalog.table(t.name()) != t) {
                detach(t, log);
            }
        }
        return o;
    }
}
