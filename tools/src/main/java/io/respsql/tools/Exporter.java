package io.respsql.tools;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * respsql-export: a table, or a query's result, as CSV. It asks with {@code QUERY}, whose typed reply
 * tells NULL (a null) from '' (an empty string) and gives each column's type, and writes each value
 * as it is read off the socket: rows are never held. NULL is written as the null string unquoted
 * (default: nothing), so a text value equal to it, the empty string included, is written quoted;
 * respsql-import reads the file back to the same values.
 */
final class Exporter {
    static final String NAME = "respsql-export";

    private Exporter() {
    }

    static int run(Options o, OutputStream stdout, PrintStream err, boolean terminal) throws IOException {
        String stmt;
        if (o.query != null) {
            if (!o.positional.isEmpty()) {
                err.println(NAME + ": give a table or --query, not both");
                return 2;
            }
            stmt = o.query;
        } else if (o.positional.size() == 1 && Names.plain(o.positional.get(0))) {
            stmt = "SELECT * FROM " + o.positional.get(0);
        } else {
            err.println(NAME + ": usage: respsql-export [options] (TABLE | --query \"SELECT ...\") [-o FILE]   (--help for the options)");
            return 2;
        }
        Path outFile = o.output == null || o.output.equals("-") ? null : Path.of(o.output);
        Path tmp = outFile == null ? null : outFile.resolveSibling(outFile.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        long t0 = System.nanoTime();
        long rows;
        try (Progress progress = new Progress(NAME, o.progress, terminal, o.progressInterval, err);
             Resp resp = Resp.open(o)) {
            OutputStream sink = tmp == null ? stdout : Files.newOutputStream(tmp);
            try (Closer c = new Closer(sink, tmp == null)) {
                BufferedOutputStream out = new BufferedOutputStream(sink, 1 << 16);
                resp.command("QUERY", stmt);
                resp.flush();
                String problem = copy(resp, o, out, progress);
                out.flush();
                if (problem != null) {
                    progress.close();
                    err.println(NAME + ": " + problem);
                    return 1;
                }
                rows = progress.rows;
                progress.done();
            }
            if (tmp != null) {
                // written whole or not at all: a failed export never leaves half a file under the name
                Files.move(tmp, outFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
        } finally {
            if (tmp != null) {
                Files.deleteIfExists(tmp);
            }
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        err.println(String.format(Locale.ROOT, "%s: wrote %d rows%s in %.2f s (%.0f rows/s)", NAME, rows,
                outFile == null ? "" : " to " + outFile, secs, rows / secs));
        return 0;
    }

    /** Closes the sink unless it is standard output. */
    private record Closer(OutputStream sink, boolean keep) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            if (keep) {
                sink.flush();
            } else {
                sink.close();
            }
        }
    }

    /** Reads the typed reply and writes it as CSV; the reason it could not, or null. */
    private static String copy(Resp resp, Options o, OutputStream out, Progress progress) throws IOException {
        int t = resp.type();
        if (t == '-') {
            return resp.line();
        }
        if (t != '*') {
            Object rest = t == '+' ? resp.line() : t == ':' ? resp.number() : "?";
            return "not a query (the server replied " + rest + ")";
        }
        long n = resp.number();
        if (n < 2) {
            return "not a query result";
        }
        Object names = resp.reply();
        Object types = resp.reply();
        if (!(names instanceof java.util.List<?> nl) || !(types instanceof java.util.List<?> tl)) {
            return "not a query result (no names and types)";
        }
        int cols = nl.size();
        boolean[] bool = new boolean[cols];
        for (int i = 0; i < cols; i++) {
            bool[i] = "BOOLEAN".equals(tl.get(i));
        }
        byte[] nullBytes = o.nullString.getBytes(StandardCharsets.UTF_8);
        byte delim = o.delimiter;
        if (o.header) {
            for (int i = 0; i < cols; i++) {
                if (i > 0) {
                    out.write(delim);
                }
                field(String.valueOf(nl.get(i)).getBytes(StandardCharsets.UTF_8), out, delim, nullBytes);
            }
            out.write('\n');
        }
        progress.phase("writing", n - 2, true);
        byte[] num = new byte[24];
        for (long r = 0; r < n - 2; r++) {
            if (resp.type() != '*' || resp.number() != cols) {
                return "row " + (r + 1) + " of the reply is not " + cols + " values";
            }
            for (int i = 0; i < cols; i++) {
                if (i > 0) {
                    out.write(delim);
                }
                int vt = resp.type();
                if (vt == ':') {
                    long v = resp.number();
                    if (bool[i]) {
                        out.write(v != 0 ? TRUE : FALSE);
                    } else {
                        writeLong(v, out, num);
                    }
                } else if (vt == '$') {
                    byte[] b = resp.bulkBody();
                    if (b == null) {
                        out.write(nullBytes);
                    } else {
                        field(b, out, delim, nullBytes);
                    }
                } else if (vt == '*' && resp.number() < 0) {
                    out.write(nullBytes);
                } else if (vt == '-') {
                    return "row " + (r + 1) + ": " + resp.line();
                } else {
                    return "row " + (r + 1) + ": unexpected value type '" + (char) vt + "'";
                }
            }
            out.write('\n');
            progress.rows = r + 1;
        }
        return null;
    }

    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    private static void writeLong(long v, OutputStream out, byte[] num) throws IOException {
        if (v == Long.MIN_VALUE) {
            out.write("-9223372036854775808".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        int i = num.length;
        long x = Math.abs(v);
        do {
            num[--i] = (byte) ('0' + x % 10);
            x /= 10;
        } while (x > 0);
        if (v < 0) {
            num[--i] = '-';
        }
        out.write(num, i, num.length - i);
    }

    /** A value, quoted when it holds the delimiter, a quote or a line break, or reads as the null string. */
    static void field(byte[] b, OutputStream out, byte delim, byte[] nullBytes) throws IOException {
        boolean quote = java.util.Arrays.equals(b, nullBytes);
        for (int i = 0; i < b.length && !quote; i++) {
            byte c = b[i];
            quote = c == delim || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote) {
            out.write(b);
            return;
        }
        out.write('"');
        int from = 0;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == '"') {
                out.write(b, from, i + 1 - from);
                out.write('"');
                from = i + 1;
            }
        }
        out.write(b, from, b.length - from);
        out.write('"');
    }
}
