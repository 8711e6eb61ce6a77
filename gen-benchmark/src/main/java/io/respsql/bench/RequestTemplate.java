package io.respsql.bench;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One request, RESP-encoded once, with the positions of its key tokens. Tokens have a fixed
 * width of 12 digits, so every request has the same length and is produced by overwriting the
 * token digits in place: no per-request string building.
 *
 * <p>A key token is a run of exactly 12 ASCII digits that starts with {@code 0000} and directly
 * follows {@code (}, {@code ,}, {@code _} or {@code =} inside one word. The first token of a
 * request gets the request's number; the second and later ones get it modulo {@code -m}.
 */
public final class RequestTemplate {

    public static final int TOKEN_WIDTH = 12;

    private final byte[] bytes;
    private final int[] tokenOffsets;
    private final long[] tokenModuli;

    public RequestTemplate(List<String> words, long[] moduli) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<Integer> offsets = new ArrayList<>();
        writeAscii(out, "*" + words.size() + "\r\n");
        for (String w : words) {
            byte[] b = w.getBytes(StandardCharsets.UTF_8);
            writeAscii(out, "$" + b.length + "\r\n");
            int base = out.size();
            for (int p : findTokens(b)) {
                offsets.add(base + p);
            }
            out.write(b, 0, b.length);
            writeAscii(out, "\r\n");
        }
        this.bytes = out.toByteArray();
        this.tokenOffsets = offsets.stream().mapToInt(Integer::intValue).toArray();
        this.tokenModuli = new long[tokenOffsets.length];
        for (int k = 0; k < tokenModuli.length; k++) {
            tokenModuli[k] = (k == 0 || moduli.length == 0) ? 0 : moduli[Math.min(k - 1, moduli.length - 1)];
        }
    }

    private static void writeAscii(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        out.write(b, 0, b.length);
    }

    /** Offsets of the key tokens in one word (UTF-8 bytes). */
    public static int[] findTokens(byte[] w) {
        List<Integer> found = new ArrayList<>();
        int p = 1;
        while (p + TOKEN_WIDTH <= w.length) {
            if (isTokenAt(w, p)) {
                found.add(p);
                p += TOKEN_WIDTH;
            } else {
                p++;
            }
        }
        return found.stream().mapToInt(Integer::intValue).toArray();
    }

    private static boolean isTokenAt(byte[] w, int p) {
        byte before = w[p - 1];
        if (before != '(' && before != ',' && before != '_' && before != '=') {
            return false;
        }
        for (int k = 0; k < 4; k++) {
            if (w[p + k] != '0') {
                return false;
            }
        }
        for (int k = 4; k < TOKEN_WIDTH; k++) {
            if (!isDigit(w[p + k])) {
                return false;
            }
        }
        return p + TOKEN_WIDTH == w.length || !isDigit(w[p + TOKEN_WIDTH]);
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    /** The encoded request with its tokens as written on the command line. */
    public byte[] bytes() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    public int tokenCount() {
        return tokenOffsets.length;
    }

    /** Copies the template (tokens as on the command line) into {@code dst} at index 0. */
    public void copyTo(ByteBuf dst) {
        dst.setBytes(0, bytes);
    }

    /** Writes the tokens for request number {@code number} into {@code dst} (holding a copy). */
    public void fill(ByteBuf dst, long number) {
        for (int k = 0; k < tokenOffsets.length; k++) {
            long m = tokenModuli[k];
            long v = m == 0 ? number : number % m;
            int end = tokenOffsets[k] + TOKEN_WIDTH;
            for (int d = end - 1; d >= tokenOffsets[k]; d--) {
                dst.setByte(d, (int) ('0' + v % 10));
                v /= 10;
            }
        }
    }

    /** Writes the tokens for request number {@code number} into {@code dst} (holding a copy). */
    public void fill(byte[] dst, long number) {
        for (int k = 0; k < tokenOffsets.length; k++) {
            long m = tokenModuli[k];
            long v = m == 0 ? number : number % m;
            int end = tokenOffsets[k] + TOKEN_WIDTH;
            for (int d = end - 1; d >= tokenOffsets[k]; d--) {
                dst[d] = (byte) ('0' + v % 10);
                v /= 10;
            }
        }
    }

    /** The encoded request for one number (for tests and diagnostics). */
    public byte[] render(long number) {
        byte[] b = bytes.clone();
        fill(b, number);
        return b;
    }

    /** The request for one number decoded back into its words (for tests and diagnostics). */
    public List<String> words(long number) {
        return decode(render(number));
    }

    /** Decodes one RESP array of bulk strings. */
    public static List<String> decode(byte[] b) {
        int[] pos = {0};
        int n = Integer.parseInt(line(b, pos).substring(1));
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int len = Integer.parseInt(line(b, pos).substring(1));
            out.add(new String(b, pos[0], len, StandardCharsets.UTF_8));
            pos[0] += len + 2;
        }
        return out;
    }

    private static String line(byte[] b, int[] pos) {
        int start = pos[0];
        int p = start;
        while (b[p] != '\r') {
            p++;
        }
        pos[0] = p + 2;
        return new String(b, start, p - start, StandardCharsets.US_ASCII);
    }
}
