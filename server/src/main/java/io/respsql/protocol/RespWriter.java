package io.respsql.protocol;

import io.respsql.result.FloatText;
import io.respsql.result.ReplyAbortedException;
import io.respsql.result.ShortestDouble;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

import static io.respsql.result.LongText.formatLong;

/**
 * Encodes replies straight into a Netty {@link ByteBuf}, in RESP2 or RESP3.
 *
 * <p>The wire form is chosen here and nowhere else, as in Redis's networking.c: commands call
 * {@link #mapHeader}, {@link #setHeader}, {@link #doubleValue}, {@link #bool}, {@link #verbatim},
 * {@link #nullBulk}, {@link #nullArray}, {@link #pushHeader}, and the writer emits the RESP3 type
 * when the connection being served said {@code HELLO 3} ({@link #protocol(int)}), else the RESP2
 * form Redis falls back to (a map becomes a flat array of 2n elements, a set an array, a double a
 * bulk string, a boolean the integer 1 or 0, a verbatim string a bulk string, a null {@code $-1}
 * or {@code *-1}).
 *
 * <p>Why not netty-codec-redis' message objects: a SELECT reply has one bulk string per row, and
 * building a message object (plus a String) per row would allocate on the hottest reply path.
 * Instead rows are assembled in a reusable scratch array ({@link #beginRow()} ... {@link #endRow()})
 * and copied once into the output buffer with their length prefix.
 *
 * <p>One instance belongs to the event-loop thread; {@link #target(ByteBuf, Sink)} points it at the
 * buffer of the connection being served.
 *
 * <p>Large replies are streamed: once the buffer holds {@link #CHUNK_BYTES} at the end of a row or
 * bulk string, it is handed to the {@link Sink}, which sends it and gives a fresh buffer, so a
 * million-row SELECT never exists as one buffer. Once a chunk has left, a reply can no longer be
 * taken back: {@link #discardReply} then marks the reply broken and the connection must close.
 */
public final class RespWriter {
    /** A reply is handed over in pieces of about this size. */
    public static final int CHUNK_BYTES = 64 * 1024;

    /** Where full chunks go: the connection being served. */
    public interface Sink {
        /**
         * Sends {@code w.target()} and points {@code w} at a new buffer.
         *
         * @throws ReplyAbortedException when the client may not be sent more (output limit)
         */
        void handOver(RespWriter w);
    }

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] NULL_BULK = "$-1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_ARRAY = "*-1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OK = "+OK\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMPTY_ARRAY = "*0\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_RESP3 = "_\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE_RESP3 = "#t\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE_RESP3 = "#f\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ONE = ":1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ZERO = ":0\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TXT = "txt:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INF = "inf".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NEG_INF = "-inf".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NAN = "nan".getBytes(StandardCharsets.US_ASCII);

    private ByteBuf out;
    private Sink sink;
    private Runnable leaving;
    /** Whether the connection being served speaks RESP3 (HELLO 3); RESP2 otherwise. */
    private boolean resp3;
    /** Chunks handed over since this writer was made; a reply that spans a change cannot be undone. */
    private long chunks;
    private boolean broken;
    /** Row under construction: column values joined by commas. */
    private byte[] row = new byte[256];
    private int rowLen;
    private boolean rowHasValue;
    private final byte[] digits = new byte[20];
    /** Digits of a bulk(long) value: kept apart from {@link #digits}, which the length prefix reuses. */
    private final byte[] valueDigits = new byte[20];
    /** Where the last error reply began ({@link #mark}; -1: none since) and its text, for {@link #errorAt}. */
    private long errorMark = -1;
    private String lastError;
    /** Text of a double ({@link ShortestDouble#plain}). */
    private final byte[] doubleDigits = new byte[32];

    /** Writes into {@code out}, never handing it over (tests, and replies known to be small). */
    public RespWriter target(ByteBuf out) {
        return target(out, null);
    }

    /**
     * Writes into {@code out}; full chunks go to {@code sink} (null: never). Keeps the chunk count.
     * Resets the protocol to RESP2: whoever points the writer at a connection's buffer says which
     * protocol that connection speaks ({@link #protocol(int)}), so one client's RESP3 never leaks
     * into another's reply.
     */
    public RespWriter target(ByteBuf out, Sink sink) {
        this.out = out;
        this.sink = sink;
        this.resp3 = false;
        this.errorMark = -1;
        return this;
    }

    /** Sets the protocol of the replies that follow: 3 for RESP3, anything else RESP2. */
    public RespWriter protocol(int version) {
        this.resp3 = version == 3;
        return this;
    }

    /** The protocol the writer is encoding for: 2 or 3. */
    public int protocol() {
        return resp3 ? 3 : 2;
    }

    /**
     * Stops handing chunks over until {@link #resumeStreaming}: the reply stays whole in the
     * buffer, so it can still be replaced (EXEC, whose reply must be all or nothing). Returns the
     * sink to give back to {@link #resumeStreaming}.
     */
    public Sink suspendStreaming() {
        Sink s = sink;
        sink = null;
        return s;
    }

    public void resumeStreaming(Sink s) {
        sink = s;
    }

    /** Points at a fresh buffer after a chunk was handed over (called by the {@link Sink}). */
    public void continueIn(ByteBuf next) {
        this.out = next;
    }

    /** Number of chunks handed over so far: compare before and after a reply to see whether it left. */
    public long chunks() {
        return chunks;
    }

    /** Where the next reply starts: capture before a command, give to {@link #discardReply}. */
    public long mark() {
        return (chunks << 32) | out.writerIndex();
    }

    /**
     * Drops the reply written since {@code mark}. Returns false when part of it has already been
     * handed over: then nothing more may be written and the connection must be closed
     * ({@link #takeBroken()}).
     */
    public boolean discardReply(long mark) {
        if (broken || (mark >>> 32) != chunks) {
            broken = true;
            return false;
        }
        if (errorMark >= mark) {
            errorMark = -1; // the error is taken back with the rest
        }
        out.writerIndex((int) mark);
        return true;
    }

    /** Whether the reply written since {@code mark} is empty (nothing written, nothing handed over). */
    public boolean nothingSince(long mark) {
        return (mark >>> 32) == chunks && out.writerIndex() == (int) mark;
    }

    /**
     * The text (without '-') of the error reply written at {@code mark}, when the reply written
     * since {@code mark} is that error and all of it is still here; null otherwise. The writer
     * remembers the error it was given (as Redis counts an error when it adds the reply), so
     * nobody reads reply bytes back to learn whether a command failed.
     */
    public String errorAt(long mark) {
        return errorMark == mark && (mark >>> 32) == chunks ? lastError : null;
    }

    /** Whether the last reply could not be completed; clears the flag. */
    public boolean takeBroken() {
        boolean b = broken;
        broken = false;
        return b;
    }

    public boolean broken() {
        return broken;
    }

    /** Marks the reply broken (its sending was aborted). */
    public void breakReply() {
        broken = true;
    }

    /**
     * Told just before a chunk of the reply leaves (the running statement's reply can no longer be
     * taken back, so its event-loop bound must no longer apply); null: none.
     */
    public void onReplyLeaving(Runnable r) {
        this.leaving = r;
    }

    private void maybeHandOver() {
        if (sink != null && out.writerIndex() >= CHUNK_BYTES && !broken) {
            if (leaving != null) {
                leaving.run();
            }
            chunks++;
            try {
                sink.handOver(this);
            } catch (ReplyAbortedException e) {
                broken = true;
                throw e;
            }
        }
    }

    /**
     * The end of one element of a larger reply (a typed row): hands the buffer over if it is
     * full, as the end of a bulk string does, so a reply of integers only streams as well.
     */
    public void endOfValue() {
        maybeHandOver();
    }

    public ByteBuf target() {
        return out;
    }

    public int writtenBytes() {
        return out.writerIndex();
    }

    // ---- whole replies -------------------------------------------------------------------

    public void ok() {
        out.writeBytes(OK);
    }

    public void simple(String s) {
        out.writeByte('+');
        writeSanitizedAscii(s);
        out.writeBytes(CRLF);
    }

    /** An error reply. {@code message} should start with an error code such as {@code ERR}. */
    public void error(String message) {
        errorMark = mark();
        lastError = message;
        out.writeByte('-');
        writeSanitizedAscii(message);
        out.writeBytes(CRLF);
    }

    public void integer(long v) {
        if (v >= 0 && v < SMALL_INTEGERS.length) {
            out.writeBytes(SMALL_INTEGERS[(int) v]); // one write, as Redis's shared.integers
            return;
        }
        out.writeByte(':');
        writeLongAscii(v);
        out.writeBytes(CRLF);
    }

    /** {@code :<n>\r\n} for the small counts most replies carry (an UPDATE's rows changed, a point's 1). */
    private static final byte[][] SMALL_INTEGERS = new byte[256][];

    static {
        for (int i = 0; i < SMALL_INTEGERS.length; i++) {
            SMALL_INTEGERS[i] = (":" + i + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
    }

    public void bulk(byte[] b) {
        bulk(b, 0, b.length);
    }

    public void bulk(byte[] b, int off, int len) {
        out.writeByte('$');
        writeLongAscii(len);
        out.writeBytes(CRLF);
        out.writeBytes(b, off, len);
        out.writeBytes(CRLF);
        maybeHandOver();
    }

    /** A bulk string with the readable bytes of {@code src} (indexes of {@code src} unchanged). */
    public void bulk(ByteBuf src) {
        int len = src.readableBytes();
        out.writeByte('$');
        writeLongAscii(len);
        out.writeBytes(CRLF);
        out.writeBytes(src, src.readerIndex(), len);
        out.writeBytes(CRLF);
        maybeHandOver();
    }

    public void bulk(String s) {
        bulk(s.getBytes(StandardCharsets.UTF_8));
    }

    public void bulk(long v) {
        int n = formatLong(v, valueDigits);
        bulk(valueDigits, valueDigits.length - n, n);
    }

    /** A null where Redis sends a null bulk string ({@code addReplyNull}): {@code $-1}, RESP3 {@code _}. */
    public void nullBulk() {
        out.writeBytes(resp3 ? NULL_RESP3 : NULL_BULK);
    }

    public void arrayHeader(long n) {
        if (n == 0) {
            out.writeBytes(EMPTY_ARRAY);
            return;
        }
        out.writeByte('*');
        writeLongAscii(n);
        out.writeBytes(CRLF);
    }

    /** A null where Redis sends a null array ({@code addReplyNullArray}): {@code *-1}, RESP3 {@code _}. */
    public void nullArray() {
        out.writeBytes(resp3 ? NULL_RESP3 : NULL_ARRAY);
    }

    /** A map of {@code n} key/value pairs follows: RESP3 {@code %n}, RESP2 an array of 2n elements. */
    public void mapHeader(long n) {
        if (resp3) {
            aggregateHeader('%', n);
        } else {
            arrayHeader(2 * n);
        }
    }

    /** A set of {@code n} elements follows: RESP3 {@code ~n}, RESP2 an array. */
    public void setHeader(long n) {
        if (resp3) {
            aggregateHeader('~', n);
        } else {
            arrayHeader(n);
        }
    }

    /**
     * An out-of-band push message of {@code n} elements follows (pub/sub messages, invalidations):
     * RESP3 {@code >n}, RESP2 an array, as Redis's {@code addReplyPushLen}.
     */
    public void pushHeader(long n) {
        if (resp3) {
            aggregateHeader('>', n);
        } else {
            arrayHeader(n);
        }
    }

    private void aggregateHeader(char type, long n) {
        out.writeByte(type);
        writeLongAscii(n);
        out.writeBytes(CRLF);
    }

    /** A boolean: RESP3 {@code #t}/{@code #f}, RESP2 the integer 1 or 0 (Redis's {@code addReplyBool}). */
    public void bool(boolean v) {
        if (resp3) {
            out.writeBytes(v ? TRUE_RESP3 : FALSE_RESP3);
        } else {
            out.writeBytes(v ? ONE : ZERO);
        }
    }

    /**
     * A double: RESP3 {@code ,<v>}, RESP2 a bulk string of the same text (Redis's
     * {@code addReplyDouble}). The text is {@link #doubleText}'s layout with the shortest
     * round-trip digits ({@link ShortestDouble}); infinities are {@code inf} and
     * {@code -inf}, NaN {@code nan}, as Redis writes them.
     */
    public void doubleValue(double v) {
        byte[] b;
        int off;
        int len;
        if (Double.isNaN(v)) {
            b = NAN;
            off = 0;
            len = b.length;
        } else if (Double.isInfinite(v)) {
            b = v > 0 ? INF : NEG_INF;
            off = 0;
            len = b.length;
        } else if (FloatText.isPlainIntegral(v)) {
            len = formatLong((long) v, valueDigits);
            b = valueDigits;
            off = valueDigits.length - len;
        } else {
            len = ShortestDouble.plain(v, doubleDigits);
            if (len > 0) {
                b = doubleDigits; // the common case, without allocating
            } else {
                b = ShortestDouble.text(v).getBytes(StandardCharsets.US_ASCII);
                len = b.length;
            }
            off = 0;
        }
        if (resp3) {
            out.writeByte(',');
            out.writeBytes(b, off, len);
            out.writeBytes(CRLF);
        } else {
            bulk(b, off, len);
        }
    }

    /**
     * Plain text meant for people (INFO, CLIENT LIST): RESP3 a verbatim string of format
     * {@code txt}, RESP2 a bulk string (Redis's {@code addReplyVerbatim}).
     */
    public void verbatim(byte[] b, int off, int len) {
        if (!resp3) {
            bulk(b, off, len);
            return;
        }
        out.writeByte('=');
        writeLongAscii(len + TXT.length);
        out.writeBytes(CRLF);
        out.writeBytes(TXT);
        out.writeBytes(b, off, len);
        out.writeBytes(CRLF);
        maybeHandOver();
    }

    public void verbatim(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        verbatim(b, 0, b.length);
    }

    // ---- one SELECT row as a bulk string of comma-separated values -------------------------

    public void beginRow() {
        rowLen = 0;
        rowHasValue = false;
    }

    public void rowLong(long v) {
        separator();
        ensureRow(20);
        int n = formatLong(v, digits);
        System.arraycopy(digits, digits.length - n, row, rowLen, n);
        rowLen += n;
    }

    public void rowDouble(double v) {
        separator();
        if (FloatText.isPlainIntegral(v)) {
            int n = formatLong((long) v, digits);
            ensureRow(n);
            System.arraycopy(digits, digits.length - n, row, rowLen, n);
            rowLen += n;
        } else {
            // ShortestDouble.plain answers for most stored decimals without allocating; where it
            // answers, its text equals Java 17's Double.toString (Rows2010Test checks it on 22M
            // values), so the 2010 replies stay byte-identical. Anything else: Double.toString.
            int n = ShortestDouble.plain(v, doubleDigits);
            if (n > 0) {
                ensureRow(n);
                System.arraycopy(doubleDigits, 0, row, rowLen, n);
                rowLen += n;
            } else {
                rowAscii(Double.toString(v));
            }
        }
    }

    /**
     * The one text form of a FLOAT everywhere (replies, EXPLAIN, DUMP): whole values without a
     * fraction ("5", not "5.0"), anything else in Java's round-trip form. -0.0 keeps its sign.
     */
    public static String doubleText(double v) {
        return FloatText.text(v);
    }

    public void rowBytes(byte[] b, int off, int len) {
        separator();
        ensureRow(len);
        System.arraycopy(b, off, row, rowLen, len);
        rowLen += len;
    }

    public void rowString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        rowBytes(b, 0, b.length);
    }

    public void endRow() {
        bulk(row, 0, rowLen);
    }

    private void rowAscii(String s) {
        int n = s.length();
        ensureRow(n);
        for (int i = 0; i < n; i++) {
            row[rowLen++] = (byte) s.charAt(i);
        }
    }

    private void separator() {
        if (rowHasValue) {
            ensureRow(1);
            row[rowLen++] = ',';
        }
        rowHasValue = true;
    }

    private void ensureRow(int extra) {
        if (rowLen + extra > row.length) {
            byte[] bigger = new byte[Math.max(row.length * 2, rowLen + extra)];
            System.arraycopy(row, 0, bigger, 0, rowLen);
            row = bigger;
        }
    }

    // ---- number formatting without allocation --------------------------------------------

    private void writeLongAscii(long v) {
        int n = formatLong(v, digits);
        out.writeBytes(digits, digits.length - n, n);
    }

    /** Status and error lines must not contain CR or LF, or the reply stream would break. */
    private void writeSanitizedAscii(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c == '\r' || c == '\n') {
                c = ' ';
            }
            if (c < 0x80) {
                out.writeByte(c);
            } else {
                out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
