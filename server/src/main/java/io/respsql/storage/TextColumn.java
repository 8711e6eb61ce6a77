package io.respsql.storage;

import io.respsql.index.IndexKeys;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * TEXT values: each row holds an 8-byte reference into a byte arena (chunk index and offset);
 * the arena stores a 4-byte length then the UTF-8 bytes. No object per value.
 *
 * <p>Overwriting a value appends the new bytes and leaves the old ones as garbage; once garbage
 * outweighs live bytes the table compacts the arena ({@link #compact}).
 *
 * <p>A capture freezes the reference chunks like the numeric columns' chunks. The arena needs no
 * flags, however many captures are outstanding: appends write only past the write position of the
 * latest capture, and compaction ({@link #compact}) and truncation ({@link #reset}) install a new
 * arena and never write or reuse an old arena chunk, so bytes a captured reference points at are
 * never overwritten; each capture keeps the arena chunks it listed.
 */
public final class TextColumn extends Column {
    private static final int ARENA_CHUNK = 1 << 20;
    /** Reference of the empty string: no arena space needed. */
    static final long EMPTY = -1L;

    private long[][] refs = new long[0][];
    private byte[][] arena = new byte[0][];
    private int arenaCount;
    /** Write position in the last arena chunk. */
    private int arenaPos;
    private long liveBytes;
    private long garbageBytes;

    TextColumn(String name, int position) {
        this(name, ColumnType.TEXT, position);
    }

    /** A column of {@code type} held as bytes: TEXT, NUMERIC_TEXT (a NUMERIC's canonical text) or INTERVAL's encoded values. */
    TextColumn(String name, ColumnType type, int position) {
        super(name, type, position);
    }

    @Override
    void ensureCapacity(int rows) {
        Object first = refs.length == 0 ? null : refs[0];
        refs = Chunks.grow(refs, rows, n -> {
            long[] c = new long[n];
            Arrays.fill(c, EMPTY);
            return c;
        }, (old, n) -> {
            long[] c = Arrays.copyOf(old, n);
            Arrays.fill(c, old.length, n, EMPTY);
            return c;
        });
        afterGrow(refs, first);
    }

    private long ref(int row) {
        return refs[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    private void setRef(int row, long ref) {
        int c = row >>> Chunks.SHIFT;
        if (frozen[c]) {
            thaw(c);
        }
        refs[c][row & Chunks.MASK] = ref;
    }

    @Override
    void copyChunk(int c) {
        refs[c] = refs[c].clone();
    }

    @Override
    void installShared(Object array, int n) {
        refs = new long[n][];
        Arrays.fill(refs, (long[]) array);
    }

    /**
     * The reference of {@code value} stored once in the arena, counted as live for {@code rows}
     * rows (ALTER TABLE ... ADD COLUMN's constant, which every existing row shares: see
     * {@link #shareConstantChunks}); overwriting a row later counts its copy as garbage as usual.
     */
    long sharedRef(byte[] value, long rows) {
        long ref = append(value, 0, value.length);
        if (ref != EMPTY) {
            liveBytes += (value.length + 4L) * Math.max(0, rows - 1);
        }
        return ref;
    }

    @Override
    Object chunkArray(int c) {
        return refs[c];
    }

    /** Arena chunk {@code i} in use, or null past the last one (capture accounting). */
    byte[] arenaChunk(int i) {
        return i < arenaCount ? arena[i] : null;
    }

    @Override
    public int chunkCount() {
        return refs.length;
    }

    @Override
    int chunkRows(int c) {
        return refs[c].length;
    }

    @Override
    ColumnImage capture(long seq) {
        freezeAll(seq);
        return ColumnImage.ofText(this, refs.clone(), Arrays.copyOf(arena, arenaCount), captureNulls());
    }

    @Override
    void adopt(ColumnImage image) {
        refs = image.refChunks();
        arena = image.arenaChunks();
        arenaCount = arena.length;
        arenaPos = arenaCount == 0 ? 0 : arena[arenaCount - 1].length;
    }

    /** The length prefix stored at {@code o} in an arena chunk. */
    static int lengthAt(byte[] a, int o) {
        return ((a[o] & 0xFF) << 24) | ((a[o + 1] & 0xFF) << 16) | ((a[o + 2] & 0xFF) << 8) | (a[o + 3] & 0xFF);
    }

    /**
     * The row's reference, for batch readers that want the bytes with one chunk lookup rather
     * than three ({@link #bytes}, {@link #offset}, {@link #length}): {@link #EMPTY_REF} for the
     * empty string, else read with {@link #refBytes}, {@link #refOffset}, {@link #refLength}.
     */
    public long refOf(int row) {
        return refs[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    /** {@link #refOf}'s value for the empty string (no arena bytes). */
    public static final long EMPTY_REF = EMPTY;

    /** The arena chunk a reference (not {@link #EMPTY_REF}) points into. */
    public byte[] refBytes(long ref) {
        return arena[(int) (ref >>> 32)];
    }

    /** Offset of the first byte of a reference's value inside {@link #refBytes}. */
    public static int refOffset(long ref) {
        return (int) ref + 4;
    }

    /** Length of a reference's value, read from the arena chunk {@code a} = {@link #refBytes}. */
    public static int refLength(byte[] a, long ref) {
        return lengthAt(a, (int) ref);
    }

    /** The arena chunk holding the row's bytes (valid only when {@link #length} > 0). */
    public byte[] bytes(int row) {
        long r = ref(row);
        return r == EMPTY ? null : arena[(int) (r >>> 32)];
    }

    /** Offset of the row's first byte inside {@link #bytes(int)}. */
    public int offset(int row) {
        long r = ref(row);
        return r == EMPTY ? 0 : (int) r + 4;
    }

    public int length(int row) {
        long r = ref(row);
        if (r == EMPTY) {
            return 0;
        }
        return lengthAt(arena[(int) (r >>> 32)], (int) r);
    }

    public String getString(int row) {
        int len = length(row);
        return len == 0 ? "" : new String(bytes(row), offset(row), len, StandardCharsets.UTF_8);
    }

    /**
     * Stores {@code len} bytes of {@code b} from {@code off}, copied straight into the arena
     * ({@code b} is not kept, nothing is allocated but arena space); the row is no longer NULL.
     * {@code b} may be this column's own arena (a value copied from another row).
     */
    public void set(int row, byte[] b, int off, int len) {
        int c = row >>> Chunks.SHIFT;
        if (frozen[c]) {
            thaw(c); // before any accounting: a read view's column throws here untouched
        }
        long old = refs[c][row & Chunks.MASK];
        if (old != EMPTY) {
            int oldLen = lengthAt(arena[(int) (old >>> 32)], (int) old);
            garbageBytes += oldLen + 4;
            liveBytes -= oldLen + 4;
        }
        refs[c][row & Chunks.MASK] = append(b, off, len);
        if (anyNulls) {
            clearNullBit(row);
        }
    }

    /** Stores the value; the row is no longer NULL. */
    public void set(int row, byte[] value) {
        set(row, value, 0, value.length);
    }

    /**
     * Loads a slot's value when a snapshot is restored: the slot must still hold the empty string
     * (a fresh slot), so there is no old value to count as garbage.
     */
    public void restoreValue(int row, byte[] src, int off, int len) {
        if (ref(row) != EMPTY) {
            throw new IllegalStateException("slot " + row + " of " + name() + " is not fresh");
        }
        setRef(row, append(src, off, len));
    }

    private long append(byte[] src, int off, int len) {
        if (len == 0) {
            return EMPTY;
        }
        int need = len + 4;
        if (arenaCount == 0 || arenaPos + need > arena[arenaCount - 1].length) {
            if (arenaCount == arena.length) {
                arena = Arrays.copyOf(arena, Math.max(4, arena.length * 2));
            }
            // Arena chunks double from 4 KiB to 1 MiB, so small tables stay small.
            int size = arenaCount == 0 ? 4096 : Math.min(ARENA_CHUNK, arena[arenaCount - 1].length * 2);
            // Allocate before counting: if the heap runs out here the column must stay consistent.
            byte[] fresh = new byte[Math.max(size, need)];
            arena[arenaCount++] = fresh;
            arenaPos = 0;
        }
        byte[] a = arena[arenaCount - 1];
        int o = arenaPos;
        a[o] = (byte) (len >>> 24);
        a[o + 1] = (byte) (len >>> 16);
        a[o + 2] = (byte) (len >>> 8);
        a[o + 3] = (byte) len;
        System.arraycopy(src, off, a, o + 4, len);
        arenaPos += need;
        liveBytes += need;
        return ((long) (arenaCount - 1) << 32) | o;
    }

    /** Compares the row's bytes with {@code b} in unsigned byte order (SQL text order for UTF-8). */
    public int compareTo(int row, byte[] b) {
        int len = length(row);
        if (len == 0) {
            return b.length == 0 ? 0 : -1;
        }
        return Arrays.compareUnsigned(bytes(row), offset(row), offset(row) + len, b, 0, b.length);
    }

    public boolean equalsBytes(int row, byte[] b) {
        int len = length(row);
        if (len != b.length) {
            return false;
        }
        return len == 0 || Arrays.equals(bytes(row), offset(row), offset(row) + len, b, 0, len);
    }

    /** Compares two rows' texts, possibly of different columns. */
    public int compareRows(int row, TextColumn other, int otherRow) {
        int la = length(row);
        int lb = other.length(otherRow);
        if (la == 0 || lb == 0) {
            return Integer.compare(la, lb);
        }
        int oa = offset(row);
        int ob = other.offset(otherRow);
        return Arrays.compareUnsigned(bytes(row), oa, oa + la, other.bytes(otherRow), ob, ob + lb);
    }

    @Override
    public long getLong(int row) {
        throw new IllegalStateException("TEXT column " + name() + " is not numeric");
    }

    @Override
    public double getDouble(int row) {
        throw new IllegalStateException("TEXT column " + name() + " is not numeric");
    }

    @Override
    public long indexKey(int row) {
        int len = length(row);
        return len == 0 ? IndexKeys.ofTextPrefix(null, 0, 0) : IndexKeys.ofTextPrefix(bytes(row), offset(row), len);
    }

    @Override
    void clear(int row) {
        clearValue(row);
        if (anyNulls) {
            int c = row >>> Chunks.SHIFT;
            if (frozen[c]) {
                thaw(c);
            }
            clearNullBit(row);
        }
    }

    @Override
    void clearValue(int row) {
        long old = ref(row);
        if (old != EMPTY) {
            int oldLen = length(row);
            garbageBytes += oldLen + 4;
            liveBytes -= oldLen + 4;
            setRef(row, EMPTY);
        }
    }

    /** Truncate: every reference back to the empty string and a fresh arena, so no old value leaks. */
    @Override
    void reset(int highWater) {
        super.reset(highWater);
        // slots at and above the high-water mark are EMPTY already (freed and unallocated slots are cleared)
        for (int c = 0, chunks = Math.min(refs.length, (highWater + Chunks.MASK) >>> Chunks.SHIFT); c < chunks; c++) {
            int used = Math.min(refs[c].length, highWater - (c << Chunks.SHIFT));
            if (frozen[c]) {
                // shared with a capture: give the table a fresh chunk rather than write the shared one
                long[] fresh = new long[refs[c].length];
                Arrays.fill(fresh, EMPTY);
                refs[c] = fresh;
                installed(c);
            } else {
                Arrays.fill(refs[c], 0, used, EMPTY);
            }
        }
        arena = new byte[0][];
        arenaCount = 0;
        arenaPos = 0;
        liveBytes = 0;
        garbageBytes = 0;
    }

    boolean needsCompaction() {
        return garbageBytes > ARENA_CHUNK && garbageBytes > liveBytes;
    }

    /** Rewrites live values into a fresh arena, dropping garbage. O(live rows). */
    void compact(RowAllocator rows) {
        byte[][] oldArena = arena;
        arena = new byte[0][];
        arenaCount = 0;
        arenaPos = 0;
        liveBytes = 0;
        garbageBytes = 0;
        for (int row = rows.nextLive(0); row >= 0; row = rows.nextLive(row + 1)) {
            long r = ref(row);
            if (r == EMPTY) {
                continue;
            }
            byte[] a = oldArena[(int) (r >>> 32)];
            int o = (int) r;
            setRef(row, append(a, o + 4, lengthAt(a, o)));
        }
    }

    public long garbageBytes() {
        return garbageBytes;
    }

    @Override
    public long memoryBytes() {
        long arenaBytes = 0;
        for (int i = 0; i < arenaCount; i++) {
            arenaBytes += 16 + arena[i].length;
        }
        return Chunks.bytes(refs, 8) + arenaBytes + 16L + 4L * arena.length + nullBytes();
    }
}
