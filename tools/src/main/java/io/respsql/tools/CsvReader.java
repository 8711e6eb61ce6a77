package io.respsql.tools;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads RFC 4180 records byte by byte: fields split by a one-byte delimiter, a field in double
 * quotes may hold delimiters, newlines and doubled quotes ({@code ""}); records end at LF, CRLF or
 * CR. Works on bytes, not chars: the delimiter and quote are ASCII and no byte of a multi-byte UTF-8
 * sequence is ASCII, so text passes through untouched (its UTF-8 is checked where it is typed).
 * A record's fields are slices of one reused buffer, so reading allocates nothing per row.
 */
final class CsvReader {
    static final class CsvException extends Exception {
        final long line;

        CsvException(long line, String message) {
            super(message);
            this.line = line;
        }
    }

    private static final byte QUOTE = '"';

    private final InputStream in;
    private final byte delimiter;
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private int lim;
    private boolean eof;

    /** The current record: field i is rec[start[i], end[i]), quoted[i] when it was in quotes. */
    byte[] rec = new byte[256];
    int[] start = new int[16];
    int[] end = new int[16];
    boolean[] quoted = new boolean[16];
    int fields;
    /** The 1-based line the current record starts on. */
    long recordLine;
    /** Lines read so far (the next record starts on line + 1). */
    private long line;
    /** Bytes consumed from the input, up to the end of the current record. */
    long bytes;

    CsvReader(InputStream in, byte delimiter) {
        this.in = in;
        this.delimiter = delimiter;
    }

    /** Reads the next record; false at the end of the input. */
    boolean next() throws IOException, CsvException {
        if (line == 0 && bytes == 0 && fill() && lim >= 3 && (buf[0] & 0xFF) == 0xEF && (buf[1] & 0xFF) == 0xBB
                && (buf[2] & 0xFF) == 0xBF) {
            pos = 3; // a UTF-8 byte order mark at the start is not data
            bytes = 3;
        }
        int b = read();
        if (b < 0) {
            return false;
        }
        recordLine = ++line;
        fields = 0;
        int n = 0;
        while (true) {
            // one field, starting at b
            ensureField();
            start[fields] = n;
            boolean q = false;
            if (b == QUOTE) {
                q = true;
                long opened = line;
                while (true) {
                    b = read();
                    if (b < 0) {
                        throw new CsvException(opened, "field " + (fields + 1) + ": quoted field not closed before the end of the file (it opens on line " + opened + ")");
                    }
                    if (b == QUOTE) {
                        b = read();
                        if (b != QUOTE) {
                            break; // the closing quote; b is what follows it
                        }
                    } else if (b == '\n') {
                        line++;
                    } else if (b == '\r') {
                        int c = peek();
                        if (c != '\n') {
                            line++;
                        }
                    }
                    if (n == rec.length) {
                        rec = Arrays.copyOf(rec, n * 2);
                    }
                    rec[n++] = (byte) b;
                }
                if (b >= 0 && b != delimiter && b != '\n' && b != '\r') {
                    throw new CsvException(line, "field " + (fields + 1) + ": '" + (char) b + "' after a closing quote (a quote inside a quoted field is written \"\")");
                }
            } else {
                while (b >= 0 && b != delimiter && b != '\n' && b != '\r') {
                    if (b == QUOTE) {
                        throw new CsvException(line, "field " + (fields + 1) + ": a quote inside an unquoted field (quote the whole field and double the quote)");
                    }
                    if (n == rec.length) {
                        rec = Arrays.copyOf(rec, n * 2);
                    }
                    rec[n++] = (byte) b;
                    // the rest of the field straight from the buffer: the hot loop of a load
                    int p = pos;
                    int l = lim;
                    byte[] bb = buf;
                    byte dl = delimiter;
                    while (p < l) {
                        byte c = bb[p];
                        if (c == dl || c == '\n' || c == '\r' || c == QUOTE) {
                            break;
                        }
                        p++;
                    }
                    int run = p - pos;
                    if (run > 0) {
                        if (n + run > rec.length) {
                            rec = Arrays.copyOf(rec, Math.max(rec.length * 2, n + run));
                        }
                        System.arraycopy(bb, pos, rec, n, run);
                        n += run;
                        bytes += run;
                        pos = p;
                    }
                    b = read();
                }
            }
            end[fields] = n;
            quoted[fields] = q;
            fields++;
            if (b == delimiter) {
                b = read();
                continue;
            }
            if (b == '\r' && peek() == '\n') {
                read();
            }
            return true; // LF, CR, CRLF or the end of the input ends the record
        }
    }

    private void ensureField() {
        if (fields == start.length) {
            start = Arrays.copyOf(start, fields * 2);
            end = Arrays.copyOf(end, fields * 2);
            quoted = Arrays.copyOf(quoted, fields * 2);
        }
    }

    private int read() throws IOException {
        if (pos == lim && !fill()) {
            return -1;
        }
        bytes++;
        return buf[pos++] & 0xFF;
    }

    private int peek() throws IOException {
        if (pos == lim && !fill()) {
            return -1;
        }
        return buf[pos] & 0xFF;
    }

    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        int r = in.read(buf, 0, buf.length);
        if (r <= 0) {
            eof = true;
            return false;
        }
        pos = 0;
        lim = r;
        return true;
    }

    /** The line the current record ends on (a quoted newline makes a record span lines). */
    long lineEnd() {
        return line;
    }

    /** Field i as text (for headers and messages). */
    String text(int i) {
        return new String(rec, start[i], end[i] - start[i], java.nio.charset.StandardCharsets.UTF_8);
    }
}
