package io.respsql.storage;

import io.respsql.sql.tree.Statement;

import java.util.ArrayList;
import java.util.List;

/**
 * A table's place in a declarative partition tree (PostgreSQL's PARTITION BY / PARTITION OF): the
 * key it partitions its rows by (null: a leaf, which holds rows), the table it is a partition of
 * (null: a root) with the bound it accepts, and its partitions in the order they were attached.
 * A partitioned table is a table of its own whose rows are always none outside a routing
 * statement; its partitions are ordinary tables (scans, indexes) that a write through the parent is
 * routed to and a read of the parent reads together.
 */
public final class Partitioning {
    public Statement.PartitionKey key;
    public Table parent;
    public Statement.PartitionBound bound;
    public final List<Table> partitions = new ArrayList<>();

    public boolean isPartitioned() {
        return key != null;
    }

    /** A copy that does not change with {@code p} (a read view's), or null. */
    public static Partitioning copyOf(Partitioning p) {
        if (p == null) {
            return null;
        }
        Partitioning c = new Partitioning();
        c.key = p.key;
        c.parent = p.parent;
        c.bound = p.bound;
        c.partitions.addAll(p.partitions);
        return c;
    }

    /** The partitioning of {@code t}, made when it has none. */
    public static Partitioning of(Table t) {
        if (t.partitioning == null) {
            t.partitioning = new Partitioning();
        }
        return t.partitioning;
    }

    public static boolean partitioned(Table t) {
        return t != null && t.partitioning != null && t.partitioning.key != null;
    }

    public static Table parentOf(Table t) {
        return t == null || t.partitioning == null ? null : t.partitioning.parent;
    }

    /** The partition of {@code t} that is its DEFAULT, or null. */
    public Table defaultPartition() {
        for (Table c : partitions) {
            if (c.partitioning != null && c.partitioning.bound != null && c.partitioning.bound.isDefault()) {
                return c;
            }
        }
        return null;
    }

    // ---- snapshot section "partitions" ----

    /**
     * The partition trees of {@code tables} as a snapshot section, or null when none is in one:
     * {@code int n}, per table with a key or a bound: its name, its key (flag, strategy, count,
     * per key its text and operator class), its bound (flag, kind, the IN / FROM / TO value texts,
     * modulus, remainder); then {@code int m}, per partitioned table its name and its partitions'
     * names in order (a partition outside {@code tables} is left out).
     */
    public static byte[] encode(java.util.Collection<Table> tables) {
        java.util.Set<Table> in = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.List<Table> with = new ArrayList<>();
        for (Table t : tables) {
            in.add(t);
            if (t.partitioning != null && (t.partitioning.key != null || t.partitioning.bound != null)) {
                with.add(t);
            }
        }
        if (with.isEmpty()) {
            return null;
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
            out.writeInt(with.size());
            for (Table t : with) {
                Partitioning p = t.partitioning;
                out.writeUTF(t.name());
                out.writeBoolean(p.key != null);
                if (p.key != null) {
                    out.writeUTF(p.key.strategy());
                    out.writeInt(p.key.keys().size());
                    for (int i = 0; i < p.key.keys().size(); i++) {
                        out.writeUTF(p.key.keys().get(i));
                        String op = p.key.opclasses().get(i);
                        out.writeBoolean(op != null);
                        if (op != null) {
                            out.writeUTF(op);
                        }
                    }
                }
                boolean bound = p.bound != null && p.parent != null && in.contains(p.parent);
                out.writeBoolean(bound);
                if (bound) {
                    out.writeUTF(p.bound.kind());
                    writeList(out, p.bound.in());
                    writeList(out, p.bound.from());
                    writeList(out, p.bound.to());
                    out.writeInt(p.bound.modulus());
                    out.writeInt(p.bound.remainder());
                }
            }
            int m = 0;
            for (Table t : with) {
                m += t.partitioning.key != null ? 1 : 0;
            }
            out.writeInt(m);
            for (Table t : with) {
                if (t.partitioning.key == null) {
                    continue;
                }
                out.writeUTF(t.name());
                java.util.List<Table> kept = new ArrayList<>();
                for (Table c : t.partitioning.partitions) {
                    if (in.contains(c)) {
                        kept.add(c);
                    }
                }
                out.writeInt(kept.size());
                for (Table c : kept) {
                    out.writeUTF(c.name());
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void writeList(java.io.DataOutputStream out, java.util.List<String> l) throws java.io.IOException {
        out.writeInt(l == null ? -1 : l.size());
        if (l != null) {
            for (String v : l) {
                out.writeUTF(v);
            }
        }
    }

    private static java.util.List<String> readList(java.io.DataInputStream in) throws java.io.IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        java.util.List<String> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            l.add(in.readUTF());
        }
        return java.util.List.copyOf(l);
    }

    /** Restores the partition trees of {@link #encode} into {@code catalog}'s tables (already loaded). */
    public static void decode(byte[] section, Catalog catalog) {
        try (java.io.DataInputStream in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(section))) {
            int n = in.readInt();
            java.util.Map<Table, Statement.PartitionBound> bounds = new java.util.IdentityHashMap<>();
            for (int i = 0; i < n; i++) {
                Table t = table(catalog, in.readUTF());
                Partitioning p = of(t);
                if (in.readBoolean()) {
                    String strategy = in.readUTF();
                    int k = in.readInt();
                    java.util.List<String> keys = new ArrayList<>();
                    java.util.List<String> ops = new ArrayList<>();
                    for (int j = 0; j < k; j++) {
                        keys.add(in.readUTF());
                        ops.add(in.readBoolean() ? in.readUTF() : null);
                    }
                    p.key = new Statement.PartitionKey(strategy, java.util.List.copyOf(keys), java.util.Collections.unmodifiableList(ops));
                }
                if (in.readBoolean()) {
                    String kind = in.readUTF();
                    java.util.List<String> inList = readList(in);
                    java.util.List<String> from = readList(in);
                    java.util.List<String> to = readList(in);
                    bounds.put(t, new Statement.PartitionBound(kind, inList, from, to, in.readInt(), in.readInt()));
                }
            }
            int m = in.readInt();
            for (int i = 0; i < m; i++) {
                Table parent = table(catalog, in.readUTF());
                int c = in.readInt();
                for (int j = 0; j < c; j++) {
                    Table child = table(catalog, in.readUTF());
                    Partitioning cp = of(child);
                    cp.parent = parent;
                    cp.bound = bounds.get(child);
                    if (cp.bound == null) {
                        throw new IllegalStateException("partition " + child.name() + " has no bound");
                    }
                    of(parent).partitions.add(child);
                }
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("truncated: " + e.getMessage());
        }
    }

    private static Table table(Catalog catalog, String name) {
        Table t = catalog.table(name);
        if (t == null) {
            throw new IllegalStateException("no table " + name);
        }
        return t;
    }
}
