package io.respsql.persist;

import io.respsql.storage.ProgressLog;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.ColumnType;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.PreparedDef;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;
import io.respsql.storage.ViewDef;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Loads a {@link SnapshotFormat} snapshot into a catalog. Tables are rebuilt with the saved slot
 * layout and their indexes by one sort and bulk load each. Nothing reaches the catalog unless the
 * whole snapshot was read and its checksum matched: a bad file leaves the catalog as it was.
 */
public final class SnapshotReader {
    /** What a load brought in. {@code endOffset} is the position just past the snapshot. */
    public record Result(int tables, long rows, int preparedStatements, long endOffset) {
    }

    private final ReadableByteChannel in;
    private final String name;
    /** Absolute offset of the first byte, and bytes available after it when known (else -1). */
    private final long start;
    private final long available;
    private ByteBuffer buf = ByteBuffer.allocate(SnapshotFormat.BUFFER).order(ByteOrder.LITTLE_ENDIAN);
    /** Bytes moved out of the buffer by compaction (consumed before the buffer's start). */
    private long shifted;
    private final CRC32C crc = new CRC32C();
    /** Buffer position up to which {@link #crc} has seen the bytes. */
    private int crcMark;
    private final ProgressLog progress;
    /** Told the offset read so far (INFO's loading_loaded_bytes), or null. */
    private final LoadProgress loadProgress;

    private SnapshotReader(ReadableByteChannel in, String name, long start, long available, LoadProgress loadProgress) {
        this.loadProgress = loadProgress;
        this.in = in;
        this.name = name;
        this.start = start;
        this.available = available;
        this.progress = new ProgressLog("Loading snapshot " + name);
        buf.limit(0);
    }

    /**
     * Loads the snapshot file {@code file} into {@code target}. When a damaged byte makes the
     * structure unreadable before the checksum is reached (a length pointing past the end, say),
     * the whole file's checksum is checked so the error says what happened: a checksum mismatch
     * for a damaged file, truncation for a short one.
     */
    public static Result load(Path file, Catalog target) throws IOException {
        return load(file, target, null);
    }

    /** {@link #load(Path, Catalog)} telling {@code progress} (null: nobody) how far it has read. */
    public static Result load(Path file, Catalog target, LoadProgress progress) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            try {
                return load(ch, 0, file.toString(), target, progress);
            } catch (SnapshotException e) {
                if (!e.damaged()) {
                    throw e;
                }
                SnapshotException mismatch = checksumMismatch(ch, file.toString());
                throw mismatch != null ? mismatch : e;
            }
        }
    }

    /**
     * If the file ends like a whole snapshot (checksum then end marker) but the checksum does not
     * match the bytes before it, the error naming both checksums; else null.
     */
    private static SnapshotException checksumMismatch(FileChannel ch, String name) throws IOException {
        long size = ch.size();
        int trailer = 4 + SnapshotFormat.END.length;
        if (size < SnapshotFormat.MAGIC.length + trailer) {
            return null;
        }
        ByteBuffer tail = ByteBuffer.allocate(trailer).order(ByteOrder.LITTLE_ENDIAN);
        while (tail.hasRemaining()) {
            if (ch.read(tail, size - trailer + tail.position()) < 0) {
                return null;
            }
        }
        if (!Arrays.equals(tail.array(), 4, trailer, SnapshotFormat.END, 0, SnapshotFormat.END.length)) {
            return null;
        }
        int expected = tail.getInt(0);
        CRC32C crc = new CRC32C();
        ByteBuffer b = ByteBuffer.allocate(SnapshotFormat.BUFFER);
        for (long pos = 0; pos < size - trailer; ) {
            b.clear();
            b.limit((int) Math.min(b.capacity(), size - trailer - pos));
            int n = ch.read(b, pos);
            if (n < 0) {
                return null;
            }
            crc.update(b.array(), 0, n);
            pos += n;
        }
        int found = (int) crc.getValue();
        return expected == found ? null : checksumError(name, expected, found);
    }

    private static SnapshotException checksumError(String name, int expected, int found) {
        return new SnapshotException(String.format(Locale.ROOT,
                "Bad snapshot checksum in %s: expected %08x, found %08x", name, expected, found));
    }

    /**
     * Loads a snapshot that starts at {@code offset} of {@code ch} and may be followed by other
     * bytes (a log whose preamble is a snapshot). On return the channel is positioned just past
     * the snapshot, at {@link Result#endOffset()}. {@code name} names the file in error messages.
     */
    public static Result load(FileChannel ch, long offset, String name, Catalog target) throws IOException {
        return load(ch, offset, name, target, null);
    }

    static Result load(FileChannel ch, long offset, String name, Catalog target, LoadProgress progress) throws IOException {
        ch.position(offset);
        SnapshotReader r = new SnapshotReader(ch, name, offset, Math.max(0, ch.size() - offset), progress);
        Result result = r.read(target);
        ch.position(result.endOffset());
        return result;
    }

    /**
     * {@link #load(FileChannel, long, String, Catalog)} for a snapshot preamble: returns the offset
     * just past the snapshot, where the records that follow it start.
     */
    public static long load(FileChannel ch, long offset, Catalog target) throws IOException {
        return load(ch, offset, "at offset " + offset, target).endOffset();
    }

    /** Loads a snapshot from a stream of unknown length; trailing bytes after it may be read ahead. */
    public static Result load(ReadableByteChannel ch, String name, Catalog target) throws IOException {
        return new SnapshotReader(ch, name, 0, -1, null).read(target);
    }

    /** The capture time recorded in the header of the snapshot file {@code file}, or -1 when it has none. */
    public static long createdMillis(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(SnapshotFormat.MAGIC.length + 12).order(ByteOrder.LITTLE_ENDIAN);
            while (b.hasRemaining()) {
                if (ch.read(b, b.position()) < 0) {
                    return -1;
                }
            }
            if (!Arrays.equals(b.array(), 0, SnapshotFormat.MAGIC.length, SnapshotFormat.MAGIC, 0, SnapshotFormat.MAGIC.length)) {
                return -1;
            }
            return b.getLong(SnapshotFormat.MAGIC.length + 4);
        }
    }

    /** Whether the file starts with the snapshot magic (false when it is shorter). */
    public static boolean startsWithMagic(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return startsWithMagic(ch, 0);
        }
    }

    /** Whether the bytes at {@code offset} of {@code ch} are the snapshot magic; leaves the position alone. */
    public static boolean startsWithMagic(FileChannel ch, long offset) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(SnapshotFormat.MAGIC.length);
        while (b.hasRemaining()) {
            if (ch.read(b, offset + b.position()) < 0) {
                return false;
            }
        }
        return Arrays.equals(b.array(), SnapshotFormat.MAGIC);
    }

    // ---- reading ---------------------------------------------------------------------------

    /** Format version of the snapshot being read. */
    private int version;

    private Result read(Catalog target) throws IOException {
        byte[] magic = new byte[SnapshotFormat.MAGIC.length];
        need(magic.length);
        buf.get(magic);
        if (!Arrays.equals(magic, SnapshotFormat.MAGIC)) {
            throw new SnapshotException(name + " is not a RespSQL snapshot (bad magic at offset " + start + ")", false);
        }
        version = i32();
        if (version < SnapshotFormat.OLDEST_VERSION || version > SnapshotFormat.VERSION) {
            throw new SnapshotException("Snapshot " + name + " has format version " + version
                    + "; this server reads versions " + SnapshotFormat.OLDEST_VERSION + " to " + SnapshotFormat.VERSION, false);
        }
        i64(); // creation time
        int tableCount = i32();
        check(tableCount >= 0, "table count " + tableCount);
        List<Table> tables = new ArrayList<>();
        List<List<String>> indexNames = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<String> allIndexNames = new HashSet<>();
        long rows = 0;
        for (int i = 0; i < tableCount; i++) {
            List<String> ixNames = new ArrayList<>();
            Table t = table(ixNames);
            check(names.add(key(t.name())), "table " + t.name() + " appears twice");
            for (String ix : ixNames) {
                check(allIndexNames.add(key(ix)), "index name " + ix + " appears twice");
            }
            tables.add(t);
            indexNames.add(ixNames);
            rows += t.rowCount();
        }
        List<ViewDef> views = new ArrayList<>();
        if (version >= 2) {
            int viewCount = i32();
            check(viewCount >= 0, "view count " + viewCount);
            for (int i = 0; i < viewCount; i++) {
                String viewName = string();
                check(names.add(key(viewName)), "view " + viewName + " has the name of another table or view");
                int n = i32();
                check(n >= 0 && n <= SnapshotFormat.MAX_COLUMNS, "view column count " + n);
                List<String> cols = new ArrayList<>(n);
                for (int c = 0; c < n; c++) {
                    cols.add(string());
                }
                views.add(new ViewDef(viewName, cols, text()));
            }
        }
        List<PreparedDef> prepared = version >= 3 ? prepared() : List.of();
        List<io.respsql.storage.Sequence> sequences = new ArrayList<>();
        if (version >= 4) {
            sections(sequences);
        }
        crc.update(buf.array(), crcMark, buf.position() - crcMark);
        crcMark = buf.position();
        int expected = i32();
        int found = (int) crc.getValue();
        if (expected != found) {
            throw checksumError(name, expected, found);
        }
        byte[] end = new byte[SnapshotFormat.END.length];
        need(end.length);
        buf.get(end);
        check(Arrays.equals(end, SnapshotFormat.END), "no end marker after the checksum");

        for (ViewDef v : views) {
            if (target.nameTaken(v.name())) {
                throw new SnapshotException("Snapshot " + name + " holds view " + v.name() + ", whose name is taken");
            }
        }
        for (Table t : tables) {
            if (target.nameTaken(t.name())) {
                throw new SnapshotException("Snapshot " + name + " holds table " + t.name() + ", which already exists");
            }
            for (String ix : indexNames.get(tables.indexOf(t))) {
                if (target.indexOwner(ix) != null) {
                    throw new SnapshotException("Snapshot " + name + " holds index " + ix + ", which already exists");
                }
            }
        }
        for (int i = 0; i < tables.size(); i++) {
            Table t = tables.get(i);
            target.add(t);
            for (String ix : indexNames.get(i)) {
                target.registerIndex(ix, t);
            }
        }
        for (ViewDef v : views) {
            target.addView(v);
        }
        for (PreparedDef p : prepared) {
            target.putPrepared(p);
        }
        for (io.respsql.storage.Sequence q : sequences) {
            target.addSequence(q);
        }
        if (constraintsSection != null) {
            try {
                io.respsql.storage.TableConstraints.decode(constraintsSection, target);
            } catch (RuntimeException e) {
                throw corrupt("constraints section: " + e.getMessage());
            }
        }
        if (partitionsSection != null) {
            try {
                io.respsql.storage.Partitioning.decode(partitionsSection, target);
            } catch (RuntimeException e) {
                throw corrupt("partitions section: " + e.getMessage());
            }
        }
        return new Result(tables.size(), rows, prepared.size(), offset());
    }

    /** The prepared-statement section (version 3 on). */
    private List<PreparedDef> prepared() throws IOException {
        int count = i32();
        check(count >= 0, "prepared statement count " + count);
        List<PreparedDef> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < count; i++) {
            String preparedName = string();
            check(!preparedName.isEmpty() && seen.add(key(preparedName)), "prepared statement name '" + preparedName + "'");
            String text = text();
            int n = i32();
            check(n >= 0 && n <= text.length(), "prepared statement " + preparedName + " with " + n + " parameters");
            int[] marks = new int[n];
            List<PreparedDef.Param> params = new ArrayList<>(n);
            for (int k = 0; k < n; k++) {
                marks[k] = i32();
                need(1);
                byte code = buf.get();
                if (code == SnapshotFormat.UNTYPED) {
                    params.add(new PreparedDef.Param(null, null));
                } else {
                    ColumnType type = SnapshotFormat.type(code, version);
                    check(type != null, "unknown parameter type code " + code + " in prepared statement " + preparedName);
                    params.add(new PreparedDef.Param(type, string()));
                }
            }
            try {
                out.add(new PreparedDef(preparedName, text, marks, params));
            } catch (IllegalArgumentException e) {
                throw corrupt("prepared statement " + preparedName + ": " + e.getMessage());
            }
        }
        return out;
    }

    private Table table(List<String> indexNames) throws IOException {
        String tableName = string();
        int columnCount = i32();
        check(columnCount > 0 && columnCount <= SnapshotFormat.MAX_COLUMNS, "column count " + columnCount);
        List<ColumnSpec> specs = new ArrayList<>(columnCount);
        List<ColumnType> types = new ArrayList<>(columnCount);
        Set<String> columnNames = new HashSet<>();
        for (int c = 0; c < columnCount; c++) {
            String columnName = string();
            check(columnNames.add(key(columnName)), "column " + columnName + " appears twice in " + tableName);
            need(1);
            byte code = buf.get();
            ColumnType type = SnapshotFormat.type(code, version);
            check(type != null, "unknown column type code " + code);
            types.add(type);
            boolean notNull = false;
            String defaultText = null;
            int typeModifier = -1;
            if (version >= 2) {
                need(1);
                byte flags = buf.get();
                int known = SnapshotFormat.FLAG_NOT_NULL | SnapshotFormat.FLAG_DEFAULT
                        | (version >= 4 ? SnapshotFormat.FLAG_TYPE_MODIFIER | SnapshotFormat.FLAG_IDENTITY : 0);
                check((flags & ~known) == 0, "column flags " + flags);
                notNull = (flags & SnapshotFormat.FLAG_NOT_NULL) != 0;
                if ((flags & SnapshotFormat.FLAG_TYPE_MODIFIER) != 0) {
                    typeModifier = i32();
                    check(typeModifier >= 0, "type modifier " + typeModifier + " of column " + columnName);
                }
                if ((flags & SnapshotFormat.FLAG_DEFAULT) != 0) {
                    defaultText = text();
                }
            }
            if (type.isDecimal()) {
                type = ColumnType.numeric(typeModifier);
                types.set(types.size() - 1, type);
            }
            if (type.isArray()) { // arrays: the element's OID says which
                type = ColumnType.arrayOfElementOid(typeModifier);
                check(type != null, "array element type " + typeModifier + " of column " + columnName);
                types.set(types.size() - 1, type);
                typeModifier = -1;
            }
            specs.add(new ColumnSpec(columnName, type, notNull, defaultText, typeModifier));
        }
        int pk = i32();
        check((pk >= 0 || (pk == -1 && version >= 2)) && pk < columnCount, "primary key position " + pk);
        Table t = new Table(tableName, specs, pk);
        int indexCount = i32();
        check(indexCount >= 0 && indexCount <= SnapshotFormat.MAX_COLUMNS, "index count " + indexCount);
        int[][] indexColumns = new int[indexCount][];
        boolean[] indexUnique = new boolean[indexCount];
        boolean[][] indexDescending = new boolean[indexCount][];
        for (int i = 0; i < indexCount; i++) {
            indexNames.add(string());
            int n = 1;
            if (version >= 2) {
                need(1);
                indexUnique[i] = buf.get() != 0;
                n = i32();
                check(n > 0 && n <= columnCount, "index of " + n + " columns");
            }
            indexColumns[i] = new int[n];
            indexDescending[i] = new boolean[n];
            for (int k = 0; k < n; k++) {
                indexColumns[i][k] = i32();
                check(indexColumns[i][k] >= 0 && indexColumns[i][k] < columnCount, "index column " + indexColumns[i][k]);
                if (version >= 2) {
                    need(1);
                    indexDescending[i][k] = buf.get() != 0;
                }
            }
        }

        int highWater = i32();
        check(highWater >= 0, "high-water mark " + highWater);
        long liveCount = i64();
        int words = (highWater + 63) >>> 6;
        long fixed = 8L * words + 4;
        for (ColumnType type : types) {
            fixed += (long) highWater * (type.storedAs() == ColumnType.TEXT ? 4 : type.storedWidth());
        }
        enough(fixed); // before allocating for a slot count a corrupt file may have invented
        long[] live = new long[words];
        for (int w = 0; w < words; w++) {
            live[w] = i64();
        }
        int freeCount = i32();
        check(freeCount >= 0 && freeCount <= highWater, "free list of " + freeCount + " slots");
        enough(4L * freeCount);
        int[] free = new int[freeCount];
        for (int i = 0; i < freeCount; i++) {
            free[i] = i32();
        }
        try {
            t.restoreRows(highWater, live, free);
        } catch (IllegalArgumentException e) {
            throw corrupt("table " + tableName + ": " + e.getMessage());
        }
        check(t.rowCount() == liveCount, "table " + tableName + " has " + t.rowCount() + " live slots, header says " + liveCount);
        for (int c = 0; c < columnCount; c++) {
            values(t.column(c), highWater);
        }
        t.restoreIndexes();
        for (int i = 0; i < indexCount; i++) {
            List<Column> cols = new ArrayList<>(indexColumns[i].length);
            for (int position : indexColumns[i]) {
                cols.add(t.column(position));
            }
            t.createIndex(indexNames.get(i), cols, indexUnique[i], indexDescending[i]);
        }
        return t;
    }

    private void values(Column column, int highWater) throws IOException {
        long[] nullWords = null;
        if (version >= 2) {
            need(1);
            byte hasNulls = buf.get();
            check(hasNulls == 0 || hasNulls == 1, "null bitmap flag " + hasNulls);
            if (hasNulls == 1) {
                int words = (highWater + 63) >>> 6;
                enough(8L * words);
                nullWords = new long[words];
                for (int w = 0; w < words; w++) {
                    nullWords[w] = i64();
                }
                if ((highWater & 63) != 0 && words > 0) {
                    check((nullWords[words - 1] >>> (highWater & 63)) == 0, "NULL bits above the high-water mark in " + column.name());
                }
            }
        }
        slotValues(column, highWater);
        if (nullWords != null) {
            // after the values: a setter clears the NULL bit
            for (int w = 0; w < nullWords.length; w++) {
                for (long bits = nullWords[w]; bits != 0; bits &= bits - 1) {
                    column.setNull((w << 6) + Long.numberOfTrailingZeros(bits));
                }
            }
        }
    }

    private void slotValues(Column column, int highWater) throws IOException {
        switch (column.type().storedAs()) {
            case INT: {
                IntColumn c = (IntColumn) column;
                for (int row = 0; row < highWater; row++) {
                    need(4);
                    c.set(row, buf.getInt());
                }
                break;
            }
            case BIGINT: {
                LongColumn c = (LongColumn) column;
                for (int row = 0; row < highWater; row++) {
                    need(8);
                    c.set(row, buf.getLong());
                }
                break;
            }
            case FLOAT: {
                DoubleColumn c = (DoubleColumn) column;
                for (int row = 0; row < highWater; row++) {
                    need(8);
                    c.set(row, Double.longBitsToDouble(buf.getLong()));
                }
                break;
            }
            case TEXT: {
                TextColumn c = (TextColumn) column;
                for (int row = 0; row < highWater; row++) {
                    int len = i32();
                    check(len >= 0, "text length " + len);
                    if (len > 0) {
                        enough(len);
                        need(len);
                        c.restoreValue(row, buf.array(), buf.position(), len);
                        buf.position(buf.position() + len);
                    }
                }
                break;
            }
            default:
                throw new IllegalStateException(column.type().name());
        }
    }

    /** partition: version 4's "partitions" section, decoded once the tables are in the catalog. */
    private byte[] partitionsSection;

    /** Version 4's "constraints" section, decoded once the tables are in the catalog. */
    private byte[] constraintsSection;

    /** Version 4's sections: the sequences are read, a kind this reader does not know is skipped. */
    private void sections(List<io.respsql.storage.Sequence> sequences) throws IOException {
        int count = i32();
        check(count >= 0 && count <= 1 << 16, "section count " + count);
        for (int i = 0; i < count; i++) {
            String kind = string();
            int len = i32();
            check(len >= 0 && len <= SnapshotFormat.MAX_SECTION, "section " + kind + " length " + len);
            enough(len);
            need(len);
            ByteBuffer b = ByteBuffer.wrap(buf.array(), buf.position(), len).slice().order(ByteOrder.LITTLE_ENDIAN);
            buf.position(buf.position() + len);
            if (kind.equals(SnapshotFormat.SECTION_SEQUENCES)) {
                try {
                    readSequences(b, sequences);
                } catch (RuntimeException e) {
                    throw corrupt("sequences section: " + e);
                }
                check(!b.hasRemaining(), "sequences section has " + b.remaining() + " bytes too many");
            } else if (kind.equals(SnapshotFormat.SECTION_CONSTRAINTS)) {
                constraintsSection = new byte[len];
                b.get(constraintsSection);
            } else if (kind.equals(SnapshotFormat.SECTION_PARTITIONS)) { // partition
                partitionsSection = new byte[len];
                b.get(partitionsSection);
            }
        }
    }

    private void readSequences(ByteBuffer b, List<io.respsql.storage.Sequence> out) throws SnapshotException {
        int n = b.getInt();
        check(n >= 0, "sequence count " + n);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < n; i++) {
            io.respsql.storage.Sequence q = new io.respsql.storage.Sequence(sectionString(b));
            check(seen.add(key(q.name())), "sequence " + q.name() + " appears twice");
            q.bits = b.get();
            check(q.bits == 16 || q.bits == 32 || q.bits == 64, "sequence " + q.name() + " of " + q.bits + " bits");
            q.increment = b.getLong();
            q.min = b.getLong();
            q.max = b.getLong();
            q.start = b.getLong();
            q.cache = b.getLong();
            q.cycle = b.get() != 0;
            q.lastValue = b.getLong();
            q.isCalled = b.get() != 0;
            q.identity = b.get();
            if (b.get() != 0) {
                q.ownedTable = sectionString(b);
                q.ownedColumn = sectionString(b);
            }
            check(q.increment != 0 && q.min < q.max, // last_value may lie outside: ALTER may move a bound past it
                    "sequence " + q.name() + " options");
            out.add(q);
        }
    }

    private String sectionString(ByteBuffer b) throws SnapshotException {
        int len = b.getInt();
        check(len >= 0 && len <= b.remaining(), "string length " + len);
        String v = new String(b.array(), b.arrayOffset() + b.position(), len, StandardCharsets.UTF_8);
        b.position(b.position() + len);
        return v;
    }

    private static String key(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    private String string() throws IOException {
        return string(SnapshotFormat.MAX_NAME, "name");
    }

    /** A DEFAULT's or view's SQL text (longer than a name may be). */
    private String text() throws IOException {
        return string(SnapshotFormat.MAX_TEXT, "text");
    }

    private String string(int max, String what) throws IOException {
        int len = i32();
        check(len >= 0 && len <= max, what + " length " + len);
        enough(len);
        need(len);
        String s = new String(buf.array(), buf.position(), len, StandardCharsets.UTF_8);
        buf.position(buf.position() + len);
        return s;
    }

    private int i32() throws IOException {
        need(4);
        return buf.getInt();
    }

    private long i64() throws IOException {
        need(8);
        return buf.getLong();
    }

    /** Absolute offset of the next unread byte. */
    private long offset() {
        return start + shifted + buf.position();
    }

    private void check(boolean ok, String what) throws SnapshotException {
        if (!ok) {
            throw corrupt(what);
        }
    }

    private SnapshotException corrupt(String what) {
        return new SnapshotException("Snapshot " + name + " is corrupt at offset " + offset() + ": " + what);
    }

    private SnapshotException truncated() {
        return new SnapshotException("Snapshot " + name + " is truncated at offset " + (start + shifted + buf.limit()));
    }

    /** Fails as truncated when the channel's known length cannot hold {@code n} more bytes. */
    private void enough(long n) throws SnapshotException {
        if (available >= 0 && offset() - start + n > available) {
            throw new SnapshotException("Snapshot " + name + " is truncated at offset " + (start + available));
        }
    }

    /** Makes {@code n} bytes readable in the buffer, reading more from the channel as needed. */
    private void need(int n) throws IOException {
        if (buf.remaining() >= n) {
            return;
        }
        crc.update(buf.array(), crcMark, buf.position() - crcMark);
        int consumed = buf.position();
        if (n > buf.capacity()) {
            ByteBuffer bigger = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
            bigger.put(buf);
            buf = bigger;
        } else {
            buf.compact();
        }
        shifted += consumed;
        crcMark = 0;
        // In write mode now: fill until n bytes are there.
        while (buf.position() < n) {
            int r = in.read(buf);
            if (r < 0) {
                buf.flip();
                throw truncated();
            }
        }
        buf.flip();
        progress.at(shifted + buf.limit(), available, shifted + buf.limit());
        if (loadProgress != null) {
            loadProgress.at(start + shifted + buf.limit());
        }
    }
}
