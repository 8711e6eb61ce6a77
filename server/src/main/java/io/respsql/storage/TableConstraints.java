package io.respsql.storage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A table's named constraints: its CHECKs, its foreign keys, the foreign keys of other tables (or
 * its own) that reference it, and the constraint names of its UNIQUE and PRIMARY KEY indexes.
 * Empty for most tables, so writes ask {@link #isEmpty()} once per statement. Event loop only;
 * a change bumps the catalog's schema version (plans bind the CHECKs).
 */
public final class TableConstraints {
    public final List<ConstraintDef> checks = new ArrayList<>(0);
    public final List<ConstraintDef> foreignKeys = new ArrayList<>(0);
    public final List<ConstraintDef> referencedBy = new ArrayList<>(0);
    /** Constraint name (lower case) to its index's name, for UNIQUE and PRIMARY KEY constraints. */
    public final Map<String, String> keyNames = new LinkedHashMap<>();
    /** Constraint names as written, by lower case. */
    private final Map<String, String> spelled = new LinkedHashMap<>();

    public boolean isEmpty() {
        return checks.isEmpty() && foreignKeys.isEmpty() && referencedBy.isEmpty();
    }

    /** Whether the table has a constraint (of any kind) called {@code name}. */
    public boolean has(String name) {
        return find(name) != null || keyNames.containsKey(key(name));
    }

    /** The CHECK or FOREIGN KEY called {@code name} (case-insensitive), or null. */
    public ConstraintDef find(String name) {
        for (ConstraintDef c : checks) {
            if (c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        for (ConstraintDef c : foreignKeys) {
            if (c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        return null;
    }

    public void nameKey(String constraint, String index) {
        keyNames.put(key(constraint), index);
        spelled.put(key(constraint), constraint);
    }

    public void unnameKey(String constraint) {
        keyNames.remove(key(constraint));
        spelled.remove(key(constraint));
    }

    /** The constraint name of index {@code index} (as written), or null when it stands for none. */
    public String keyConstraint(String index) {
        for (Map.Entry<String, String> e : keyNames.entrySet()) {
            if (e.getValue().equalsIgnoreCase(index)) {
                return spelled.get(e.getKey());
            }
        }
        return null;
    }

    /** Every UNIQUE/PRIMARY KEY constraint name as written, in order. */
    public List<String> keyConstraintNames() {
        return new ArrayList<>(spelled.values());
    }

    // ---- snapshots: the "constraints" section ----------------------------------------------------

    /**
     * Every constraint of {@code tables} as the snapshot's {@code constraints} section, or null
     * when there is none. Little-endian; a string is an int byte length and UTF-8 bytes:
     * {@code int count}, then per constraint {@code string table, string name, byte kind} and
     * for kind 0 (CHECK) {@code string text, byte postgresDialect}; 1 (FOREIGN KEY) {@code int n, string[n] columns,
     * string refTable, int n, string[n] refColumns, byte onDelete, byte onUpdate, byte matchFull (bit 0; bits 1-2 deferral),
     * string autoIndex ("" none), int n (-1: none), string[n] ON DELETE SET columns}; 2 (UNIQUE / PRIMARY KEY name) {@code string index}.
     */
    public static byte[] encode(java.util.Collection<Table> tables) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
        int count = 0;
        try {
            for (Table t : tables) {
                TableConstraints tc = t.constraints();
                for (Map.Entry<String, String> e : tc.keyNames.entrySet()) {
                    head(out, t, tc.spelled.get(e.getKey()), 2);
                    str(out, e.getValue());
                    count++;
                }
                for (ConstraintDef c : tc.checks) {
                    head(out, t, c.name(), 0);
                    str(out, c.checkText());
                    out.writeByte(c.postgres() ? 1 : 0);
                    count++;
                }
                for (ConstraintDef c : tc.foreignKeys) {
                    head(out, t, c.name(), 1);
                    names(out, c.columns());
                    str(out, c.refTable().name());
                    names(out, c.refColumns());
                    out.writeByte(c.onDelete());
                    out.writeByte(c.onUpdate());
                    // bit 0 MATCH FULL; bits 1-2 the deferral (regress24: 0 before, so older snapshots read as NOT DEFERRABLE)
                    out.writeByte((c.matchFull() ? 1 : 0) | c.deferral() << 1);
                    str(out, c.autoIndex() == null ? "" : c.autoIndex());
                    if (c.setColumns() == null) {
                        out.writeInt(Integer.reverseBytes(-1));
                    } else {
                        names(out, c.setColumns());
                    }
                    count++;
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        if (count == 0) {
            return null;
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 + bytes.size()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(count);
        // (DataOutputStream writes ints big-endian: every int above went through Integer.reverseBytes)
        b.put(bytes.toByteArray());
        return b.array();
    }

    private static void head(java.io.DataOutputStream out, Table t, String name, int kind) throws java.io.IOException {
        str(out, t.name());
        str(out, name);
        out.writeByte(kind);
    }

    private static void names(java.io.DataOutputStream out, Column[] cols) throws java.io.IOException {
        out.writeInt(Integer.reverseBytes(cols.length));
        for (Column c : cols) {
            str(out, c.name());
        }
    }

    private static void str(java.io.DataOutputStream out, String s) throws java.io.IOException {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(Integer.reverseBytes(b.length)); // little-endian, as the rest of the file
        out.write(b);
    }

    /**
     * Puts the constraints of a {@code constraints} section back on the tables of {@code catalog}
     * (loaded from the same snapshot). Throws IllegalArgumentException when it names what is not there.
     */
    public static void decode(byte[] section, Catalog catalog) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(section).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int count = in.getInt();
        for (int i = 0; i < count; i++) {
            Table t = table(catalog, str(in));
            String name = str(in);
            int kind = in.get();
            TableConstraints tc = t.constraints();
            if (kind == 0) {
                String text = str(in);
                tc.checks.add(ConstraintDef.check(name, t, text, in.get() != 0));
            } else if (kind == 1) {
                Column[] cols = columns(t, in);
                Table ref = table(catalog, str(in));
                Column[] refs = columns(ref, in);
                char onDelete = (char) in.get();
                char onUpdate = (char) in.get();
                int flags = in.get();
                boolean full = (flags & 1) != 0;
                String auto = str(in);
                Column[] set = null;
                if (in.getInt(in.position()) >= 0) {
                    set = columns(t, in);
                } else {
                    in.getInt();
                }
                ConstraintDef fk = ConstraintDef.foreignKey(name, t, cols, ref, refs, onDelete, onUpdate, full,
                        auto.isEmpty() ? null : auto, set).deferral((flags >> 1) & 3);
                tc.foreignKeys.add(fk);
                ref.constraints().referencedBy.add(fk);
            } else if (kind == 2) {
                tc.nameKey(name, str(in));
            } else {
                throw new IllegalArgumentException("constraint kind " + kind);
            }
        }
        catalog.schemaChanged();
    }

    private static Table table(Catalog catalog, String name) {
        Table t = catalog.table(name);
        if (t == null) {
            throw new IllegalArgumentException("constraint of unknown table " + name);
        }
        return t;
    }

    private static Column[] columns(Table t, java.nio.ByteBuffer in) {
        int n = in.getInt();
        if (n < 0 || n > 1 << 16) {
            throw new IllegalArgumentException("column count " + n);
        }
        Column[] cols = new Column[n];
        for (int i = 0; i < n; i++) {
            String c = str(in);
            cols[i] = t.column(c);
            if (cols[i] == null) {
                throw new IllegalArgumentException("constraint column " + c + " not in table " + t.name());
            }
        }
        return cols;
    }

    private static String str(java.nio.ByteBuffer in) {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
            throw new IllegalArgumentException("string length " + n);
        }
        byte[] b = new byte[n];
        in.get(b);
        return new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }

    static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
