package io.respsql.replication;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The last {@code repl-backlog-size} bytes of the replication stream, in a circular array, so a
 * replica that lost its link can be sent only what it missed ({@code +CONTINUE}). Offsets are
 * Redis's: the stream's first byte has offset 1, {@link #endOffset()} is the offset of the last
 * byte written (0 before any). Event loop only.
 */
final class Backlog {
    private byte[] buf;
    /** Offset of the last byte written. */
    private long end;
    /** Bytes held (at most buf.length). */
    private int histlen;

    Backlog(long size, long endOffset) {
        this.buf = new byte[(int) size];
        this.end = endOffset;
    }

    long endOffset() {
        return end;
    }

    int size() {
        return buf.length;
    }

    int histlen() {
        return histlen;
    }

    /** Offset of the oldest byte held ({@code end + 1} when empty). */
    long firstByteOffset() {
        return end - histlen + 1;
    }

    /** Forgets the history and restarts at {@code endOffset} (a full sync gave this server a new stream). */
    void reset(long endOffset) {
        this.end = endOffset;
        this.histlen = 0;
    }

    /** Appends {@code len} bytes of {@code src} starting at its index {@code from}. */
    void append(ByteBuf src, int from, int len) {
        int cap = buf.length;
        if (len >= cap) {
            src.getBytes(from + len - cap, buf, 0, cap);
            // the array now starts at the oldest byte kept: position it where end's successor maps
            rotateTo((int) ((end + len + 1) % cap));
            end += len;
            histlen = cap;
            return;
        }
        int at = (int) ((end + 1) % cap);
        int first = Math.min(len, cap - at);
        src.getBytes(from, buf, at, first);
        if (first < len) {
            src.getBytes(from + first, buf, 0, len - first);
        }
        end += len;
        histlen = (int) Math.min(cap, (long) histlen + len);
    }

    /** After a write of the whole array from index 0, moves the bytes so that index {@code start} holds the oldest. */
    private void rotateTo(int start) {
        if (start == 0) {
            return;
        }
        byte[] rotated = new byte[buf.length];
        System.arraycopy(buf, 0, rotated, start, buf.length - start);
        System.arraycopy(buf, buf.length - start, rotated, 0, start);
        buf = rotated;
    }

    /** Whether the bytes from {@code offset} to the end are held (offset {@code end + 1}: nothing is missing). */
    boolean holdsFrom(long offset) {
        return offset >= firstByteOffset() && offset <= end + 1;
    }

    /** A new buffer with the bytes from {@code offset} to the end; {@link #holdsFrom} must be true. */
    ByteBuf copyFrom(long offset) {
        int len = (int) (end - offset + 1);
        ByteBuf out = Unpooled.buffer(len);
        int cap = buf.length;
        int at = (int) (offset % cap);
        int first = Math.min(len, cap - at);
        out.writeBytes(buf, at, first);
        if (first < len) {
            out.writeBytes(buf, 0, len - first);
        }
        return out;
    }

    /** A backlog of {@code size} bytes holding as much of this one's recent history as fits. */
    Backlog resized(long size) {
        Backlog b = new Backlog(size, end - Math.min(histlen, size));
        long from = end - Math.min(histlen, size) + 1;
        if (from <= end) {
            ByteBuf tail = copyFrom(from);
            b.append(tail, tail.readerIndex(), tail.readableBytes());
            tail.release();
        }
        return b;
    }
}
