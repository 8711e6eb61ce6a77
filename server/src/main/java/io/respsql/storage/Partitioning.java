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
}
