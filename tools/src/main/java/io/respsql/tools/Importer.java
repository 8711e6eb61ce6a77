package io.respsql.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;

/**
 * respsql-import: a CSV/TSV file into an existing table, in two passes over the file.
 * <ol>
 * <li>check: every record is parsed and every value typed by its column (as the server would) and
 *     checked against NOT NULL; a bad line stops here, before anything is sent, so nothing loads;
 * <li>load: the same records as multi-row {@code SQL "INSERT INTO t (cols) VALUES (...),(...)"}
 *     statements, pipelined on one connection (a reader thread takes the replies).
 * </ol>
 * What only the server can refuse (a duplicate key) stops the load: each statement is atomic, so
 * the report names exactly the lines that went in. {@code --atomic} sends the whole file inside
 * MULTI/EXEC instead: all of it or none.
 */
final class Importer {
    static final String NAME = "respsql-import";

    /** A statement ends at --batch rows or at this size, whichever comes first: wide rows make no giant statements. */
    private static final int BATCH_BYTES = 1 << 20;

    /** Statements in flight at most: bounds what still runs after a refusal. */
    private static final int WINDOW = 64;

    private final Options o;
    private final PrintStream err;
    private final Progress progress;
    private String table;
    private String[] colNames;
    private Typing.Kind[] kinds;
    private boolean[] notNull;
    /** Record field i goes to table column target[i]. */
    private int[] target;
    private byte[] nullBytes;

    // the converted statements (pass 1): lines, rows and where each ends in the input and the spool
    private final Longs firstLine = new Longs();
    private final Longs lastLine = new Longs();
    private final Longs rowsOf = new Longs();
    private final Longs fileEnd = new Longs();
    private final Longs spoolEnd = new Longs();
    private int statements;
    private long inputSize;
    private long inputBytes;

    // load state (pass 2)
    private volatile String failure;
    private volatile int sentCount;
    private volatile boolean senderDone;
    private volatile boolean finalSent;
    private final List<long[]> loaded = new ArrayList<>();
    private long loadedRows;

    private Importer(Options o, PrintStream err, Progress progress) {
        this.o = o;
        this.err = err;
        this.progress = progress;
    }

    static int run(Options o, InputStream stdin, PrintStream err, boolean terminal) throws IOException {
        if (o.positional.isEmpty() || o.positional.size() > 2) {
            err.println(NAME + ": usage: respsql-import [options] TABLE [FILE|-]   (--help for the options)");
            return 2;
        }
        try (Progress p = new Progress(NAME, o.progress, terminal, o.progressInterval, err)) {
            return new Importer(o, err, p).load(stdin);
        }
    }

    private int load(InputStream stdin) throws IOException {
        table = o.positional.get(0);
        if (!Names.plain(table)) {
            return fail("table name '" + table + "' must be letters, digits and _ (not starting with a digit)");
        }
        String fileArg = o.positional.size() == 2 ? o.positional.get(1) : "-";
        boolean fromStdin = fileArg.equals("-");
        if (!fromStdin && !Files.isReadable(Path.of(fileArg))) {
            return fail("cannot read " + fileArg);
        }
        nullBytes = o.nullString.getBytes(StandardCharsets.UTF_8);
        Path spool = null;
        try {
            String schemaError;
            try (Resp resp = Resp.open(o)) {
                schemaError = readSchema(resp);
            }
            if (schemaError != null) {
                return fail(schemaError);
            }
            long t0 = System.nanoTime();
            // the statements go to a file first: nothing is sent before every line is known good
            spool = Files.createTempFile("respsql-import-", ".resp");
            String bad;
            try (InputStream in = fromStdin ? stdin : Files.newInputStream(Path.of(fileArg))) {
                inputSize = fromStdin ? 0 : Files.size(Path.of(fileArg));
                bad = convert(in, spool);
            }
            if (bad != null) {
                return fail(bad + "; nothing was loaded");
            }
            // a connection of its own for the load: the check may take long enough for an idle one to time out
            try (Resp resp = Resp.open(o)) {
                return send(resp, spool, fromStdin ? "standard input" : fileArg, t0);
            }
        } finally {
            if (spool != null) {
                Files.deleteIfExists(spool);
            }
        }
    }

    private int fail(String message) {
        progress.close();
        err.println(NAME + ": " + message);
        return 1;
    }

    /** Column names and types from the typed reply of an empty query, NOT NULL from DESC. */
    private String readSchema(Resp resp) throws IOException {
        Object r = resp.call("QUERY", "SELECT * FROM " + table + " LIMIT 0");
        if (r instanceof Resp.Error e) {
            return "table " + table + ": " + e.message();
        }
        if (!(r instanceof List<?> l) || l.size() < 2 || !(l.get(0) instanceof List<?> names) || !(l.get(1) instanceof List<?> types)) {
            return "table " + table + ": unexpected reply to QUERY: " + r;
        }
        int n = names.size();
        colNames = new String[n];
        kinds = new Typing.Kind[n];
        notNull = new boolean[n];
        for (int i = 0; i < n; i++) {
            colNames[i] = String.valueOf(names.get(i));
            kinds[i] = Typing.kind(String.valueOf(types.get(i)));
        }
        Object d = resp.call("DESC", table);
        if (d instanceof List<?> lines) {
            for (Object line : lines) {
                String[] parts = String.valueOf(line).split(" \\| ");
                int c = indexOf(parts[0]);
                if (c >= 0) {
                    for (int k = 2; k < parts.length; k++) {
                        if (parts[k].equals("NOT NULL") || parts[k].equals("PRIMARY KEY")) {
                            notNull[c] = true;
                        }
                    }
                }
            }
        }
        return null;
    }

    private int indexOf(String name) {
        for (int i = 0; i < colNames.length; i++) {
            if (colNames[i].equals(name)) {
                return i;
            }
        }
        for (int i = 0; i < colNames.length; i++) {
            if (colNames[i].equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Maps the file's fields to table columns (by --columns, the header, or the table's order). */
    private String mapColumns(List<String> names) {
        if (names == null) {
            target = new int[colNames.length];
            Arrays.setAll(target, i -> i);
            return null;
        }
        target = new int[names.size()];
        boolean[] seen = new boolean[colNames.length];
        for (int i = 0; i < target.length; i++) {
            int c = indexOf(names.get(i));
            if (c < 0) {
                return "table " + table + " has no column '" + names.get(i) + "' (columns: " + String.join(", ", colNames) + ")";
            }
            if (seen[c]) {
                return "column '" + names.get(i) + "' is named twice";
            }
            seen[c] = true;
            target[i] = c;
        }
        return null;
    }

    /**
     * Pass 1: every record parsed and typed, and written to the spool as RESP {@code SQL} commands of
     * up to --batch rows; the first bad record's line, column and reason, or null.
     */
    private String convert(InputStream input, Path spool) throws IOException {
        progress.phase("checking", inputSize, false);
        try (java.io.OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(spool), 1 << 20)) {
            CsvReader r = new CsvReader(input, o.delimiter);
            String mapped;
            if (o.header && r.next()) {
                List<String> header = new ArrayList<>();
                for (int i = 0; i < r.fields; i++) {
                    header.add(r.text(i).trim());
                }
                mapped = mapColumns(o.columns != null ? o.columns : header);
                if (mapped == null && o.columns != null && header.size() != target.length) {
                    mapped = "line 1: the header has " + header.size() + " fields, --columns names " + target.length;
                }
            } else {
                mapped = mapColumns(o.columns);
            }
            if (mapped != null) {
                return mapped;
            }
            byte[] prefix = insertPrefix();
            if (prefix == null) {
                return "column names must be letters, digits and _ to be sent";
            }
            ByteBuf stmt = new ByteBuf();
            byte[] frame = new byte[64];
            long spoolBytes = 0;
            long rowsTotal = 0;
            int rows = 0;
            long first = 0;
            while (true) {
                boolean more = r.next();
                if (more) {
                    if (rows == 0) {
                        stmt.len = 0;
                        stmt.put(prefix);
                        first = r.recordLine;
                    } else {
                        stmt.put(',');
                    }
                    String bad = row(r, stmt);
                    if (bad != null) {
                        return bad;
                    }
                    rows++;
                    if ((++rowsTotal & 255) == 0) {
                        progress.rows = rowsTotal;
                        progress.bytes = r.bytes;
                    }
                }
                if (rows > 0 && (rows == o.batchRows || stmt.len >= BATCH_BYTES || !more)) {
                    int h = header(frame, stmt.len);
                    out.write(frame, 0, h);
                    out.write(stmt.a, 0, stmt.len);
                    out.write('\r');
                    out.write('\n');
                    spoolBytes += h + stmt.len + 2;
                    firstLine.add(first);
                    lastLine.add(r.lineEnd());
                    rowsOf.add(rows);
                    fileEnd.add(r.bytes);
                    spoolEnd.add(spoolBytes);
                    statements++;
                    rows = 0;
                }
                if (!more) {
                    break;
                }
            }
            inputBytes = r.bytes;
            progress.rows = rowsTotal;
            progress.bytes = r.bytes;
            progress.done();
            return null;
        } catch (CsvReader.CsvException e) {
            return "line " + e.line + ", " + e.getMessage();
        }
    }

    /** {@code *2 $3 SQL $<len>} before a statement of {@code len} bytes; returns its length. */
    private static int header(byte[] f, int len) {
        byte[] h = ("*2\r\n$3\r\nSQL\r\n$" + len + "\r\n").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(h, 0, f, 0, h.length);
        return h.length;
    }

    /** {@code INSERT INTO t (a,b) VALUES }, or null when a name cannot be written plain. */
    private byte[] insertPrefix() {
        StringBuilder head = new StringBuilder("INSERT INTO ").append(table).append(" (");
        for (int i = 0; i < target.length; i++) {
            String n = colNames[target[i]];
            if (!Names.plain(n)) {
                return null;
            }
            head.append(i > 0 ? "," : "").append(n);
        }
        return head.append(") VALUES ").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Appends the record as {@code (v1,v2,...)}; the reason it cannot be, or null. */
    private String row(CsvReader r, ByteBuf out) {
        if (r.fields != target.length) {
            if (r.fields == 1 && r.end[0] == r.start[0] && !r.quoted[0] && target.length > 1) {
                return "line " + r.recordLine + ": an empty line (expected " + target.length + " fields)";
            }
            return "line " + r.recordLine + ": " + r.fields + " field" + (r.fields == 1 ? "" : "s") + ", expected " + target.length;
        }
        out.put('(');
        for (int i = 0; i < r.fields; i++) {
            if (i > 0) {
                out.put(',');
            }
            int c = target[i];
            int s = r.start[i];
            int e = r.end[i];
            if (!r.quoted[i] && e - s == nullBytes.length && Arrays.equals(r.rec, s, e, nullBytes, 0, nullBytes.length)) {
                if (notNull[c]) {
                    return where(r, i) + "NULL (" + (nullBytes.length == 0 ? "an empty unquoted field" : "'" + o.nullString + "'")
                            + ") in a NOT NULL column";
                }
                Typing.appendNull(out);
                continue;
            }
            String bad = Typing.append(kinds[c], r.rec, s, e, out);
            if (bad != null) {
                return where(r, i) + bad;
            }
        }
        out.put(')');
        return null;
    }

    private String where(CsvReader r, int field) {
        return "line " + r.recordLine + ", column '" + colNames[target[field]] + "' (field " + (field + 1) + "): ";
    }

    /** Pass 2: the converted statements, pipelined; replies are read by a thread of its own. */
    private int send(Resp resp, Path spool, String fileName, long t0) throws IOException {
        if (o.atomic) {
            Object m = resp.call("MULTI");
            if (m instanceof Resp.Error e) {
                return fail("MULTI: " + e.message());
            }
        }
        progress.phase(o.atomic ? "sending" : "loading", inputSize > 0 ? inputSize : inputBytes, false);
        Semaphore sent = new Semaphore(0);
        Semaphore window = new Semaphore(WINDOW); // statements in flight: bounds what still runs after a refusal
        Thread reader = new Thread(() -> readReplies(resp, sent, window), NAME + "-replies");
        reader.setDaemon(true);
        reader.start();
        long loadStart = System.nanoTime();
        byte[] chunk = new byte[1 << 18];
        try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(spool), 1 << 20)) {
            long sentRows = 0;
            int i = 0;
            while (i < statements && failure == null) {
                // consecutive statements up to ~256 KB in one write: fewer, fuller reads for the server
                int j = i;
                long from = i == 0 ? 0 : spoolEnd.get(i - 1);
                do {
                    window.acquire();
                    j++;
                } while (j < statements && j - i < WINDOW && o.maxRate <= 0 && spoolEnd.get(j) - from <= chunk.length && failure == null);
                long len = spoolEnd.get(j - 1) - from;
                if (len > chunk.length) {
                    chunk = new byte[(int) len];
                }
                if (in.readNBytes(chunk, 0, (int) len) != len) {
                    throw new IOException("the spool file " + spool + " ended early");
                }
                resp.raw(chunk, 0, (int) len);
                resp.flush();
                for (int k = i; k < j; k++) {
                    sentRows += rowsOf.get(k);
                }
                sentCount = j;
                sent.release(j - i);
                i = j;
                throttle(sentRows, loadStart);
            }
            if (o.atomic) {
                resp.command(failure == null ? "EXEC" : "DISCARD");
                resp.flush();
                finalSent = true;
            }
            senderDone = true;
            sent.release();
            reader.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted");
        } catch (IOException e) {
            if (failure == null) {
                failure = "sending: " + e.getMessage();
            }
            senderDone = true;
            sent.release();
            resp.close(); // the reader stops at the closed socket
            try {
                reader.join();
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
        if (failure == null) {
            progress.done();
        }
        progress.close();
        double secs = (System.nanoTime() - t0) / 1e9;
        double loadSecs = (System.nanoTime() - loadStart) / 1e9;
        if (failure == null) {
            err.println(String.format(Locale.ROOT, "%s: loaded %d rows into %s from %s in %.2f s, %.0f rows/s (check %.2f s, load %.2f s: %.0f rows/s)",
                    NAME, loadedRows, table, fileName, secs, loadedRows / secs, secs - loadSecs, loadSecs, loadedRows / loadSecs));
            return 0;
        }
        err.println(NAME + ": " + failure);
        if (o.atomic) {
            err.println(NAME + ": nothing was loaded (--atomic: the transaction was not committed)");
        } else if (loaded.isEmpty()) {
            err.println(NAME + ": nothing was loaded");
        } else {
            StringBuilder sb = new StringBuilder(NAME + ": loaded " + loadedRows + " rows, from lines ");
            for (int i = 0; i < loaded.size(); i++) {
                long[] rg = loaded.get(i);
                sb.append(i > 0 ? ", " : "").append(rg[0]).append('-').append(rg[1]);
            }
            err.println(sb.append("; no other line of the file was loaded"));
        }
        return 1;
    }

    /** With --max-rate: sleeps until the rows sent are not ahead of the rate. */
    private void throttle(long sentRows, long start) throws InterruptedException {
        if (o.maxRate <= 0) {
            return;
        }
        long due = start + (long) (sentRows * 1e9 / o.maxRate);
        long wait = due - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }

    /** The reply reader: one reply per statement sent, in order; keeps the loaded line ranges. */
    private void readReplies(Resp resp, Semaphore sent, Semaphore window) {
        long rows = 0;
        int acked = 0;
        try {
            while (true) {
                sent.acquire();
                if (acked == sentCount) {
                    if (!senderDone) {
                        continue;
                    }
                    if (finalSent) {
                        Object reply = resp.reply();
                        if (reply instanceof List<?> && failure == null) {
                            loadedRows = rows;
                        } else if (failure == null) {
                            failure = "EXEC: " + reply;
                        }
                    }
                    return;
                }
                int i = acked++;
                Object reply = resp.reply();
                window.release();
                if (reply instanceof Resp.Error e) {
                    if (!loaded.isEmpty()) {
                        loaded.get(loaded.size() - 1)[2] = 0; // lines after this statement start a new range
                    }
                    if (failure == null) {
                        failure = "the server refused the statement holding lines " + firstLine.get(i) + "-" + lastLine.get(i) + ": " + e.message();
                    }
                    continue;
                }
                rows += rowsOf.get(i);
                if (!o.atomic) {
                    long[] last = loaded.isEmpty() ? null : loaded.get(loaded.size() - 1);
                    if (last != null && last[2] == 1) {
                        last[1] = lastLine.get(i);
                    } else {
                        loaded.add(new long[] {firstLine.get(i), lastLine.get(i), 1});
                    }
                    loadedRows = rows;
                }
                progress.rows = rows;
                progress.bytes = fileEnd.get(i);
            }
        } catch (IOException e) {
            if (failure == null) {
                failure = "connection lost: " + e.getMessage();
            }
            window.release(1 << 20); // the sender must not wait for replies that will not come
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
