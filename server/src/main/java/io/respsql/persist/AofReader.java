package io.respsql.persist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;

/**
 * Reads the records of an append-only file one at a time and tells a clean end, a record cut
 * short by the end of the file (a crash in the middle of a write) and a malformed record apart.
 * Not thread-safe; used at startup and by {@link CheckAof}.
 */
final class AofReader {
    enum Kind { SQL, FLUSHALL, MULTI, EXEC, END, TRUNCATED, CORRUPT }

    /** Arguments longer than this are refused as corrupt rather than allocated. */
    private static final int MAX_ARG_BYTES = 512 << 20;

    private final FileChannel channel;
    private final long size;
    private final ByteBuffer window = ByteBuffer.allocate(1 << 20);
    /** File offset of window's position 0. */
    private long windowStart;
    private long recordStart;
    private String sql;
    private boolean postgres;
    private String problem;
    /** Set on the reader that checks a candidate record start: it must not scan for record starts itself. */
    private boolean checking;
    private AofReader checker;

    AofReader(FileChannel channel, long start, long size) {
        this.channel = channel;
        this.size = size;
        this.windowStart = start;
        window.limit(0);
    }

    /** Offset where the record last returned (or the damage) starts. */
    long recordStart() {
        return recordStart;
    }

    /** The statement of the last {@link Kind#SQL} record. */
    String sql() {
        return sql;
    }

    /** Whether the last {@link Kind#SQL} record is a {@code PGSQL} one: its statement runs in PostgreSQL's dialect. */
    boolean postgres() {
        return postgres;
    }

    /** What is wrong with a {@link Kind#CORRUPT} record. */
    String problem() {
        return problem;
    }

    /** Offset of the next byte to read. */
    long position() {
        return windowStart + window.position();
    }

    long size() {
        return size;
    }

    /** Reads the next record. */
    Kind next() throws IOException {
        recordStart = position();
        int b = read();
        if (b < 0) {
            return Kind.END;
        }
        if (b != '*') {
            return corrupt("expected '*', found " + show(b));
        }
        long count = number('*');
        if (count == -2) {
            return Kind.TRUNCATED;
        }
        if (count < 0) {
            return Kind.CORRUPT;
        }
        if (count != 1 && count != 2) {
            return corrupt("a record has 1 or 2 arguments, found " + count);
        }
        byte[][] args = new byte[(int) count][];
        for (int i = 0; i < count; i++) {
            int d = read();
            if (d < 0) {
                return Kind.TRUNCATED;
            }
            if (d != '$') {
                return corrupt("expected '$', found " + show(d) + " at offset " + (position() - 1));
            }
            long len = number('$');
            if (len == -2) {
                return Kind.TRUNCATED;
            }
            if (len < 0) {
                return Kind.CORRUPT;
            }
            if (len > MAX_ARG_BYTES) {
                return corrupt("argument of " + len + " bytes is too long");
            }
            long contentStart = position();
            if (len + 2 > size - contentStart) {
                // The file ends inside this argument. A crash in the middle of a write leaves only the
                // start of one record there; a record after it means the length itself is damaged, and
                // dropping the tail as cut short would silently drop the good records in it.
                long next = checking ? -1 : nextRecordStart(contentStart);
                if (next >= 0) {
                    return corrupt("argument of " + len + " bytes at offset " + contentStart
                            + " runs past the end of the file, but a record starts at offset " + next
                            + ": its length is damaged");
                }
                return Kind.TRUNCATED; // (checked before allocating: a damaged length may be huge)
            }
            byte[] arg = new byte[(int) len];
            if (!readFully(arg)) {
                return Kind.TRUNCATED;
            }
            int cr = read();
            int lf = cr < 0 ? -1 : read();
            if (cr < 0 || lf < 0) {
                return Kind.TRUNCATED;
            }
            if (cr != '\r' || lf != '\n') {
                return corrupt("argument not followed by CRLF at offset " + (position() - 2));
            }
            args[i] = arg;
        }
        String name = new String(args[0], StandardCharsets.UTF_8);
        if (count == 2 && (name.equalsIgnoreCase("SQL") || name.equalsIgnoreCase("PGSQL"))) {
            sql = new String(args[1], StandardCharsets.UTF_8);
            postgres = name.length() == 5;
            return Kind.SQL;
        }
        if (count == 1 && name.equalsIgnoreCase("FLUSHALL")) {
            return Kind.FLUSHALL;
        }
        if (count == 1 && name.equalsIgnoreCase("MULTI")) {
            return Kind.MULTI;
        }
        if (count == 1 && name.equalsIgnoreCase("EXEC")) {
            return Kind.EXEC;
        }
        return corrupt("unknown record '" + (name.length() > 32 ? name.substring(0, 32) + "..." : name)
                + "' with " + count + " argument(s)");
    }

    /**
     * Reads decimal digits up to CRLF after a type byte. Returns the number, -2 when the file
     * ends first, -1 (with {@link #problem} set) when a byte is not a digit or it is too long.
     */
    private long number(char type) throws IOException {
        long v = 0;
        int digits = 0;
        while (true) {
            int c = read();
            if (c < 0) {
                return -2;
            }
            if (c == '\r') {
                break;
            }
            if (c < '0' || c > '9' || digits == 10) {
                corrupt("bad length after '" + type + "': found " + show(c) + " at offset " + (position() - 1));
                return -1;
            }
            v = v * 10 + (c - '0');
            digits++;
        }
        int lf = read();
        if (lf < 0) {
            return -2;
        }
        if (lf != '\n' || digits == 0) {
            corrupt("bad length after '" + type + "' at offset " + (position() - 1));
            return -1;
        }
        return v;
    }

    /** What the writer puts at the start of a record (AofFormat), after the CRLF that ends the one before. */
    private static final byte[][] RECORD_STARTS = {
            "\r\n*2\r\n$3\r\nSQL\r\n$".getBytes(StandardCharsets.US_ASCII),
            "\r\n*2\r\n$5\r\nPGSQL\r\n$".getBytes(StandardCharsets.US_ASCII),
            "\r\n*1\r\n$8\r\nFLUSHALL\r\n".getBytes(StandardCharsets.US_ASCII),
            "\r\n*1\r\n$5\r\nMULTI\r\n".getBytes(StandardCharsets.US_ASCII),
            "\r\n*1\r\n$4\r\nEXEC\r\n".getBytes(StandardCharsets.US_ASCII),
    };

    /**
     * Offset of the first record start (after its preceding CRLF) at or after {@code from} from which
     * complete records run to the end of the file, or -1 when there is none. Bytes that only look like
     * a record start (a statement whose text holds RESP, in the torn record's own partial bytes) do not
     * count: the candidate must parse as records up to the end, or the tail is a write cut short.
     * Reads the file apart from the window; only used when a record runs past the end, so once per load at most.
     */
    private long nextRecordStart(long from) throws IOException {
        int longest = 0;
        for (byte[] p : RECORD_STARTS) {
            longest = Math.max(longest, p.length);
        }
        long tried = -1;
        ByteBuffer b = ByteBuffer.allocate(64 * 1024);
        for (long at = from; at < size; at += b.capacity() - longest) {
            b.clear();
            b.limit((int) Math.min(b.capacity(), size - at));
            while (b.hasRemaining()) {
                if (channel.read(b, at + b.position()) < 0) {
                    break;
                }
            }
            byte[] a = b.array();
            int n = b.position();
            for (int i = 0; i < n; i++) {
                if (a[i] != '\r') {
                    continue;
                }
                for (byte[] p : RECORD_STARTS) {
                    if (i + p.length <= n && java.util.Arrays.equals(a, i, i + p.length, p, 0, p.length)) {
                        long candidate = at + i + 2;
                        if (candidate > tried) { // the chunks overlap
                            tried = candidate;
                            if (recordsRunToEnd(candidate)) {
                                return candidate;
                            }
                        }
                        break;
                    }
                }
            }
            if (at + n >= size) {
                break;
            }
        }
        return -1;
    }

    /** Whether one or more complete, well-formed records run from {@code start} exactly to the end of the file. */
    private boolean recordsRunToEnd(long start) throws IOException {
        if (checker == null) {
            checker = new AofReader(channel, start, size);
            checker.checking = true;
        } else {
            checker.windowStart = start;
            checker.window.clear().limit(0);
        }
        int complete = 0;
        while (true) {
            switch (checker.next()) {
                case END:
                    return complete > 0;
                case TRUNCATED:
                case CORRUPT:
                    return false;
                default:
                    complete++;
            }
        }
    }

    private Kind corrupt(String what) {
        problem = what;
        return Kind.CORRUPT;
    }

    private int read() throws IOException {
        if (!window.hasRemaining() && !fill()) {
            return -1;
        }
        return window.get() & 0xff;
    }

    private boolean readFully(byte[] dst) throws IOException {
        int off = 0;
        while (off < dst.length) {
            if (!window.hasRemaining() && !fill()) {
                return false;
            }
            int n = Math.min(window.remaining(), dst.length - off);
            window.get(dst, off, n);
            off += n;
        }
        return true;
    }

    /** Moves the window to the next bytes of the file; false at the end. */
    private boolean fill() throws IOException {
        windowStart += window.position();
        window.clear();
        if (windowStart >= size) {
            window.limit(0);
            return false;
        }
        window.limit((int) Math.min(window.capacity(), size - windowStart));
        while (window.hasRemaining()) {
            int n = channel.read(window, windowStart + window.position());
            if (n < 0) {
                break;
            }
        }
        window.flip();
        return window.hasRemaining();
    }

    static String show(int b) {
        return b >= 0x21 && b < 0x7f ? "'" + (char) b + "'" : String.format("byte 0x%02x", b);
    }

    /** Whether the file starts with the snapshot magic (a preamble written by a rewrite). */
    static boolean startsWithSnapshot(FileChannel ch) throws IOException {
        if (ch.size() < AofFormat.SNAPSHOT_MAGIC.length) {
            return false;
        }
        ByteBuffer head = ByteBuffer.allocate(AofFormat.SNAPSHOT_MAGIC.length);
        while (head.hasRemaining() && ch.read(head, head.position()) >= 0) {
            // keep reading: a read may return fewer bytes
        }
        return java.util.Arrays.equals(head.array(), AofFormat.SNAPSHOT_MAGIC);
    }
}
