package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/**
 * PostgreSQL text functions of the regress25 branch: {@code unistr(text)} (Unicode escapes
 * {@code \XXXX}, {@code \+XXXXXX}, backslash-u XXXX, backslash-U XXXXXXXX, {@code \\}) and
 * {@code to_hex(integer)} (two's complement hex digits of an int4 or int8, as PostgreSQL prints
 * them). Both write into the node's own buffer: nothing allocated per row.
 */
final class Regress25Functions {
    private Regress25Functions() {
    }

    /** UNISTR(s): the text with its Unicode escapes resolved; a bad escape is 42601, as PostgreSQL's. */
    static final class Unistr extends StringFunctions.OfOneText {
        Unistr(Expression s) {
            super("UNISTR", s);
        }

        @Override
        void write(byte[] a, int off, int len) {
            int end = off + len;
            int i = off;
            while (i < end) {
                byte b = a[i];
                if (b != '\\') {
                    buf.put(b);
                    i++;
                    continue;
                }
                if (i + 1 < end && a[i + 1] == '\\') {
                    buf.put((byte) '\\');
                    i += 2;
                    continue;
                }
                int digits;
                int at;
                if (i + 1 < end && a[i + 1] == '+') {
                    digits = 6;
                    at = i + 2;
                } else if (i + 1 < end && a[i + 1] == 'u') {
                    digits = 4;
                    at = i + 2;
                } else if (i + 1 < end && a[i + 1] == 'U') {
                    digits = 8;
                    at = i + 2;
                } else {
                    digits = 4;
                    at = i + 1;
                }
                int cp = hex(a, at, digits, end);
                i = at + digits;
                if (cp >= 0xD800 && cp <= 0xDBFF) { // a high surrogate: its low one must follow
                    int low = -1;
                    if (i + 1 < end && a[i] == '\\') {
                        int d2 = a[i + 1] == '+' ? 6 : a[i + 1] == 'u' ? 4 : a[i + 1] == 'U' ? 8 : 4;
                        int at2 = a[i + 1] == '+' || a[i + 1] == 'u' || a[i + 1] == 'U' ? i + 2 : i + 1;
                        low = hex(a, at2, d2, end);
                        i = at2 + d2;
                    }
                    if (low < 0xDC00 || low > 0xDFFF) {
                        throw new SqlException(SqlState.SYNTAX_ERROR, "invalid Unicode surrogate pair");
                    }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    throw new SqlException(SqlState.SYNTAX_ERROR, "invalid Unicode surrogate pair");
                }
                if (cp == 0 || cp > 0x10FFFF) {
                    throw new SqlException(SqlState.SYNTAX_ERROR, "invalid Unicode code point: " + Integer.toHexString(cp).toUpperCase());
                }
                utf8(cp);
            }
        }

        private static int hex(byte[] a, int at, int digits, int end) {
            if (at + digits > end) {
                throw invalid();
            }
            long v = 0;
            for (int k = at; k < at + digits; k++) {
                int d = Character.digit(a[k], 16);
                if (d < 0) {
                    throw invalid();
                }
                v = v * 16 + d;
            }
            if (v > 0x10FFFF) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid Unicode code point: " + Long.toHexString(v).toUpperCase());
            }
            return (int) v;
        }

        private static SqlException invalid() {
            return new SqlException(SqlState.SYNTAX_ERROR,
                    "invalid Unicode escape (Unicode escapes must be \\XXXX, \\+XXXXXX, \\uXXXX, or \\UXXXXXXXX)");
        }

        private void utf8(int c) {
            if (c < 0x80) {
                buf.put((byte) c);
            } else if (c < 0x800) {
                buf.put((byte) (0xC0 | c >> 6));
                buf.put((byte) (0x80 | c & 0x3F));
            } else if (c < 0x10000) {
                buf.put((byte) (0xE0 | c >> 12));
                buf.put((byte) (0x80 | c >> 6 & 0x3F));
                buf.put((byte) (0x80 | c & 0x3F));
            } else {
                buf.put((byte) (0xF0 | c >> 18));
                buf.put((byte) (0x80 | c >> 12 & 0x3F));
                buf.put((byte) (0x80 | c >> 6 & 0x3F));
                buf.put((byte) (0x80 | c & 0x3F));
            }
        }
    }

    /** TO_HEX(n): n's hex digits, a negative int4 as its 32-bit two's complement, a negative int8 as 64-bit. */
    static final class ToHex extends StringFunctions.Fn {
        private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        private final boolean wide;

        ToHex(Expression n) {
            super(SqlType.TEXT, "TO_HEX", n);
            this.wide = n.type() == SqlType.BIGINT;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long v = integer(args[0], ctx);
            if (ctx.isNull) {
                return nullText(ctx);
            }
            if (!wide) {
                v &= 0xFFFF_FFFFL;
            }
            buf.reset();
            int shift = 60;
            while (shift > 0 && (v >>> shift & 0xF) == 0) {
                shift -= 4;
            }
            for (; shift >= 0; shift -= 4) {
                buf.put(HEX[(int) (v >>> shift & 0xF)]);
            }
            return buf.result(ctx);
        }
    }
}
