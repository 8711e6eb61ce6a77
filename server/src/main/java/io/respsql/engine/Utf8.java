package io.respsql.engine;

/**
 * Strict UTF-8 validation of statement text, as PostgreSQL's {@code pg_utf8_islegal}: no overlong
 * forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF, no truncated sequence. A statement
 * with invalid bytes is refused whole ({@link #error}), never decoded to U+FFFD and stored.
 * Callers run it only after an ASCII check failed, so pure-ASCII statements never get here.
 */
public final class Utf8 {
    private Utf8() {
    }

    /** Index of the first byte of {@code b[from, to)} that starts an invalid sequence, or -1 when all is valid. */
    public static int invalidAt(byte[] b, int from, int to) {
        int i = from;
        while (i < to) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                i++;
                continue;
            }
            int n = legalLength(b, i, to);
            if (n < 0) {
                return i;
            }
            i += n;
        }
        return -1;
    }

    /** Length of the legal multi-byte sequence at {@code b[i]} (lead byte >= 0x80), or -1. */
    private static int legalLength(byte[] b, int i, int to) {
        int c = b[i] & 0xff;
        int n;
        int lo = 0x80;
        int hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) {
            n = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 3;
            if (c == 0xe0) {
                lo = 0xa0; // overlong
            } else if (c == 0xed) {
                hi = 0x9f; // surrogates
            }
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 4;
            if (c == 0xf0) {
                lo = 0x90; // overlong
            } else if (c == 0xf4) {
                hi = 0x8f; // above U+10FFFF
            }
        } else {
            return -1; // a continuation byte, C0/C1 (overlong) or F5..FF
        }
        if (i + n > to) {
            return -1;
        }
        int c1 = b[i + 1] & 0xff;
        if (c1 < lo || c1 > hi) {
            return -1;
        }
        for (int k = 2; k < n; k++) {
            int ck = b[i + k] & 0xff;
            if (ck < 0x80 || ck > 0xbf) {
                return -1;
            }
        }
        return n;
    }

    /**
     * PostgreSQL's message for the invalid sequence at {@code b[at]} (its bytes as far as the lead
     * byte says the character reaches, within {@code to}), with {@code offset} the position in the
     * statement the client sent: {@code invalid byte sequence for encoding "UTF8": 0xc3 0x28 at offset 12}.
     */
    public static String error(byte[] b, int at, int to, long offset) {
        int c = b[at] & 0xff;
        // pg_utf_mblen: how many bytes PostgreSQL shows
        int len = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 1;
        StringBuilder sb = new StringBuilder("invalid byte sequence for encoding \"UTF8\":");
        for (int k = 0; k < len && at + k < to; k++) {
            sb.append(String.format(" 0x%02x", b[at + k] & 0xff));
        }
        return sb.append(" at offset ").append(offset).toString();
    }
}
