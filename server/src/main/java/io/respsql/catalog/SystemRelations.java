package io.respsql.catalog;

import io.respsql.storage.Column;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.ColumnType;
import io.respsql.storage.ConstraintDef;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.ReadableCatalog;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.TextColumn;
import io.respsql.storage.ViewDef;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The catalog as SQL: PostgreSQL's {@code pg_catalog} relations and the {@code information_schema}
 * views, each a work table the planner reads like any table, filled from the catalog when a
 * statement names it (so it shows the tables, columns, indexes and views as they are at that
 * moment). RespSQL has one schema, {@code public}, in one database, {@code respsql}. OIDs: the
 * built-in types' are PostgreSQL's; a table, its indexes and views number from 16384 in catalog
 * order, so they are stable while the schema does not change ({@link Oids}).
 *
 * <p>Names: {@code pg_catalog.x} and a bare {@code pg_x} (PostgreSQL searches pg_catalog first),
 * {@code information_schema.x} only qualified.
 */
public final class SystemRelations {
    public static final String DATABASE = "respsql";
    public static final String SCHEMA = "public";
    static final int PG_CATALOG = 11, PUBLIC = 2200, INFORMATION_SCHEMA = 13_000, OWNER = 10;

    private SystemRelations() {
    }

    private record Def(List<ColumnSpec> columns, BiConsumer<ReadableCatalog, Rows> fill) {
    }

    private static final Map<String, Def> PG = new HashMap<>();
    private static final Map<String, Def> INFO = new HashMap<>();

    /**
     * The system relation {@code name} ({@code pg_catalog.pg_class}, {@code pg_class},
     * {@code information_schema.tables}; any case) as a fresh work table of rows, or null when
     * {@code name} is none.
     */
    public static Table table(ReadableCatalog catalog, String name) {
        String n = name.toLowerCase(Locale.ROOT);
        Def d;
        String bare;
        if (n.startsWith("pg_catalog.")) {
            bare = n.substring("pg_catalog.".length());
            d = PG.get(bare);
        } else if (n.startsWith("information_schema.")) {
            bare = n.substring("information_schema.".length());
            d = INFO.get(bare);
        } else {
            bare = n;
            d = n.startsWith("pg_") ? PG.get(n) : null;
        }
        if (d == null) {
            return null;
        }
        // a table of its own, not a plan's work table (those are emptied when a plan runs), in no catalog
        Table t = new Table(bare, d.columns, -1);
        d.fill.accept(catalog, new Rows(t));
        return t;
    }

    /** Whether {@code name} is a system relation's name (without building it). */
    public static boolean isSystem(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.startsWith("pg_catalog.")) {
            return PG.containsKey(n.substring(11));
        }
        if (n.startsWith("information_schema.")) {
            return INFO.containsKey(n.substring(19));
        }
        return n.startsWith("pg_") && PG.containsKey(n);
    }

    // ---- rows into a work table ----------------------------------------------------------------------

    /** Appends rows to a work table, a value at a time in column order (null: NULL). */
    static final class Rows {
        private final Table t;
        private int row;
        private int col;

        Rows(Table t) {
            this.t = t;
        }

        Rows add(Object... values) {
            row = t.allocateRow();
            col = 0;
            for (Object v : values) {
                set(v);
            }
            if (col != t.columnCount()) {
                throw new IllegalStateException(t.name() + ": " + col + " values for " + t.columnCount() + " columns");
            }
            return this;
        }

        private void set(Object v) {
            Column c = t.column(col++);
            if (v == null) {
                c.setNull(row);
                return;
            }
            switch (c.type()) {
                case TEXT -> ((TextColumn) c).set(row, v.toString().getBytes(StandardCharsets.UTF_8));
                case BOOLEAN -> ((IntColumn) c).set(row, (Boolean) v ? 1 : 0);
                case INT -> ((IntColumn) c).set(row, ((Number) v).intValue());
                case BIGINT -> ((LongColumn) c).set(row, ((Number) v).longValue());
                case FLOAT -> ((DoubleColumn) c).set(row, ((Number) v).doubleValue());
                default -> {
                    if (!c.type().isArray()) {
                        throw new IllegalStateException("column type " + c.type());
                    }
                    ((TextColumn) c).set(row, v.toString().getBytes(StandardCharsets.UTF_8)); // arrays: their text
                }
            }
        }
    }

    /** Column specs from "name type, name type" with types int, bigint, text, bool, float. */
    private static List<ColumnSpec> cols(String spec) {
        List<ColumnSpec> out = new ArrayList<>();
        for (String part : spec.split(",")) {
            String[] w = part.trim().split("\\s+");
            ColumnType type = switch (w[1]) {
                case "int" -> ColumnType.INT;
                case "bigint" -> ColumnType.BIGINT;
                case "bool" -> ColumnType.BOOLEAN;
                case "float" -> ColumnType.FLOAT;
                case "int2[]" -> ColumnType.INT_ARRAY; // arrays: conkey, confkey
                default -> ColumnType.TEXT;
            };
            out.add(new ColumnSpec(w[0], type, false, null));
        }
        return out;
    }

    private static void pg(String name, String columns, BiConsumer<ReadableCatalog, Rows> fill) {
        PG.put(name, new Def(cols(columns), fill));
    }

    private static void info(String name, String columns, BiConsumer<ReadableCatalog, Rows> fill) {
        INFO.put(name, new Def(cols(columns), fill));
    }

    // ---- types ---------------------------------------------------------------------------------------

    /** PostgreSQL's built-in types RespSQL's values map to: oid, name, length, category. */
    private static final Object[][] TYPES = {
            {16, "bool", 1, "B"}, {17, "bytea", -1, "U"}, {18, "char", 1, "S"}, {19, "name", 64, "S"},
            {20, "int8", 8, "N"}, {21, "int2", 2, "N"}, {23, "int4", 4, "N"}, {25, "text", -1, "S"},
            {26, "oid", 4, "N"}, {700, "float4", 4, "N"}, {701, "float8", 8, "N"}, {1042, "bpchar", -1, "S"},
            {1043, "varchar", -1, "S"}, {1082, "date", 4, "D"}, {1114, "timestamp", 8, "D"},
            {1184, "timestamptz", 8, "D"}, {1186, "interval", 16, "T"}, {1700, "numeric", -1, "N"},
            // ---- arrays ----
            {1000, "_bool", -1, "A"}, {1005, "_int2", -1, "A"}, {1007, "_int4", -1, "A"}, {1009, "_text", -1, "A"},
            {1015, "_varchar", -1, "A"}, {1016, "_int8", -1, "A"}, {1022, "_float8", -1, "A"}, {1115, "_timestamp", -1, "A"},
            {1182, "_date", -1, "A"}, {1231, "_numeric", -1, "A"},
    };

    /** The PostgreSQL type OID of a column type (by its name, so types added later default to text). */
    public static int typeOid(ColumnType t) {
        return switch (t.name()) {
            case "INT" -> 23;
            case "BIGINT" -> 20;
            case "FLOAT" -> 701;
            case "BOOLEAN" -> 16;
            case "DATE" -> 1082;
            case "TIMESTAMP" -> 1114;
            case "NUMERIC", "NUMERIC_TEXT" -> 1700;
            case "INTERVAL" -> 1186;
            case "INT_ARRAY" -> 1007; // arrays
            case "BIGINT_ARRAY" -> 1016;
            case "FLOAT_ARRAY" -> 1022;
            case "TEXT_ARRAY" -> 1009;
            case "BOOLEAN_ARRAY" -> 1000;
            case "DATE_ARRAY" -> 1182;
            case "TIMESTAMP_ARRAY" -> 1115;
            case "NUMERIC_ARRAY" -> 1231;
            default -> 25;
        };
    }

    /** The PostgreSQL type OID of a column: a TEXT column with a length (varchar(n)) is character varying. */
    static int typeOid(Column col) {
        if (col.type() == ColumnType.TEXT && col.typeModifier() >= 0) {
            return io.respsql.exec.write.ValueRules.charLength(col) >= 0 ? 1042 : 1043; // char(n): bpchar (charn)
        }
        return typeOid(col.type());
    }

    /** PostgreSQL's atttypmod of a column (its type modifier + 4: VARHDRSZ), -1 for none. */
    static int pgTypmod(Column col) {
        int m = col.typeModifier() & ~io.respsql.exec.write.ValueRules.CHAR_FLAG; // char(n): n + 4 as varchar(n) (charn)
        return col.typeModifier() >= 0 && (col.type() == ColumnType.TEXT || col.type().isDecimal()) ? m + 4 : -1;
    }

    /** {@code format_type(oid, typmod)}: the SQL name of a type, as PostgreSQL prints it; null for an unknown oid. */
    public static String formatType(long oid, long typmod) {
        String base = switch ((int) oid) {
            case 16 -> "boolean";
            case 17 -> "bytea";
            case 18 -> "\"char\"";
            case 19 -> "name";
            case 20 -> "bigint";
            case 21 -> "smallint";
            case 23 -> "integer";
            case 25 -> "text";
            case 26 -> "oid";
            case 700 -> "real";
            case 701 -> "double precision";
            case 1042 -> "character";
            case 1043 -> "character varying";
            case 1082 -> "date";
            case 1114 -> "timestamp without time zone";
            case 1184 -> "timestamp with time zone";
            case 1186 -> "interval";
            case 1700 -> "numeric";
            case 1000 -> "boolean[]"; // arrays
            case 1005 -> "smallint[]";
            case 1007 -> "integer[]";
            case 1009 -> "text[]";
            case 1015 -> "character varying[]";
            case 1016 -> "bigint[]";
            case 1022 -> "double precision[]";
            case 1115 -> "timestamp without time zone[]";
            case 1182 -> "date[]";
            case 1231 -> "numeric[]";
            default -> null;
        };
        if (base == null) {
            return "???";
        }
        if (typmod >= 0 && (oid == 1042 || oid == 1043)) {
            return base + "(" + (typmod - 4) + ")";
        }
        if (typmod >= 0 && oid == 1700) {
            long t = typmod - 4;
            return base + "(" + (t >> 16) + "," + (t & 0xffff) + ")";
        }
        return base;
    }

    private static String typeName(int oid) {
        for (Object[] t : TYPES) {
            if ((Integer) t[0] == oid) {
                return (String) t[1];
            }
        }
        return "text";
    }

    private static int typeLen(int oid) {
        for (Object[] t : TYPES) {
            if ((Integer) t[0] == oid) {
                return (Integer) t[2];
            }
        }
        return -1;
    }

    // ---- object numbers and names --------------------------------------------------------------------

    /** PostgreSQL's OIDs of its catalog relations, for {@code 'pg_class'::regclass}. */
    static final Map<String, Integer> SYSTEM_OIDS = Map.ofEntries(Map.entry("pg_class", 1259),
            Map.entry("pg_namespace", 2615), Map.entry("pg_attribute", 1249), Map.entry("pg_type", 1247),
            Map.entry("pg_index", 2610), Map.entry("pg_constraint", 2606), Map.entry("pg_database", 1262),
            Map.entry("pg_description", 2609), Map.entry("pg_am", 2601), Map.entry("pg_attrdef", 2604),
            Map.entry("pg_proc", 1255), Map.entry("pg_trigger", 2620));

    /** OIDs of the catalog's tables, their indexes and the views, in catalog order from 16384. */
    public static final class Oids {
        final Map<Table, Integer> tables = new LinkedHashMap<>();
        final Map<TableIndex, Integer> indexes = new LinkedHashMap<>();
        final Map<ViewDef, Integer> views = new LinkedHashMap<>();
        /** CHECK and FOREIGN KEY constraints (a UNIQUE or PRIMARY KEY constraint is its index's oid + KEY_CONSTRAINT). */
        final Map<ConstraintDef, Integer> constraints = new LinkedHashMap<>();

        public Oids(ReadableCatalog c) {
            int next = 16_384;
            for (Table t : c.tables()) {
                tables.put(t, next++);
                for (TableIndex ix : indexes(t)) {
                    indexes.put(ix, next++);
                }
            }
            for (ViewDef v : c.views()) {
                views.put(v, next++);
            }
            for (Table t : c.tables()) {
                for (ConstraintDef d : t.constraints().checks) {
                    constraints.put(d, next++);
                }
                for (ConstraintDef d : t.constraints().foreignKeys) {
                    constraints.put(d, next++);
                }
            }
        }

        /**
         * {@code pg_get_constraintdef(oid)}: the definition of constraint {@code oid} as PostgreSQL
         * writes it ({@code PRIMARY KEY (id)}, {@code UNIQUE (a, b)}, {@code FOREIGN KEY (p) REFERENCES t(id)},
         * {@code CHECK (...)}), or null.
         */
        public String constraintDef(ReadableCatalog c, long oid) {
            for (Map.Entry<ConstraintDef, Integer> e : constraints.entrySet()) {
                if (e.getValue() == oid) {
                    return e.getKey().definition();
                }
            }
            for (Map.Entry<TableIndex, Integer> e : indexes.entrySet()) {
                TableIndex ix = e.getKey();
                if (e.getValue() + KEY_CONSTRAINT == oid && isConstraint(ix)) {
                    return (ix.isPrimary() ? "PRIMARY KEY " : "UNIQUE ") + keyColumns(ix);
                }
            }
            return null;
        }

        /** The oid of the UNIQUE or PRIMARY KEY index of {@code t} on exactly {@code columns} (any order), or 0. */
        int keyIndex(Table t, Column[] columns) {
            for (TableIndex ix : indexes(t)) {
                if (!ix.unique() || ix.columnCount() != columns.length) {
                    continue;
                }
                boolean all = true;
                for (Column col : columns) {
                    all &= ix.columns().contains(col);
                }
                if (all) {
                    return indexes.getOrDefault(ix, 0);
                }
            }
            return 0;
        }

        /** The OID of relation {@code name} (table, view or index, any case), or -1. */
        public int of(ReadableCatalog c, String name) {
            String n = name;
            Integer system = SYSTEM_OIDS.get(n.toLowerCase(Locale.ROOT).replace("pg_catalog.", ""));
            if (system != null) {
                return system;
            }
            if (n.toLowerCase(Locale.ROOT).startsWith("public.")) {
                n = n.substring(7);
            }
            Table t = c.table(n);
            if (t != null && tables.containsKey(t)) {
                return tables.get(t);
            }
            ViewDef v = c.view(n);
            if (v != null && views.containsKey(v)) {
                return views.get(v);
            }
            for (Map.Entry<TableIndex, Integer> e : indexes.entrySet()) {
                Table owner = ownerOf(c, e.getKey());
                if (owner != null && indexName(owner, e.getKey()).equalsIgnoreCase(n)) {
                    return e.getValue();
                }
            }
            return -1;
        }

        /** The name of relation {@code oid}, or null. */
        public String name(ReadableCatalog c, long oid) {
            for (Map.Entry<Table, Integer> e : tables.entrySet()) {
                if (e.getValue() == oid) {
                    return e.getKey().name();
                }
            }
            for (Map.Entry<ViewDef, Integer> e : views.entrySet()) {
                if (e.getValue() == oid) {
                    return e.getKey().name();
                }
            }
            for (Map.Entry<TableIndex, Integer> e : indexes.entrySet()) {
                if (e.getValue() == oid) {
                    Table owner = ownerOf(c, e.getKey());
                    return owner == null ? null : indexName(owner, e.getKey());
                }
            }
            return null;
        }

        /** {@code pg_get_indexdef(oid, k, pretty)}: the name of index {@code oid}'s k-th column (from 1), or null. */
        public String indexColumn(ReadableCatalog c, long oid, int k) {
            for (Map.Entry<TableIndex, Integer> e : indexes.entrySet()) {
                if (e.getValue() == oid) {
                    return k <= e.getKey().columnCount() ? e.getKey().columns().get(k - 1).name() : null;
                }
            }
            return null;
        }

        /** {@code pg_get_indexdef(oid)}: the CREATE INDEX statement of index {@code oid}, or null. */
        public String indexDef(ReadableCatalog c, long oid) {
            for (Map.Entry<TableIndex, Integer> e : indexes.entrySet()) {
                if (e.getValue() == oid) {
                    Table owner = ownerOf(c, e.getKey());
                    return owner == null ? null : SystemRelations.indexDef(owner, e.getKey());
                }
            }
            return null;
        }
    }

    /** A UNIQUE or PRIMARY KEY constraint's oid: its index's oid plus this. */
    static final int KEY_CONSTRAINT = 1_000_000;

    private static String keyColumns(TableIndex ix) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < ix.columnCount(); i++) {
            sb.append(i == 0 ? "" : ", ").append(ix.columns().get(i).name());
        }
        return sb.append(')').toString();
    }

    private static String columnNumbers(Table t, Column[] cols) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < cols.length; i++) {
            sb.append(i == 0 ? "" : ",").append(cols[i].position() + 1);
        }
        return sb.append('}').toString();
    }

    /** The name and oid of a built-in type by any of its names ({@code int4}, {@code integer}, {@code varchar}), or -1. */
    public static int typeOidOf(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.startsWith("pg_catalog.")) {
            n = n.substring(11);
        }
        for (Object[] t : TYPES) {
            int oid = (Integer) t[0];
            if (t[1].equals(n) || n.equals(formatType(oid, -1))) {
                return oid;
            }
        }
        return switch (n) {
            case "int", "timestamp" -> n.equals("int") ? 23 : 1114;
            case "float" -> 701;
            case "varchar" -> 1043;
            case "char" -> 1042;
            case "decimal" -> 1700;
            default -> -1;
        };
    }

    /**
     * The indexes PostgreSQL would have on {@code t}: all but those RespSQL makes itself on a foreign
     * key's columns (to check deletes of referenced rows; PostgreSQL makes none), which psql's \\d
     * and pgjdbc's getIndexInfo would show as indexes nobody created.
     */
    static List<TableIndex> indexes(Table t) {
        List<ConstraintDef> fks = t.constraints().foreignKeys;
        if (fks.isEmpty()) {
            return t.indexes();
        }
        List<TableIndex> out = new ArrayList<>(t.indexes().size());
        for (TableIndex ix : t.indexes()) {
            boolean auto = false;
            for (ConstraintDef fk : fks) {
                auto |= ix.name().equals(fk.autoIndex());
            }
            if (!auto) {
                out.add(ix);
            }
        }
        return out;
    }

    static Table ownerOf(ReadableCatalog c, TableIndex ix) {
        for (Table t : c.tables()) {
            if (t.indexes().contains(ix)) {
                return t;
            }
        }
        return null;
    }

    /** The index's name as PostgreSQL would give it: {@code t_pkey}, {@code t_a_b_key}, or the name it was created with. */
    static String indexName(Table t, TableIndex ix) {
        String declared = t.constraints().keyConstraint(ix.name()); // CONSTRAINT name UNIQUE | PRIMARY KEY, or renamed since
        if (declared != null) {
            return declared;
        }
        if (ix.isPrimary()) {
            return t.name() + "_pkey";
        }
        String n = ix.name();
        if (n.contains(":")) {
            StringBuilder sb = new StringBuilder(t.name());
            for (Column c : ix.columns()) {
                sb.append('_').append(c.name());
            }
            return sb.append(ix.unique() ? "_key" : "_idx").toString();
        }
        return n;
    }

    /** Whether the index stands for a UNIQUE or PRIMARY KEY constraint (not a CREATE INDEX of its own). */
    static boolean isConstraint(TableIndex ix) {
        return ix.isPrimary() || ix.unique() && ix.name().contains(":");
    }

    static String indexDef(Table t, TableIndex ix) {
        StringBuilder sb = new StringBuilder("CREATE ").append(ix.unique() ? "UNIQUE " : "").append("INDEX ")
                .append(indexName(t, ix)).append(" ON public.").append(t.name()).append(" USING btree (");
        for (int i = 0; i < ix.columnCount(); i++) {
            sb.append(i == 0 ? "" : ", ").append(ix.columns().get(i).name()).append(ix.descending(i) ? " DESC" : "");
        }
        return sb.append(')').toString();
    }

    private static boolean notNull(Table t, Column c) {
        return c.notNull() || t.hasPrimaryKey() && c == t.primaryColumn();
    }

    private static String keyList(TableIndex ix, String sep, String open, String close) {
        StringBuilder sb = new StringBuilder(open);
        for (int i = 0; i < ix.columnCount(); i++) {
            sb.append(i == 0 ? "" : sep).append(ix.columns().get(i).position() + 1);
        }
        return sb.append(close).toString();
    }

    // ---- pg_catalog ----------------------------------------------------------------------------------

    static {
        pg("pg_namespace", "oid int, nspname text, nspowner int, nspacl text", (c, r) -> {
            r.add(PG_CATALOG, "pg_catalog", OWNER, null);
            r.add(PUBLIC, "public", OWNER, null);
            r.add(INFORMATION_SCHEMA, "information_schema", OWNER, null);
        });
        pg("pg_class", "oid int, relname text, relnamespace int, reltype int, reloftype int, relowner int, relam int,"
                + " relfilenode int, reltablespace int, relpages int, reltuples float, relallvisible int,"
                + " reltoastrelid int, relhasindex bool, relisshared bool, relpersistence text, relkind text,"
                + " relnatts int, relchecks int, relhasrules bool, relhastriggers bool, relhassubclass bool,"
                + " relrowsecurity bool, relforcerowsecurity bool, relispopulated bool, relreplident text,"
                + " relispartition bool, relrewrite int, relfrozenxid int, relminmxid int, relacl text,"
                + " reloptions text, relpartbound text", (c, r) -> {
            Oids oids = new Oids(c);
            for (Map.Entry<Table, Integer> e : oids.tables.entrySet()) {
                Table t = e.getKey();
                r.add(e.getValue(), t.name(), PUBLIC, 0, 0, OWNER, 2, e.getValue(), 0, 0,
                        (double) t.rows().liveCount(), 0, 0, !indexes(t).isEmpty(), false, "p", "r", t.columnCount(),
                        0, false, false, false, false, false, true, "d", false, 0, 0, 0, null, null, null);
                for (TableIndex ix : indexes(t)) {
                    int o = oids.indexes.get(ix);
                    r.add(o, indexName(t, ix), PUBLIC, 0, 0, OWNER, 403, o, 0, 0, (double) t.rows().liveCount(), 0, 0,
                            false, false, "p", "i", ix.columnCount(), 0, false, false, false, false, false, true, "n",
                            false, 0, 0, 0, null, null, null);
                }
            }
            for (Map.Entry<ViewDef, Integer> e : oids.views.entrySet()) {
                ViewDef v = e.getKey();
                r.add(e.getValue(), v.name(), PUBLIC, 0, 0, OWNER, 0, 0, 0, 0, 0.0, 0, 0, false, false, "p", "v",
                        v.columnNames() == null ? 0 : v.columnNames().size(), 0, true, false, false, false, false,
                        true, "n", false, 0, 0, 0, null, null, null);
            }
        });
        pg("pg_attribute", "attrelid int, attname text, atttypid int, attstattarget int, attlen int, attnum int,"
                + " attndims int, attcacheoff int, atttypmod int, attbyval bool, attalign text, attstorage text,"
                + " attcompression text, attnotnull bool, atthasdef bool, atthasmissing bool, attidentity text,"
                + " attgenerated text, attisdropped bool, attislocal bool, attinhcount int, attcollation int,"
                + " attacl text, attoptions text, attfdwoptions text, attmissingval text", (c, r) -> {
            Oids oids = new Oids(c);
            for (Map.Entry<Table, Integer> e : oids.tables.entrySet()) {
                Table t = e.getKey();
                for (int i = 0; i < t.columnCount(); i++) {
                    Column col = t.column(i);
                    int type = typeOid(col);
                    r.add(e.getValue(), col.name(), type, -1, typeLen(type), i + 1, 0, -1, pgTypmod(col), typeLen(type) > 0,
                            "i", "p", "", notNull(t, col), col.defaultText() != null, false, "", "", false, true, 0,
                            type == 25 ? 100 : 0, null, null, null, null);
                }
                for (TableIndex ix : indexes(t)) {
                    for (int i = 0; i < ix.columnCount(); i++) {
                        Column col = ix.columns().get(i);
                        int type = typeOid(col);
                        r.add(oids.indexes.get(ix), col.name(), type, -1, typeLen(type), i + 1, 0, -1, pgTypmod(col),
                                typeLen(type) > 0, "i", "p", "", false, false, false, "", "", false, true, 0, 0, null,
                                null, null, null);
                    }
                }
            }
        });
        pg("pg_attrdef", "oid int, adrelid int, adnum int, adbin text", (c, r) -> {
            Oids oids = new Oids(c);
            int next = 1;
            for (Map.Entry<Table, Integer> e : oids.tables.entrySet()) {
                Table t = e.getKey();
                for (int i = 0; i < t.columnCount(); i++) {
                    if (t.column(i).defaultText() != null) {
                        r.add(next++, e.getValue(), i + 1, t.column(i).defaultText());
                    }
                }
            }
        });
        pg("pg_type", "oid int, typname text, typnamespace int, typowner int, typlen int, typbyval bool,"
                + " typtype text, typcategory text, typispreferred bool, typisdefined bool, typdelim text,"
                + " typrelid int, typelem int, typarray int, typnotnull bool, typbasetype int, typtypmod int,"
                + " typndims int, typcollation int, typdefault text, typacl text", (c, r) -> {
            for (Object[] t : TYPES) {
                int len = (Integer) t[2];
                r.add(t[0], t[1], PG_CATALOG, OWNER, len, len > 0 && len <= 8, "b", t[3], false, true, ",", 0, 0, 0,
                        false, 0, -1, 0, "S".equals(t[3]) ? 100 : 0, null, null);
            }
        });
        pg("pg_index", "indexrelid int, indrelid int, indnatts int, indnkeyatts int, indisunique bool,"
                + " indnullsnotdistinct bool, indisprimary bool, indisexclusion bool, indimmediate bool,"
                + " indisclustered bool, indisvalid bool, indcheckxmin bool, indisready bool, indislive bool,"
                + " indisreplident bool, indkey text, indcollation text, indclass text, indoption text,"
                + " indexprs text, indpred text", (c, r) -> {
            Oids oids = new Oids(c);
            for (Map.Entry<TableIndex, Integer> e : oids.indexes.entrySet()) {
                TableIndex ix = e.getKey();
                Table t = ownerOf(c, ix);
                StringBuilder opt = new StringBuilder();
                for (int i = 0; i < ix.columnCount(); i++) {
                    opt.append(i == 0 ? "" : " ").append(ix.descending(i) ? 3 : 0);
                }
                r.add(e.getValue(), oids.tables.get(t), ix.columnCount(), ix.columnCount(), ix.unique(), false,
                        ix.isPrimary(), false, true, false, true, false, true, true, false, keyList(ix, " ", "", ""),
                        null, null, opt.toString(), null, null);
            }
        });
        pg("pg_constraint", "oid int, conname text, connamespace int, contype text, condeferrable bool,"
                + " condeferred bool, convalidated bool, conrelid int, contypid int, conindid int, conparentid int,"
                + " confrelid int, confupdtype text, confdeltype text, confmatchtype text, conislocal bool,"
                + " coninhcount int, connoinherit bool, conkey int2[], confkey int2[], conbin text", (c, r) -> {
            Oids oids = new Oids(c);
            for (Map.Entry<TableIndex, Integer> e : oids.indexes.entrySet()) {
                TableIndex ix = e.getKey();
                if (!isConstraint(ix)) {
                    continue;
                }
                Table t = ownerOf(c, ix);
                r.add(e.getValue() + KEY_CONSTRAINT, indexName(t, ix), PUBLIC, ix.isPrimary() ? "p" : "u", false, false,
                        true, oids.tables.get(t), 0, e.getValue(), 0, 0, " ", " ", " ", true, 0, true,
                        keyList(ix, ",", "{", "}"), null, null);
            }
            for (Map.Entry<ConstraintDef, Integer> e : oids.constraints.entrySet()) {
                ConstraintDef d = e.getKey();
                Table t = d.table();
                if (d.kind() == ConstraintDef.Kind.CHECK) {
                    r.add(e.getValue(), d.name(), PUBLIC, "c", false, false, true, oids.tables.get(t), 0, 0, 0, 0, " ",
                            " ", " ", true, 0, false, null, null, d.checkText());
                } else {
                    r.add(e.getValue(), d.name(), PUBLIC, "f", d.deferrable(), d.initiallyDeferred(), true, oids.tables.get(t), 0,
                            oids.keyIndex(d.refTable(), d.refColumns()), 0, oids.tables.get(d.refTable()),
                            String.valueOf(d.onUpdate()), String.valueOf(d.onDelete()), d.matchFull() ? "f" : "s", true,
                            0, true, columnNumbers(t, d.columns()), columnNumbers(d.refTable(), d.refColumns()), null);
                }
            }
        });
        pg("pg_collation", "oid int, collname text, collnamespace int, collowner int, collprovider text,"
                + " collisdeterministic bool, collencoding int, collcollate text, collctype text, colliculocale text,"
                + " collversion text", (c, r) -> {
            r.add(100, "default", PG_CATALOG, OWNER, "d", true, -1, null, null, null, null);
            r.add(950, "C", PG_CATALOG, OWNER, "c", true, -1, "C", "C", null, null);
            r.add(951, "POSIX", PG_CATALOG, OWNER, "c", true, -1, "POSIX", "POSIX", null, null);
        });
        pg("pg_database", "oid int, datname text, datdba int, encoding int, datlocprovider text,"
                + " datistemplate bool, datallowconn bool, datconnlimit int, datfrozenxid int, datminmxid int,"
                + " dattablespace int, datcollate text, datctype text, daticulocale text, datcollversion text,"
                + " datacl text", (c, r) -> r.add(16_383, DATABASE, OWNER, 6, "c", false, true, -1, 0, 0, 1663,
                "C.UTF-8", "C.UTF-8", null, null, null));
        pg("pg_settings", "name text, setting text, unit text, category text, short_desc text, extra_desc text,"
                + " context text, vartype text, source text, min_val text, max_val text, enumvals text,"
                + " boot_val text, reset_val text, sourcefile text, sourceline int, pending_restart bool", (c, r) -> {
            String[][] settings = {
                    {"server_version", "15.0", "string"}, {"server_version_num", "150000", "integer"},
                    {"server_encoding", "UTF8", "string"}, {"client_encoding", "UTF8", "string"},
                    {"DateStyle", "ISO, MDY", "string"}, {"TimeZone", "UTC", "string"},
                    {"integer_datetimes", "on", "bool"}, {"standard_conforming_strings", "on", "bool"},
                    {"search_path", "\"$user\", public", "string"}, {"max_identifier_length", "63", "integer"},
                    {"default_transaction_isolation", "read committed", "enum"},
                    {"transaction_isolation", "read committed", "enum"}, {"statement_timeout", "0", "integer"},
                    {"max_index_keys", "32", "integer"},
            };
            for (String[] s : settings) {
                r.add(s[0], s[1], null, "Preset Options", null, null, "user", s[2], "default", null, null, null,
                        s[1], s[1], null, null, false);
            }
        });
        pg("pg_description", "objoid int, classoid int, objsubid int, description text", (c, r) -> {
        });
        pg("pg_shdescription", "objoid int, classoid int, description text", (c, r) -> {
        });
        pg("pg_inherits", "inhrelid int, inhparent int, inhseqno int, inhdetachpending bool", (c, r) -> {
        });
        pg("pg_trigger", "oid int, tgrelid int, tgparentid int, tgname text, tgfoid int, tgtype int, tgenabled text,"
                + " tgisinternal bool", (c, r) -> {
        });
        pg("pg_policy", "oid int, polname text, polrelid int, polcmd text, polpermissive bool", (c, r) -> {
        });
        pg("pg_statistic_ext", "oid int, stxrelid int, stxname text, stxnamespace int", (c, r) -> {
        });
        pg("pg_publication", "oid int, pubname text", (c, r) -> {
        });
        pg("pg_am", "oid int, amname text, amhandler text, amtype text", (c, r) -> {
            r.add(2, "heap", "heap_tableam_handler", "t");
            r.add(403, "btree", "bthandler", "i");
        });
        pg("pg_roles", "rolname text, rolsuper bool, rolinherit bool, rolcreaterole bool, rolcreatedb bool,"
                + " rolcanlogin bool, rolreplication bool, rolconnlimit int, rolpassword text, rolvaliduntil text,"
                + " rolbypassrls bool, rolconfig text, oid int", (c, r) -> r.add("respsql", true, true, true, true,
                true, true, -1, "********", null, true, null, OWNER));
        pg("pg_user", "usename text, usesysid int, usecreatedb bool, usesuper bool, userepl bool, usebypassrls bool,"
                + " passwd text, valuntil text, useconfig text", (c, r) -> r.add("respsql", OWNER, true, true, true,
                true, "********", null, null));
        pg("pg_tables", "schemaname text, tablename text, tableowner text, tablespace text, hasindexes bool,"
                + " hasrules bool, hastriggers bool, rowsecurity bool", (c, r) -> {
            for (Table t : c.tables()) {
                r.add(SCHEMA, t.name(), "respsql", null, !indexes(t).isEmpty(), false, false, false);
            }
        });
        pg("pg_views", "schemaname text, viewname text, viewowner text, definition text", (c, r) -> {
            for (ViewDef v : c.views()) {
                r.add(SCHEMA, v.name(), "respsql", v.queryText());
            }
        });
        pg("pg_indexes", "schemaname text, tablename text, indexname text, tablespace text, indexdef text", (c, r) -> {
            for (Table t : c.tables()) {
                for (TableIndex ix : indexes(t)) {
                    r.add(SCHEMA, t.name(), indexName(t, ix), null, indexDef(t, ix));
                }
            }
        });
    }

    // ---- information_schema --------------------------------------------------------------------------

    static {
        info("tables", "table_catalog text, table_schema text, table_name text, table_type text,"
                + " self_referencing_column_name text, reference_generation text, user_defined_type_catalog text,"
                + " user_defined_type_schema text, user_defined_type_name text, is_insertable_into text,"
                + " is_typed text, commit_action text", (c, r) -> {
            for (Table t : c.tables()) {
                r.add(DATABASE, SCHEMA, t.name(), "BASE TABLE", null, null, null, null, null, "YES", "NO", null);
            }
            for (ViewDef v : c.views()) {
                r.add(DATABASE, SCHEMA, v.name(), "VIEW", null, null, null, null, null, "NO", "NO", null);
            }
        });
        info("columns", "table_catalog text, table_schema text, table_name text, column_name text,"
                + " ordinal_position int, column_default text, is_nullable text, data_type text,"
                + " character_maximum_length int, character_octet_length int, numeric_precision int,"
                + " numeric_precision_radix int, numeric_scale int, datetime_precision int, interval_type text,"
                + " udt_catalog text, udt_schema text, udt_name text, is_identity text, identity_generation text,"
                + " is_generated text, generation_expression text, is_updatable text", (c, r) -> {
            for (Table t : c.tables()) {
                for (int i = 0; i < t.columnCount(); i++) {
                    Column col = t.column(i);
                    int oid = typeOid(col);
                    Integer precision = switch (oid) {
                        case 23 -> 32;
                        case 20 -> 64;
                        case 701 -> 53;
                        default -> null;
                    };
                    Integer radix = precision == null ? null : Integer.valueOf(2);
                    Integer scale = oid == 23 || oid == 20 ? Integer.valueOf(0) : null;
                    Integer maxLength = null;
                    Integer octets = oid == 25 ? Integer.valueOf(1_073_741_824) : null;
                    if (oid == 1043 || oid == 1042) {
                        maxLength = pgTypmod(col) - 4; // varchar(n)/char(n): n characters, 4 bytes each at most
                        octets = maxLength * 4;
                    } else if (oid == 1700 && col.typeModifier() >= 0) {
                        precision = col.typeModifier() >>> 16; // numeric(p,s): decimal digits
                        radix = 10;
                        scale = col.typeModifier() & 0xffff;
                    } else if (oid == 1700) {
                        radix = 10;
                    }
                    Integer dtPrecision = oid == 1082 ? Integer.valueOf(0) : oid == 1114 ? Integer.valueOf(6) : null;
                    r.add(DATABASE, SCHEMA, t.name(), col.name(), i + 1, col.defaultText(),
                            notNull(t, col) ? "NO" : "YES", formatType(oid, -1), maxLength,
                            octets, precision, radix, scale, dtPrecision, null, DATABASE,
                            "pg_catalog", typeName(oid), "NO", null, "NEVER", null, "YES");
                }
            }
        });
        info("table_constraints", "constraint_catalog text, constraint_schema text, constraint_name text,"
                + " table_catalog text, table_schema text, table_name text, constraint_type text,"
                + " is_deferrable text, initially_deferred text, enforced text, nulls_distinct text", (c, r) -> {
            for (Table t : c.tables()) {
                for (TableIndex ix : indexes(t)) {
                    if (isConstraint(ix)) {
                        r.add(DATABASE, SCHEMA, indexName(t, ix), DATABASE, SCHEMA, t.name(),
                                ix.isPrimary() ? "PRIMARY KEY" : "UNIQUE", "NO", "NO", "YES", ix.isPrimary() ? null : "YES");
                    }
                }
            }
        });
        info("key_column_usage", "constraint_catalog text, constraint_schema text, constraint_name text,"
                + " table_catalog text, table_schema text, table_name text, column_name text, ordinal_position int,"
                + " position_in_unique_constraint int", (c, r) -> {
            for (Table t : c.tables()) {
                for (TableIndex ix : indexes(t)) {
                    if (isConstraint(ix)) {
                        for (int i = 0; i < ix.columnCount(); i++) {
                            r.add(DATABASE, SCHEMA, indexName(t, ix), DATABASE, SCHEMA, t.name(),
                                    ix.columns().get(i).name(), i + 1, null);
                        }
                    }
                }
            }
        });
        info("views", "table_catalog text, table_schema text, table_name text, view_definition text,"
                + " check_option text, is_updatable text, is_insertable_into text, is_trigger_updatable text,"
                + " is_trigger_deletable text, is_trigger_insertable_into text", (c, r) -> {
            for (ViewDef v : c.views()) {
                r.add(DATABASE, SCHEMA, v.name(), v.queryText(), "NONE", "NO", "NO", "NO", "NO", "NO");
            }
        });
        info("schemata", "catalog_name text, schema_name text, schema_owner text, default_character_set_catalog text,"
                + " default_character_set_schema text, default_character_set_name text, sql_path text", (c, r) -> {
            for (String s : new String[]{"pg_catalog", "public", "information_schema"}) {
                r.add(DATABASE, s, "respsql", null, null, null, null);
            }
        });
    }
}
