package io.respsql.storage;

/**
 * One column's values for every row slot, in primitive chunks. Numeric columns expose
 * {@link #getLong}/{@link #getDouble}; TEXT columns expose their bytes through {@link TextColumn}.
 */
public abstract class Column {
    private final String name;
    private final ColumnType type;
    private final int position;
    /** Chunks copied because a capture shared them (INFO's copy-on-write count). */
    long copiedChunks;
    /**
     * Per chunk: shared with an outstanding capture, so copied before its next write. The copy
     * itself is typed, so each column does it ({@code thaw}); the flags are kept here.
     */
    boolean[] frozen = new boolean[0];

    protected Column(String name, ColumnType type, int position) {
        this.name = name;
        this.type = type;
        this.position = position;
    }

    public final String name() {
        return name;
    }

    public final ColumnType type() {
        return type;
    }

    /** Position in the table's column list (0-based). */
    public final int position() {
        return position;
    }

    /** Makes room for row slots {@code 0 .. rows-1}. */
    abstract void ensureCapacity(int rows);

    /** Value as a long (integer columns; FLOAT truncates — callers check the type first). */
    public abstract long getLong(int row);

    public abstract double getDouble(int row);

    /** Sortable 64-bit key of the row's value, as stored in indexes. */
    public abstract long indexKey(int row);

    /**
     * Whether the row holds NULL. NULLs live in a bitmap per chunk beside the values, so a
     * nullable column costs one bit per row and no object (storage branch of issue 10).
     */
    public boolean isNull(int row) {
        return false;
    }

    /** Stores NULL in the row (the value slot is cleared). Every typed setter clears the NULL bit. */
    public void setNull(int row) {
        throw new UnsupportedOperationException("NULL storage not built yet");
    }

    /** Whether any row may hold NULL now (false lets scans and index plans skip NULL checks). */
    public boolean mayHaveNulls() {
        return false;
    }

    /** Declared NOT NULL (a PRIMARY KEY column is). */
    public boolean notNull() {
        return false;
    }

    /** The DEFAULT expression's source text, or null when none was declared (the default is NULL). */
    public String defaultText() {
        return null;
    }

    /** Resets a freed slot so it holds no reference to old data. */
    abstract void clear(int row);

    public abstract long memoryBytes();

    /**
     * A point-in-time view of the column's values: the chunk arrays as they are now, which are
     * marked frozen so that later writes copy a chunk before changing it. O(chunks), no row copy.
     */
    abstract ColumnImage capture();

    /** Ends the capture: writes stop copying chunks. Event loop only. */
    final void releaseCapture() {
        java.util.Arrays.fill(frozen, false);
    }

    /** Marks every chunk shared with a capture being taken now. */
    final void freezeAll() {
        java.util.Arrays.fill(frozen, true);
    }

    static Column create(String name, ColumnType type, int position) {
        switch (type) {
            case INT:
                return new IntColumn(name, position);
            case BIGINT:
                return new LongColumn(name, position);
            case FLOAT:
                return new DoubleColumn(name, position);
            case TEXT:
                return new TextColumn(name, position);
            default:
                throw new IllegalArgumentException(type.name());
        }
    }
}
