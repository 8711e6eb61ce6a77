package io.respsql.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.respsql.command.CommandArgs;
import io.respsql.config.ServerConfig;
import io.respsql.config.SplitArgs;

import java.util.List;

/**
 * Parses one connection's requests straight from the bytes read off the socket, as Redis's
 * {@code processMultibulkBuffer}/{@code processInlineBuffer} do: a RESP array of bulk strings, or an
 * inline command line.
 *
 * <p>Why not netty-codec-redis' {@code RedisDecoder}: it makes a header message, a slice and a content
 * message per argument and passes each through the pipeline, about 100 bytes of garbage per argument
 * (measured, bench/request-path/). Here each argument is copied into a buffer of its own that is reused
 * for the same argument position of every later request, so a request allocates nothing; the copy is
 * a few bytes for a command name or a statement word. The bytes of an unfinished request wait in a
 * per-connection query buffer; a complete request is parsed in place from the read buffer.
 *
 * <p>Use per read: {@link #begin}, then {@link #next()} until it returns false (each true is one
 * request in {@link #args()}, {@link #reset()} after serving it), then {@link #end()}. A false with
 * {@link #error()} set is a protocol error: reply it and close.
 */
final class RequestParser {
    /** Redis's PROTO_INLINE_MAX_SIZE: longest inline command, and longest header line. */
    static final int INLINE_MAX = 64 * 1024;
    /**
     * Argument buffers kept for the next request: the first {@code KEEP_ARGS} positions, each up to
     * {@code KEEP_ARG_BYTES}. Larger ones are dropped after their request, so what a connection holds
     * between requests stays under 256 KB whatever it once sent.
     */
    private static final int KEEP_ARGS = 64;
    private static final int KEEP_ARG_BYTES = 4 * 1024;

    private final CommandArgs args = new CommandArgs();
    private final int maxArgs;
    private final ServerConfig config;
    /** One reusable buffer per argument position. */
    private ByteBuf[] slots = new ByteBuf[16];
    /** Unparsed bytes of an unfinished request kept between reads (owned); null while there are none. */
    private ByteBuf qbuf;
    /** What {@link #next()} parses: the read buffer, or {@link #qbuf} when bytes were waiting. */
    private ByteBuf in;
    private ByteBuf msg;
    /** Arguments still expected by the array being read; meaningful while {@link #inArray}. */
    private int pending;
    private boolean inArray;
    /** Length of the bulk string being read, or -1 while its {@code $} header is awaited. */
    private long bulkLen = -1;
    /** Bytes of the arguments already complete in the unfinished request. */
    private long argBytes;
    private String error;
    private final boolean wholeArrays;

    RequestParser(int maxArgs, ServerConfig config) {
        this(maxArgs, config, true);
    }

    /** {@code wholeArrays} false: every array element by element (tests compare the two paths). */
    RequestParser(int maxArgs, ServerConfig config, boolean wholeArrays) {
        this.maxArgs = maxArgs;
        this.config = config;
        this.wholeArrays = wholeArrays;
    }

    /** The arguments of the request {@link #next()} just completed. */
    CommandArgs args() {
        return args;
    }

    /** The protocol error that stopped {@link #next()}, or null. */
    String error() {
        return error;
    }

    /** Whether an array header was read and its arguments are still coming. */
    boolean inArray() {
        return inArray;
    }

    /** Bytes held for the request not yet complete (its query buffer, in Redis's terms). */
    long bufferedBytes() {
        return argBytes + (qbuf == null ? 0 : qbuf.readableBytes());
    }

    /** Starts on the bytes of one read; the parser takes over {@code read} (releases it in {@link #end}). */
    void begin(ByteBuf read, ByteBufAllocator alloc) {
        releaseMirror();
        if (qbuf != null && qbuf.isReadable()) {
            qbuf.writeBytes(read);
            read.release();
            msg = null;
            in = qbuf;
        } else {
            msg = read;
            in = read;
        }
    }

    /**
     * Parses the next request. True: a request is in {@link #args()}. False: the bytes read so far
     * hold no complete request ({@link #error()} null) or are not RESP ({@link #error()} says why).
     */
    boolean next() {
        while (true) {
            if (!inArray) {
                if (!in.isReadable()) {
                    return false;
                }
                if (in.getByte(in.readerIndex()) != '*') {
                    int r = inline();
                    if (r <= 0) {
                        return false;
                    }
                    if (args.count() > 0) {
                        return true;
                    }
                    continue; // an empty line: nothing to run
                }
                int lf = lineEnd();
                if (lf < 0) {
                    if (in.readableBytes() > INLINE_MAX) {
                        error = "too big mbulk count string";
                    }
                    return false;
                }
                long n = number(in.readerIndex() + 1, lf);
                if (n == Long.MIN_VALUE || n < -1 || n > maxArgs) {
                    error = "invalid multibulk length";
                    return false;
                }
                in.readerIndex(lf + 1);
                if (n <= 0) {
                    continue; // *0 and *-1 are ignored, as Redis does
                }
                if (wholeArrays && wholeArray((int) n)) {
                    return true;
                }
                pending = (int) n;
                inArray = true;
                bulkLen = -1;
            }
            while (pending > 0) {
                if (bulkLen < 0) {
                    if (!in.isReadable()) {
                        return false;
                    }
                    byte b = in.getByte(in.readerIndex());
                    if (b != '$') {
                        error = "expected '$', got '" + (char) (b & 0xff) + "'";
                        return false;
                    }
                    int lf = lineEnd();
                    if (lf < 0) {
                        if (in.readableBytes() > INLINE_MAX) {
                            error = "too big bulk count string";
                        }
                        return false;
                    }
                    long len = number(in.readerIndex() + 1, lf);
                    // Refused at the header, before any of the content is buffered.
                    if (len < 0 || len > config.protoMaxBulkLen()) {
                        error = "invalid bulk length";
                        return false;
                    }
                    in.readerIndex(lf + 1);
                    bulkLen = len;
                }
                if (in.readableBytes() < bulkLen + 2) {
                    return false;
                }
                int len = (int) bulkLen;
                int end = in.readerIndex() + len;
                if (in.getByte(end) != '\r' || in.getByte(end + 1) != '\n') {
                    error = "expected CRLF after a bulk string of " + len + " bytes";
                    return false;
                }
                ByteBuf slot = slot(args.count(), len);
                in.readBytes(slot, len);
                in.skipBytes(2);
                args.add(slot);
                argBytes += len;
                bulkLen = -1;
                pending--;
            }
            inArray = false;
            return true;
        }
    }

    /**
     * The common case, a whole array of plain bulk strings already in the buffer (a pipeline's
     * requests): its {@code n} elements after the header are read in one pass, each length line
     * scanned once, with no per-element state. False, with nothing consumed and no argument kept,
     * when any element is not all here or not plainly formed (a sign, 10 or more digits, a bad
     * terminator, too long): the element-by-element path then reads the array and gives the
     * exact error. RequestParserTest compares the two over random splits of random input.
     */
    private boolean wholeArray(int n) {
        int p = in.readerIndex();
        byte[] m = mirror(p);
        if (m == null) {
            return false;
        }
        // Read from the plain copy: a ByteBuf's getByte checks bounds and liveness on every byte.
        int base = mirrorFrom;
        int i0 = p - base;
        int w = mirrorTo - base;
        int q = i0;
        long max = config.protoMaxBulkLen();
        for (int i = 0; i < n; i++) {
            if (w - q < 4 || m[q] != '$') {
                return abandon();
            }
            q++;
            int len = 0;
            int digits = 0;
            int c;
            while (q < w && (c = m[q] - '0') >= 0 && c <= 9) {
                len = len * 10 + c;
                q++;
                if (++digits > 9) {
                    return abandon(); // (int) would overflow; the general path refuses or reads it
                }
            }
            if (digits == 0 || w - q < 2 || m[q] != '\r' || m[q + 1] != '\n' || len > max) {
                return abandon();
            }
            q += 2;
            if (w - q < len + 2 || m[q + len] != '\r' || m[q + len + 1] != '\n') {
                return abandon();
            }
            ByteBuf slot = slot(args.count(), len);
            slot.writeBytes(m, q, len);
            args.add(slot);
            argBytes += len;
            q += len + 2;
        }
        in.readerIndex(base + q);
        return true;
    }

    /** Longest stretch of a read mirrored into a plain array; a longer request is read from the buffer. */
    private static final int MIRROR_MAX = 16 * 1024;

    /** The mirror array of one thread, and the parser whose bytes it holds now. */
    private static final class Mirror {
        final byte[] bytes = new byte[MIRROR_MAX];
        RequestParser owner;
    }

    /** One mirror per event-loop thread: a read is parsed on one thread, start to end. */
    private static final ThreadLocal<Mirror> MIRRORS = ThreadLocal.withInitial(Mirror::new);
    /** This thread's mirror once this read asked for it (null before), holding {@link #in}'s bytes [mirrorFrom, mirrorTo). */
    private Mirror mirror;
    private int mirrorFrom;
    private int mirrorTo;

    /** Lets the thread's mirror go at the end of a read (so it keeps no closed connection's parser). */
    private void releaseMirror() {
        if (mirror != null) {
            if (mirror.owner == this) {
                mirror.owner = null;
            }
            mirror = null;
        }
    }

    /**
     * A plain copy of the read's bytes from {@code p} on (up to {@link #MIRROR_MAX}), copied again
     * only when less than half of it is left ahead of {@code p} ({@link #in} does not change until
     * {@link #end}); null when nothing is left. Another parser on this thread may have taken the
     * array meanwhile (a command serving one client cannot run another's requests, but the owner
     * check keeps that from ever mattering).
     */
    private byte[] mirror(int p) {
        Mirror mr = mirror;
        int w = in.writerIndex();
        if (mr == null || mr.owner != this || p < mirrorFrom
                || (mirrorTo - p < MIRROR_MAX / 2 && mirrorTo < w)) {
            int len = Math.min(w - p, MIRROR_MAX);
            if (len <= 0) {
                return null;
            }
            if (mr == null) {
                mr = MIRRORS.get();
                mirror = mr;
            }
            mr.owner = this;
            in.getBytes(p, mr.bytes, 0, len);
            mirrorFrom = p;
            mirrorTo = p + len;
        } else if (p >= mirrorTo) {
            return null;
        }
        return mr.bytes;
    }

    /** {@link #wholeArray} cannot take it: forgets the arguments it took (their buffers stay). */
    private boolean abandon() {
        args.clear();
        argBytes = 0;
        return false;
    }

    /** Forgets the request just served (its argument buffers stay for the next one). */
    void reset() {
        for (int i = 0; i < args.count(); i++) {
            if (i >= KEEP_ARGS || slots[i].capacity() > KEEP_ARG_BYTES) {
                slots[i] = null;
            }
        }
        if (slots.length > KEEP_ARGS) {
            slots = java.util.Arrays.copyOf(slots, KEEP_ARGS);
        }
        args.clear();
        argBytes = 0;
    }

    /** Ends the read: keeps what is left of it for the next read and releases it. */
    void end() {
        if (in == null) {
            return; // discarded during the read (QUIT, a kill, a protocol error): nothing is left to keep
        }
        if (in == qbuf) {
            if (!qbuf.isReadable()) {
                dropQueryBuffer(); // nothing waits: the next read is parsed in place again
            } else if (qbuf.readerIndex() > 0) {
                qbuf.discardReadBytes();
            }
        } else if (in != null) {
            if (in.isReadable()) {
                if (qbuf == null) {
                    qbuf = Unpooled.buffer(Math.max(256, in.readableBytes() * 2));
                }
                qbuf.writeBytes(in);
            }
            msg.release();
        }
        in = null;
        msg = null;
        releaseMirror();
    }

    /** Drops everything, a half-received request included (the connection is closing). */
    void discard() {
        if (msg != null) {
            msg.release();
            msg = null;
        }
        in = null;
        releaseMirror();
        args.clear();
        argBytes = 0;
        inArray = false;
        pending = 0;
        bulkLen = -1;
        dropQueryBuffer();
    }

    private void dropQueryBuffer() {
        if (qbuf != null) {
            qbuf.release();
            qbuf = null;
        }
    }

    /** The reusable buffer of argument position {@code i}, empty, with room for {@code len} bytes. */
    private ByteBuf slot(int i, int len) {
        if (i == slots.length) {
            slots = java.util.Arrays.copyOf(slots, i * 2);
        }
        ByteBuf s = slots[i];
        if (s == null) {
            s = Unpooled.buffer(Math.max(32, len));
            slots[i] = s;
        }
        s.clear();
        s.ensureWritable(len);
        return s;
    }

    /**
     * An inline command: one line, words split as Redis splits them. Returns 1 when a line was
     * taken (its words, possibly none, are in {@link #args()}), 0 when the line is not complete yet,
     * -1 on a protocol error.
     */
    private int inline() {
        int start = in.readerIndex();
        int lf = in.indexOf(start, in.writerIndex(), (byte) '\n');
        if (lf < 0) {
            if (in.readableBytes() > INLINE_MAX) {
                error = "too big inline request";
                return -1;
            }
            return 0;
        }
        int end = lf > start && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
        if (end - start > INLINE_MAX) {
            error = "too big inline request";
            return -1;
        }
        byte[] line = new byte[end - start]; // inline commands are for people typing: not a hot path
        in.getBytes(start, line);
        in.readerIndex(lf + 1);
        List<byte[]> words = SplitArgs.split(line);
        if (words == null) {
            error = "unbalanced quotes in request";
            return -1;
        }
        for (byte[] w : words) {
            ByteBuf slot = slot(args.count(), w.length);
            slot.writeBytes(w);
            args.add(slot);
        }
        return 1;
    }

    /** Index of the LF ending the header line at the reader index, or -1 if it has not arrived. */
    private int lineEnd() {
        return in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
    }

    /**
     * The decimal number in [{@code from}, {@code lf}) less a CR before {@code lf}, as Redis's
     * {@code string2ll}: optional {@code -}, digits, no blanks or {@code +}; Long.MIN_VALUE if it is not one.
     */
    private long number(int from, int lf) {
        if (lf == from || in.getByte(lf - 1) != '\r') {
            return Long.MIN_VALUE;
        }
        int end = lf - 1;
        int p = from;
        boolean neg = false;
        if (p < end && in.getByte(p) == '-') {
            neg = true;
            p++;
        }
        if (p == end || end - p > 18) {
            return Long.MIN_VALUE;
        }
        long v = 0;
        for (; p < end; p++) {
            int d = in.getByte(p) - '0';
            if (d < 0 || d > 9) {
                return Long.MIN_VALUE;
            }
            v = v * 10 + d;
        }
        return neg ? -v : v;
    }
}
