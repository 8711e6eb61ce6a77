package io.respsql.storage;

/** Stand-alone typed columns for the tests of packages that work on columns (exec/kernel): no table around them. */
public final class TestColumns {
    private TestColumns() {
    }

    public static IntColumn ints(String name, int rows) {
        IntColumn c = new IntColumn(name, 0);
        c.ensureCapacity(rows);
        return c;
    }

    public static LongColumn longs(String name, int rows) {
        LongColumn c = new LongColumn(name, 0);
        c.ensureCapacity(rows);
        return c;
    }

    public static DoubleColumn doubles(String name, int rows) {
        DoubleColumn c = new DoubleColumn(name, 0);
        c.ensureCapacity(rows);
        return c;
    }

    /** Takes capture {@code seq} of {@code c} (as BGSAVE or a read view would) and returns its value chunks. */
    public static int[][] captureInts(IntColumn c, long seq) {
        return c.capture(seq).intChunks();
    }
}
