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
    private String problem;

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
        if (count == 2 && name.equalsIgnoreCase("SQL")) {
            sql = new String(args[1], StandardCharsets.UTF_8);
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
