package io.respsql.exec.write;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Statement;
import io.respsql.sql.tree.TypeName;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.Sequence;
import io.respsql.storage.Table;
import io.respsql.storage.UndoLog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * CREATE/ALTER/DROP SEQUENCE, and the sequences behind SERIAL and identity columns (PostgreSQL's
 * meaning and errors). Everything is checked before the catalog changes; inside a block the names
 * are saved first (a rollback takes a created or dropped sequence back; values handed out stay
 * handed out, as in PostgreSQL).
 */
public final class SequenceDdl {
    private SequenceDdl() {
    }

    /** Returns whether the catalog changed (false: IF NOT EXISTS found the name taken). */
    public static boolean create(Catalog catalog, Statement.CreateSequence s, UndoLog undo) {
        if (catalog.nameTaken(s.name())) {
            if (s.ifNotExists()) {
                return false;
            }
            throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + s.name() + "\" already exists");
        }
        Sequence q = new Sequence(s.name());
        apply(catalog, q, s.options(), false, true);
        if (undo != null) {
            undo.catalogChanging();
        }
        catalog.addSequence(q);
        return true;
    }

    /** Returns whether the catalog changed (false: IF EXISTS found none). */
    public static boolean alter(Catalog catalog, Statement.AlterSequence s, UndoLog undo) {
        Sequence q = catalog.sequence(s.name());
        if (q == null) {
            if (s.ifExists()) {
                return false;
            }
            throw missing(catalog, s.name());
        }
        Sequence changed = q.copy();
        apply(catalog, changed, s.options(), true, false);
        if (undo != null) {
            Sequence before = q.copy();
            undo.catalogChanging();
            undo.onRollback(() -> {
                long value = q.lastValue; // values handed out stay handed out: only the options go back
                boolean called = q.isCalled;
                q.copyFrom(before);
                q.lastValue = value;
                q.isCalled = called;
            });
        }
        q.copyFrom(changed);
        catalog.schemaChanged();
        return true;
    }

    /** Returns the number of sequences dropped. */
    public static int drop(Catalog catalog, Statement.DropSequence s, UndoLog undo) {
        List<Sequence> found = new ArrayList<>();
        for (String n : s.names()) {
            Sequence q = catalog.sequence(n);
            if (q == null) {
                if (s.ifExists()) {
                    continue;
                }
                throw missing(catalog, n);
            }
            if (q.identity != 0 && catalog.table(q.ownedTable) != null) {
                throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop sequence " + q.name()
                        + " because column " + q.ownedColumn + " of table " + q.ownedTable + " requires it");
            }
            if (!s.cascade()) {
                String user = userOf(catalog, q);
                if (user != null) {
                    throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop sequence " + q.name()
                            + " because other objects depend on it (default value for column " + user + ")");
                }
            }
            found.add(q);
        }
        if (found.isEmpty()) {
            return 0;
        }
        if (undo != null) {
            undo.catalogChanging();
        }
        for (Sequence q : found) {
            catalog.dropSequence(q.name());
        }
        if (s.cascade()) {
            catalog.schemaChanged(); // PostgreSQL drops the DEFAULTs too; here they fail at the next INSERT
        }
        return found.size();
    }

    /** DROP TABLE dropped {@code table}: its owned sequences (SERIAL, identity, OWNED BY) go with it. */
    public static void tableDropped(Catalog catalog, String table) {
        for (Sequence q : catalog.sequencesOwnedBy(table)) {
            catalog.dropSequence(q.name());
        }
    }

    /** A column's DEFAULT that reads {@code q} (as {@code table.column}), or null. */
    private static String userOf(Catalog catalog, Sequence q) {
        // nextval('s') and nextval('s'::regclass) depend on the sequence; nextval('s'::text) looks it up by name
        String needle = "nextval('" + q.name().toLowerCase(Locale.ROOT).replace("'", "''") + "'";
        for (Table t : catalog.tables()) {
            for (int i = 0; i < t.columnCount(); i++) {
                Column c = t.column(i);
                String d = c.defaultText();
                String lower = d == null ? null : d.toLowerCase(Locale.ROOT).replace(" ", "");
                if (lower != null && (lower.contains(needle + ")") || lower.contains(needle + "::regclass)"))) {
                    return t.name() + "." + c.name();
                }
            }
        }
        return null;
    }

    private static SqlException missing(Catalog catalog, String name) {
        if (catalog.table(name) != null || catalog.view(name) != null) {
            return new SqlException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a sequence");
        }
        return new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
    }

    private static int bitsOf(String type) {
        switch (type.toUpperCase(Locale.ROOT)) {
            case "SMALLINT":
            case "INT2":
                return 16;
            case "INT":
            case "INTEGER":
            case "INT4":
                return 32;
            case "BIGINT":
            case "INT8":
                return 64;
            default:
                return 0;
        }
    }

    private static SqlException invalid(String message) {
        return new SqlException(SqlState.INVALID_PARAMETER_VALUE, message);
    }

    /**
     * Applies {@code options} to {@code q} as PostgreSQL's init_params: a new sequence takes the
     * defaults for what is not written; ALTER keeps the rest (a changed type or direction moves
     * a bound that was the old default). Throws before anything of {@code q} matters to anyone.
     */
    static void apply(Catalog catalog, Sequence q, List<Statement.SequenceOption> options, boolean alter, boolean fresh) {
        Long increment = null;
        Long min = null;
        Long max = null;
        boolean noMin = false;
        boolean noMax = false;
        Long start = null;
        Long cache = null;
        Boolean cycle = null;
        boolean restart = false;
        Long restartValue = null;
        int bits = 0;
        boolean ownedSet = false;
        String owned = null;
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (Statement.SequenceOption o : options) {
            String kind = o.kind().startsWith("NO ") ? o.kind().substring(3) : o.kind();
            if (!seen.add(kind)) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "conflicting or redundant options");
            }
            switch (o.kind()) {
                case "AS":
                    bits = bitsOf(o.text());
                    if (bits == 0) {
                        throw invalid("sequence type must be smallint, integer, or bigint");
                    }
                    break;
                case "INCREMENT":
                    increment = o.value();
                    if (increment == 0) {
                        throw invalid("INCREMENT must not be zero");
                    }
                    break;
                case "MINVALUE":
                    min = o.value();
                    break;
                case "NO MINVALUE":
                    noMin = true;
                    break;
                case "MAXVALUE":
                    max = o.value();
                    break;
                case "NO MAXVALUE":
                    noMax = true;
                    break;
                case "START":
                    start = o.value();
                    break;
                case "RESTART":
                    restart = true;
                    restartValue = o.value();
                    break;
                case "CACHE":
                    cache = o.value();
                    if (cache <= 0) {
                        throw invalid("CACHE (" + cache + ") must be greater than zero");
                    }
                    break;
                case "CYCLE":
                    cycle = true;
                    break;
                case "NO CYCLE":
                    cycle = false;
                    break;
                case "OWNED BY":
                    if (q.identity != 0) {
                        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot change ownership of identity sequence");
                    }
                    ownedSet = true;
                    owned = o.text();
                    break;
                case "SEQUENCE NAME":
                    break; // the identity's sequence name: taken by the caller
                default:
                    throw new IllegalStateException(o.kind());
            }
        }
        int oldBits = q.bits;
        long oldInc = q.increment;
        if (bits != 0) {
            q.bits = bits;
        }
        if (increment != null) {
            q.increment = increment;
        }
        boolean ascending = q.increment > 0;
        long typeMin = Sequence.typeMin(q.bits);
        long typeMax = Sequence.typeMax(q.bits);
        // MAXVALUE
        if (max != null) {
            q.max = max;
        } else if (fresh || noMax || (bits != 0 && q.max == (oldInc > 0 ? Sequence.typeMax(oldBits) : -1))
                || (increment != null && (oldInc > 0) != ascending && q.max == (oldInc > 0 ? Sequence.typeMax(oldBits) : -1))) {
            q.max = ascending ? typeMax : -1;
        }
        if (min != null) {
            q.min = min;
        } else if (fresh || noMin || (bits != 0 && q.min == (oldInc > 0 ? 1 : Sequence.typeMin(oldBits)))
                || (increment != null && (oldInc > 0) != ascending && q.min == (oldInc > 0 ? 1 : Sequence.typeMin(oldBits)))) {
            q.min = ascending ? 1 : typeMin;
        }
        if (q.max < typeMin || q.max > typeMax) {
            throw invalid("MAXVALUE (" + q.max + ") is out of range for sequence data type " + q.typeName());
        }
        if (q.min < typeMin || q.min > typeMax) {
            throw invalid("MINVALUE (" + q.min + ") is out of range for sequence data type " + q.typeName());
        }
        if (q.min >= q.max) {
            throw invalid("MINVALUE (" + q.min + ") must be less than MAXVALUE (" + q.max + ")");
        }
        if (start != null) {
            q.start = start;
        } else if (fresh) {
            q.start = ascending ? q.min : q.max;
        }
        if (q.start < q.min) {
            throw invalid("START value (" + q.start + ") cannot be less than MINVALUE (" + q.min + ")");
        }
        if (q.start > q.max) {
            throw invalid("START value (" + q.start + ") cannot be greater than MAXVALUE (" + q.max + ")");
        }
        if (fresh) {
            q.lastValue = q.start;
            q.isCalled = false;
        }
        if (restart) {
            q.lastValue = restartValue != null ? restartValue : q.start;
            q.isCalled = false;
        }
        if (restart && q.lastValue < q.min) {
            throw invalid("RESTART value (" + q.lastValue + ") cannot be less than MINVALUE (" + q.min + ")");
        }
        if (restart && q.lastValue > q.max) {
            throw invalid("RESTART value (" + q.lastValue + ") cannot be greater than MAXVALUE (" + q.max + ")");
        }
        if (cache != null) {
            q.cache = cache;
        }
        if (cycle != null) {
            q.cycle = cycle;
        }
        if (ownedSet) {
            if (owned == null) {
                q.ownedTable = null;
                q.ownedColumn = null;
            } else {
                int dot = owned.lastIndexOf('.');
                String table = owned.substring(0, dot);
                String column = owned.substring(dot + 1);
                Table t = catalog.table(table);
                if (t == null) {
                    throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + table + "\" does not exist");
                }
                if (t.column(column) == null) {
                    throw new SqlException(SqlState.UNDEFINED_COLUMN, "column \"" + column + "\" of relation \"" + table + "\" does not exist");
                }
                q.ownedTable = t.name();
                q.ownedColumn = t.column(column).name();
            }
        }
    }

    // ---- SERIAL and identity columns ----

    /** A CREATE TABLE with its SERIAL/identity columns made plain, and the sequences they need. */
    public record Expanded(Statement.CreateTable table, List<Sequence> sequences) {
    }

    /**
     * {@code s} with every SERIAL, BIGSERIAL, SMALLSERIAL column an integer column with NOT NULL
     * and {@code DEFAULT nextval('t_c_seq')}, and every identity column likewise (its sequence
     * marked ALWAYS or BY DEFAULT); null when there is none (the statement stays as it is).
     */
    public static Expanded expand(Catalog catalog, Statement.CreateTable s) {
        List<Statement.ColumnDef> cols = null;
        List<Sequence> made = new ArrayList<>();
        for (int i = 0; i < s.columns().size(); i++) {
            Statement.ColumnDef d = s.columns().get(i);
            int serialBits = serialBits(d.type().base());
            if (serialBits == 0 && d.identity() == null) {
                continue;
            }
            if (cols == null) {
                cols = new ArrayList<>(s.columns());
            }
            int bits = serialBits;
            String typeName;
            if (serialBits != 0) {
                if (d.identity() != null) {
                    throw new SqlException(SqlState.SYNTAX_ERROR, "both default and identity specified for column \""
                            + d.name() + "\" of table \"" + s.table() + "\"");
                }
                typeName = bits == 16 ? "SMALLINT" : bits == 32 ? "INTEGER" : "BIGINT";
            } else {
                bits = bitsOf(d.type().base());
                if (bits == 0) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "identity column type must be smallint, integer, or bigint");
                }
                typeName = d.type().base();
            }
            if (d.defaultText() != null) {
                throw new SqlException(SqlState.SYNTAX_ERROR, (serialBits != 0 ? "multiple default values" : "both default and identity")
                        + " specified for column \"" + d.name() + "\" of table \"" + s.table() + "\"");
            }
            String seqName = null;
            List<Statement.SequenceOption> options = new ArrayList<>();
            options.add(new Statement.SequenceOption("AS", null, bits == 16 ? "SMALLINT" : bits == 32 ? "INTEGER" : "BIGINT"));
            if (d.identity() != null) {
                for (Statement.SequenceOption o : d.identity().options()) {
                    if (o.kind().equals("SEQUENCE NAME")) {
                        seqName = o.text();
                    } else if (o.kind().equals("AS") || o.kind().equals("OWNED BY")) {
                        throw new SqlException(SqlState.SYNTAX_ERROR, "option " + o.kind() + " is not allowed for an identity column");
                    } else {
                        options.add(o);
                    }
                }
            }
            if (seqName == null) {
                seqName = freeName(catalog, made, s.table() + "_" + d.name() + "_seq");
            } else if (catalog.nameTaken(seqName) || takenIn(made, seqName)) {
                throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + seqName + "\" already exists");
            }
            Sequence q = new Sequence(seqName);
            apply(catalog, q, options, false, true);
            q.ownedTable = s.table();
            q.ownedColumn = d.name();
            q.identity = d.identity() == null ? 0 : d.identity().always() ? Sequence.ALWAYS : Sequence.BY_DEFAULT;
            made.add(q);
            String defaultText = "nextval('" + seqName.replace("'", "''") + "')";
            Expr value = new Expr.Function("NEXTVAL", List.of(new Expr.Literal(Expr.LiteralKind.STRING, seqName, 0, 0)),
                    false, false, null, 0, 0);
            TypeName type = new TypeName(typeName, -1, -1, d.type().start(), d.type().end());
            cols.set(i, new Statement.ColumnDef(d.name(), type, d.primaryKey(), true, d.unique(), value, defaultText, null));
        }
        if (cols == null) {
            return null;
        }
        return new Expanded(new Statement.CreateTable(s.table(), cols, s.keys(), s.ifNotExists(), s.constraints()), made);
    }

    // ---- regress24: ALTER COLUMN ... ADD GENERATED / DROP IDENTITY / SET GENERATED / RESTART ----

    /** Runs an identity action on column {@code c} of {@code t} (PostgreSQL's errors, 55000 mostly). */
    public static void alterIdentity(Catalog catalog, io.respsql.storage.Table t, io.respsql.storage.Column c,
                                     Statement.IdentityAction a, UndoLog undo) {
        Sequence q = catalog.identityOf(t.name(), c.name());
        String where = "column \"" + c.name() + "\" of relation \"" + t.name() + "\"";
        if (a.op().equals("ADD")) {
            if (!c.notNull()) {
                throw new SqlException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, where + " must be declared NOT NULL before identity can be added");
            }
            if (q != null) {
                throw new SqlException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, where + " is already an identity column");
            }
            if (c.defaultText() != null) {
                throw new SqlException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, where + " already has a default value");
            }
            int bits = c.type() == io.respsql.storage.ColumnType.INT ? 32 : c.type() == io.respsql.storage.ColumnType.BIGINT ? 64 : 0;
            if (bits == 0) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "identity column type must be smallint, integer, or bigint");
            }
            String seqName = null;
            List<Statement.SequenceOption> options = new ArrayList<>();
            options.add(new Statement.SequenceOption("AS", null, bits == 32 ? "INTEGER" : "BIGINT"));
            for (Statement.SequenceOption o : a.options()) {
                if (o.kind().equals("SEQUENCE NAME")) {
                    seqName = o.text();
                } else if (o.kind().equals("AS") || o.kind().equals("OWNED BY")) {
                    throw new SqlException(SqlState.SYNTAX_ERROR, "option " + o.kind() + " is not allowed for an identity column");
                } else {
                    options.add(o);
                }
            }
            if (seqName == null) {
                seqName = freeName(catalog, List.of(), t.name() + "_" + c.name() + "_seq");
            } else if (catalog.nameTaken(seqName)) {
                throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + seqName + "\" already exists");
            }
            Sequence made = new Sequence(seqName);
            apply(catalog, made, options, false, true);
            made.ownedTable = t.name();
            made.ownedColumn = c.name();
            made.identity = a.always() ? Sequence.ALWAYS : Sequence.BY_DEFAULT;
            if (undo != null) {
                undo.catalogChanging();
            }
            catalog.addSequence(made);
            t.redeclare(c, true, "nextval('" + seqName.replace("'", "''") + "')");
            return;
        }
        if (q == null) {
            if (a.op().equals("DROP") && a.ifExists()) {
                return; // PostgreSQL's NOTICE: "... is not an identity column, skipping"
            }
            throw new SqlException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, where + " is not an identity column");
        }
        switch (a.op()) {
            case "DROP" -> {
                if (undo != null) {
                    undo.catalogChanging();
                }
                t.redeclare(c, c.notNull(), null);
                catalog.dropSequence(q.name());
            }
            case "SET" -> {
                byte before = q.identity;
                q.identity = a.always() ? Sequence.ALWAYS : Sequence.BY_DEFAULT;
                if (undo != null) {
                    undo.onRollback(() -> q.identity = before);
                }
            }
            default -> { // RESTART [WITH n]: as ALTER SEQUENCE ... RESTART
                List<Statement.SequenceOption> restart = List.of(new Statement.SequenceOption("RESTART", a.restart(), null));
                alter(catalog, new Statement.AlterSequence(q.name(), false, restart), undo);
            }
        }
        catalog.schemaChanged();
    }

    private static boolean takenIn(List<Sequence> made, String name) {
        for (Sequence q : made) {
            if (q.name().equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /** {@code base}, or {@code base1}, {@code base2}, ... when taken (PostgreSQL's ChooseRelationName). */
    private static String freeName(Catalog catalog, List<Sequence> made, String base) {
        String n = base;
        for (int i = 1; catalog.nameTaken(n) || takenIn(made, n); i++) {
            n = base + i;
        }
        return n;
    }

    private static int serialBits(String type) {
        switch (type.toUpperCase(Locale.ROOT)) {
            case "SERIAL":
            case "SERIAL4":
                return 32;
            case "BIGSERIAL":
            case "SERIAL8":
                return 64;
            case "SMALLSERIAL":
            case "SERIAL2":
                return 16;
            default:
                return 0;
        }
    }

    /**
     * INSERT into identity columns: an explicit value for a GENERATED ALWAYS column is an error
     * (428C9) unless OVERRIDING SYSTEM VALUE; OVERRIDING USER VALUE drops the explicit values of
     * identity columns (their sequence gives them). Returns the statement to plan ({@code s} when
     * nothing changes).
     */
    public static Statement.Insert identityInsert(Catalog catalog, Statement.Insert s) {
        if (catalog.sequences().isEmpty() && (s.columns() != null || !io.respsql.sql.Dialect.postgres())) {
            return s;
        }
        Table t = catalog.table(s.table());
        if (t == null) {
            return s;
        }
        if (s.onConflict() != null && !s.onConflict().doNothing()) {
            // ON CONFLICT DO UPDATE SET is an UPDATE: a GENERATED ALWAYS column only to DEFAULT
            identityUpdate(catalog, new Statement.Update(s.table(), s.onConflict().sets(), null));
        }
        List<String> named = s.columns();
        if (named == null && io.respsql.sql.Dialect.postgres() && s.rows() != null && !s.rows().isEmpty()) {
            // PostgreSQL: VALUES rows shorter than the table fill its first columns, the rest take their DEFAULT
            int width = s.rows().get(0).size();
            boolean same = true;
            for (List<Expr> r : s.rows()) {
                same &= r.size() == width;
            }
            if (same && width < t.columnCount()) {
                List<String> first = new ArrayList<>();
                for (int i = 0; i < width; i++) {
                    first.add(t.column(i).name());
                }
                s = new Statement.Insert(s.table(), first, s.rows(), s.query(), s.returnSize(), s.alias(), s.onConflict(),
                        s.returning(), s.overriding());
                named = first;
            }
        }
        if (named == null) {
            named = new ArrayList<>();
            int width = s.rows() != null && !s.rows().isEmpty() ? s.rows().get(0).size() : t.columnCount();
            for (int i = 0; i < Math.min(width, t.columnCount()); i++) {
                named.add(t.column(i).name());
            }
        }
        List<Integer> drop = new ArrayList<>();
        for (int i = 0; i < named.size(); i++) {
            Sequence q = catalog.identityOf(t.name(), named.get(i));
            if (q == null) {
                continue;
            }
            if (s.overriding() == Statement.Overriding.USER) {
                drop.add(i);
            } else if (q.identity == Sequence.ALWAYS && s.overriding() != Statement.Overriding.SYSTEM) {
                throw new SqlException(SqlState.GENERATED_ALWAYS, "cannot insert a non-DEFAULT value into column \"" + q.ownedColumn
                        + "\" (it is an identity column defined as GENERATED ALWAYS; use OVERRIDING SYSTEM VALUE to override)");
            }
        }
        if (drop.isEmpty()) {
            return s;
        }
        if (s.rows() == null) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "OVERRIDING USER VALUE with INSERT ... SELECT is not supported");
        }
        List<String> cols = new ArrayList<>();
        for (int i = 0; i < named.size(); i++) {
            if (!drop.contains(i)) {
                cols.add(named.get(i));
            }
        }
        List<List<Expr>> rows = new ArrayList<>();
        for (List<Expr> r : s.rows()) {
            List<Expr> kept = new ArrayList<>();
            for (int i = 0; i < r.size(); i++) {
                if (!drop.contains(i)) {
                    kept.add(r.get(i));
                }
            }
            rows.add(kept);
        }
        return new Statement.Insert(s.table(), cols, rows, s.query(), s.returnSize(), s.alias(), s.onConflict(), s.returning(),
                Statement.Overriding.NONE);
    }

    /** UPDATE of a GENERATED ALWAYS identity column: PostgreSQL's 428C9. */
    public static void identityUpdate(Catalog catalog, Statement.Update s) {
        if (catalog.sequences().isEmpty()) {
            return;
        }
        for (Statement.Assignment a : s.assignments()) {
            Sequence q = catalog.identityOf(s.table(), a.column());
            if (q != null && q.identity == Sequence.ALWAYS && a.value() != null) { // null: SET c = DEFAULT, allowed
                throw new SqlException(SqlState.GENERATED_ALWAYS, "column \"" + q.ownedColumn + "\" can only be updated to DEFAULT");
            }
        }
    }
}
