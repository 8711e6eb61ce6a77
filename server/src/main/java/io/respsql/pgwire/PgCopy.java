package io.respsql.pgwire;

import io.netty.buffer.ByteBuf;
import io.respsql.engine.CopyIn;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code COPY}: the statement ({@link #parse}), the rows of {@code FROM STDIN} read from CopyData
 * messages ({@link In}: text or CSV, records may span messages, each message's complete records
 * written as one batch), and the lines of {@code TO STDOUT} made from a result's DataRows
 * ({@link #toCopyData}). PostgreSQL's formats: text (tab-delimited, {@code \N} for NULL, backslash
 * escapes) and CSV (header, delimiter, NULL string, quote, escape).
 */
final class PgCopy {
    private PgCopy() {
    }

    /** A parsed COPY: {@code table} and {@code columns} (null: all), or {@code query}; the direction and format. */
    static final class Spec {
        String table;
        List<String> columns;
        String query;
        boolean from;
        boolean csv;
        boolean header;
        byte delimiter;
        byte[] nullString;
        byte quote = '"';
        byte escape;
        boolean escapeSet;
        boolean delimiterSet;
        boolean nullSet;
        boolean binary;
        boolean forceQuoteAll;
        List<String> forceQuote = List.of();

        /** The SELECT whose rows COPY ... TO sends. */
        String select() {
            if (query != null) {
                return query;
            }
            StringBuilder sb = new StringBuilder("SELECT ");
            if (columns == null) {
                sb.append('*');
            } else {
                for (int i = 0; i < columns.size(); i++) {
                    sb.append(i == 0 ? "" : ", ").append('`').append(columns.get(i).replace("`", "``")).append('`');
                }
            }
            return sb.append(" FROM `").append(table.replace("`", "``")).append('`').toString();
        }

        String what() {
            return table == null ? "query" : table;
        }
    }

    // ---- the statement -----------------------------------------------------------------------------

    private record Tok(char kind, String text, int start, int end) {
        // kind: 'w' word (lower-cased unless quoted), 'q' quoted name, 's' string, 'p' punctuation
        boolean is(String word) {
            return kind == 'w' && text.equals(word);
        }
    }

    /** Whether {@code sql} is a COPY statement. */
    static boolean isCopy(String sql) {
        return PgSql.words(sql, 1)[0].equals("COPY");
    }

    static Spec parse(String sql) {
        List<Tok> t = tokens(sql);
        Spec s = new Spec();
        int i = 1; // after COPY
        if (i < t.size() && t.get(i).kind == 'p' && t.get(i).text.equals("(")) {
            int close = matching(sql, t.get(i).start);
            s.query = sql.substring(t.get(i).start + 1, close).trim();
            while (i < t.size() && t.get(i).start <= close) {
                i++;
            }
        } else {
            s.table = name(t, i++);
            while (i < t.size() && t.get(i).kind == 'p' && t.get(i).text.equals(".")) {
                s.table = name(t, i + 1); // schema.table: RespSQL has one schema
                i += 2;
            }
            if (i < t.size() && t.get(i).kind == 'p' && t.get(i).text.equals("(")) {
                s.columns = new ArrayList<>();
                i++;
                while (true) {
                    s.columns.add(name(t, i++));
                    Tok p = at(t, i++);
                    if (p.text.equals(")")) {
                        break;
                    }
                    if (!p.text.equals(",")) {
                        throw syntax(p);
                    }
                }
            }
        }
        Tok dir = at(t, i++);
        if (dir.is("from")) {
            s.from = true;
        } else if (!dir.is("to")) {
            throw syntax(dir);
        }
        if (s.from && s.query != null) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error at or near \"FROM\": COPY (query) only goes TO");
        }
        Tok where = at(t, i++);
        if (where.kind == 's' || where.is("program")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "COPY " + (s.from ? "from" : "to")
                    + " a file or program is not supported: use " + (s.from ? "FROM STDIN" : "TO STDOUT")
                    + " (psql's \\copy does)");
        }
        if (!(s.from ? where.is("stdin") : where.is("stdout"))) {
            throw syntax(where);
        }
        if (i < t.size() && t.get(i).is("with")) {
            i++;
        }
        if (i < t.size() && t.get(i).kind == 'p' && t.get(i).text.equals("(")) {
            i = options(t, i + 1, s);
        } else {
            i = oldOptions(t, i, s);
        }
        if (i < t.size()) {
            throw syntax(t.get(i));
        }
        if (s.binary) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "COPY in binary format is not supported: use text or CSV");
        }
        if (!s.delimiterSet) {
            s.delimiter = (byte) (s.csv ? ',' : '\t');
        }
        if (!s.nullSet) {
            s.nullString = s.csv ? new byte[0] : new byte[]{'\\', 'N'};
        }
        if (!s.escapeSet) {
            s.escape = s.quote;
        }
        if (!s.csv && (s.header || s.escapeSet)) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "COPY " + (s.header ? "HEADER" : "ESCAPE")
                    + " available only in CSV mode");
        }
        if (s.csv && s.delimiter == s.quote) {
            throw new SqlException("22023", "COPY delimiter and quote must be different");
        }
        if (s.delimiter == '\n' || s.delimiter == '\r' || !s.csv && s.delimiter == '\\') {
            throw new SqlException("22023", "COPY delimiter cannot be newline, carriage return or backslash");
        }
        return s;
    }

    /** {@code ( name [value] , ... )}; returns the index after the ')'. */
    private static int options(List<Tok> t, int i, Spec s) {
        while (true) {
            Tok name = at(t, i++);
            if (name.kind != 'w') {
                throw syntax(name);
            }
            Tok v = at(t, i);
            boolean hasValue = !(v.kind == 'p' && (v.text.equals(",") || v.text.equals(")")));
            String value = null;
            if (hasValue) {
                if (v.kind == 'p' && v.text.equals("(")) {
                    List<String> cols = new ArrayList<>();
                    i++;
                    while (true) {
                        Tok c = at(t, i++);
                        if (c.kind == 'p' && c.text.equals(")")) {
                            break;
                        }
                        if (!(c.kind == 'p' && c.text.equals(","))) {
                            cols.add(c.text);
                        }
                    }
                    option(s, name.text, null, cols);
                } else {
                    value = v.text;
                    i++;
                    option(s, name.text, value, null);
                }
            } else {
                option(s, name.text, null, null);
            }
            Tok p = at(t, i++);
            if (p.text.equals(")") && p.kind == 'p') {
                return i;
            }
            if (!(p.kind == 'p' && p.text.equals(","))) {
                throw syntax(p);
            }
        }
    }

    private static void option(Spec s, String name, String value, List<String> list) {
        switch (name) {
            case "format" -> {
                String f = value == null ? "" : value.toLowerCase(Locale.ROOT);
                switch (f) {
                    case "csv" -> s.csv = true;
                    case "text" -> s.csv = false;
                    case "binary" -> s.binary = true;
                    default -> throw new SqlException("22023", "COPY format \"" + value + "\" not recognized");
                }
            }
            case "header" -> {
                if (value != null && value.equalsIgnoreCase("match")) {
                    s.header = true;
                } else {
                    s.header = value == null || bool(value, name);
                }
            }
            case "delimiter" -> {
                s.delimiter = oneByte(value, "delimiter");
                s.delimiterSet = true;
            }
            case "null" -> {
                s.nullString = value == null ? new byte[0] : value.getBytes(StandardCharsets.UTF_8);
                s.nullSet = true;
            }
            case "quote" -> s.quote = oneByte(value, "quote");
            case "escape" -> {
                s.escape = oneByte(value, "escape");
                s.escapeSet = true;
            }
            case "force_quote" -> {
                if (list == null) {
                    s.forceQuoteAll = "*".equals(value);
                } else {
                    s.forceQuote = list;
                }
            }
            case "force_not_null", "force_null", "encoding", "freeze", "oids" -> {
                // accepted: UTF-8 is the only encoding; the others change nothing RespSQL keeps
            }
            default -> throw new SqlException("42601", "option \"" + name + "\" not recognized");
        }
    }

    /** The syntax before PostgreSQL 9.0: {@code [BINARY] [DELIMITER [AS] 'x'] [NULL [AS] 'x'] [CSV [HEADER] [QUOTE [AS] 'q'] [ESCAPE [AS] 'e'] [FORCE ...]]}. */
    private static int oldOptions(List<Tok> t, int i, Spec s) {
        while (i < t.size()) {
            Tok w = t.get(i);
            if (w.kind == 'p' && w.text.equals(";")) {
                return i + 1;
            }
            if (w.kind != 'w') {
                throw syntax(w);
            }
            i++;
            switch (w.text) {
                case "binary" -> s.binary = true;
                case "csv" -> s.csv = true;
                case "header" -> s.header = true;
                case "delimiter", "null", "quote", "escape" -> {
                    if (at(t, i).is("as")) {
                        i++;
                    }
                    Tok v = at(t, i++);
                    if (v.kind != 's') {
                        throw syntax(v);
                    }
                    option(s, w.text, v.text, null);
                }
                case "force" -> {
                    Tok what = at(t, i++);
                    if (what.is("not")) {
                        i++; // NULL
                    }
                    // the column list, or *
                    if (at(t, i).text.equals("*")) {
                        s.forceQuoteAll = what.is("quote");
                        i++;
                    } else {
                        List<String> cols = new ArrayList<>();
                        cols.add(name(t, i++));
                        while (i < t.size() && t.get(i).text.equals(",") && t.get(i).kind == 'p') {
                            cols.add(name(t, i + 1));
                            i += 2;
                        }
                        if (what.is("quote")) {
                            s.forceQuote = cols;
                        }
                    }
                }
                default -> throw syntax(w);
            }
        }
        return i;
    }

    private static boolean bool(String v, String option) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "on", "1", "t", "yes" -> true;
            case "false", "off", "0", "f", "no" -> false;
            default -> throw new SqlException("22023", option + " requires a Boolean value");
        };
    }

    private static byte oneByte(String v, String what) {
        byte[] b = v == null ? new byte[0] : v.getBytes(StandardCharsets.UTF_8);
        if (b.length != 1) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "COPY " + what + " must be a single one-byte character");
        }
        return b[0];
    }

    private static Tok at(List<Tok> t, int i) {
        if (i >= t.size()) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error at end of input");
        }
        return t.get(i);
    }

    private static String name(List<Tok> t, int i) {
        Tok n = at(t, i);
        if (n.kind != 'w' && n.kind != 'q') {
            throw syntax(n);
        }
        return n.text;
    }

    private static SqlException syntax(Tok t) {
        return new SqlException(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + t.text + "\"");
    }

    /** Where the ')' matching the '(' at {@code open} is (quotes and comments skipped). */
    private static int matching(String sql, int open) {
        int depth = 0;
        int i = open;
        while (i < sql.length()) {
            int end = io.respsql.sql.Lexer.quoteEnd(sql, i);
            if (end == i) {
                end = io.respsql.sql.Lexer.commentEnd(sql, i);
            }
            if (end != i) {
                i = end < 0 ? sql.length() : end;
                continue;
            }
            char c = sql.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
            i++;
        }
        throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: unbalanced parentheses in COPY");
    }

    private static List<Tok> tokens(String sql) {
        List<Tok> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if ((c == 'E' || c == 'e') && i + 1 < n && sql.charAt(i + 1) == '\'') {
                int start = i;
                StringBuilder sb = new StringBuilder();
                i += 2;
                while (i < n) {
                    char ch = sql.charAt(i);
                    if (ch == '\\' && i + 1 < n) {
                        char e = sql.charAt(i + 1);
                        sb.append(switch (e) {
                            case 't' -> '\t';
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 'b' -> '\b';
                            case 'f' -> '\f';
                            default -> e;
                        });
                        i += 2;
                    } else if (ch == '\'' && i + 1 < n && sql.charAt(i + 1) == '\'') {
                        sb.append('\'');
                        i += 2;
                    } else if (ch == '\'') {
                        i++;
                        break;
                    } else {
                        sb.append(ch);
                        i++;
                    }
                }
                out.add(new Tok('s', sb.toString(), start, i));
            } else if (c == '\'' || c == '"') {
                int start = i;
                StringBuilder sb = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: unterminated quote in COPY");
                    }
                    char ch = sql.charAt(i);
                    if (ch == c) {
                        if (i + 1 < n && sql.charAt(i + 1) == c) {
                            sb.append(c);
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    sb.append(ch);
                    i++;
                }
                out.add(new Tok(c == '"' ? 'q' : 's', sb.toString(), start, i));
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                out.add(new Tok('w', sql.substring(start, i).toLowerCase(Locale.ROOT), start, i));
            } else {
                out.add(new Tok('p', String.valueOf(c), i, i + 1));
                i++;
            }
        }
        return out;
    }

    // ---- COPY ... FROM STDIN ------------------------------------------------------------------------

    /** A bad line: the error and the CONTEXT naming the line. */
    static final class LineError extends RuntimeException {
        final String sqlState;
        final String where;

        LineError(String sqlState, String message, String where) {
            super(message, null, false, false);
            this.sqlState = sqlState;
            this.where = where;
        }
    }

    /** The input side of one COPY: bytes of CopyData messages in, rows out to the engine's {@link CopyIn}. */
    static final class In {
        final Spec spec;
        final CopyIn copy;
        private byte[] buf = new byte[64 * 1024];
        private int len;
        private byte[] field = new byte[256];
        private final int[] starts;
        private final int[] ends;
        private final boolean[] quoted;
        private long line;
        private boolean headerSkipped;
        private boolean ended;

        In(Spec spec, CopyIn copy) {
            this.spec = spec;
            this.copy = copy;
            int w = copy.width() + 1;
            starts = new int[w];
            ends = new int[w];
            quoted = new boolean[w];
            headerSkipped = !spec.header;
        }

        /** One CopyData message: its complete records are written (one batch); a partial one waits for the next. */
        void data(ByteBuf f) {
            int n = f.readableBytes();
            if (len + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(len + n, buf.length * 2));
            }
            f.readBytes(buf, len, n);
            len += n;
            int used = records(false);
            System.arraycopy(buf, used, buf, 0, len - used);
            len -= used;
            if (buf.length > 1 << 20 && len < 64 * 1024) {
                buf = Arrays.copyOf(buf, 64 * 1024); // after a huge record: not kept for the rest of the COPY
            }
            copy.flush();
        }

        /** CopyDone: the last record (without its newline) too; returns the rows written. */
        long done() {
            records(true);
            len = 0;
            return copy.commit();
        }

        /** Reads the records in {@code buf[0, len)}; returns the bytes used (a record not yet complete stays). */
        private int records(boolean last) {
            int pos = 0;
            while (pos < len && !ended) {
                int next = spec.csv ? csvRecord(pos, last) : textRecord(pos, last);
                if (next < 0) {
                    break;
                }
                pos = next;
            }
            return ended ? len : pos;
        }

        private String where(int column, String value) {
            String w = "COPY " + copy.tableName() + ", line " + line;
            if (column >= 0) {
                w += ", column " + copy.columnName(column);
                if (value != null) {
                    w += ": \"" + value + "\"";
                }
            }
            return w;
        }

        private LineError bad(String message, int column) {
            return new LineError("22P04", message, where(column, null));
        }

        private void value(int column, byte[] b, int off, int n) {
            try {
                copy.value(column, b, off, n);
            } catch (SqlException e) {
                throw new LineError(e.sqlState(), e.getMessage(),
                        where(column, new String(b, off, n, StandardCharsets.UTF_8)));
            }
        }

        private void endRow(int fields) {
            try {
                copy.endRow();
            } catch (SqlException e) {
                // a batch's write failed (a key taken, NOT NULL): the line is the batch's last
                throw new LineError(e.sqlState(), e.getMessage(), where(-1, null));
            }
        }

        /** One text-format line from {@code pos}; returns where the next starts, or -1 when it is not complete. */
        private int textRecord(int pos, boolean last) {
            int nl = pos;
            while (nl < len && buf[nl] != '\n') {
                nl++;
            }
            if (nl == len && !last) {
                return -1;
            }
            int end = nl;
            if (end > pos && buf[end - 1] == '\r') {
                end--;
            }
            int next = nl < len ? nl + 1 : len;
            line++;
            if (end - pos == 2 && buf[pos] == '\\' && buf[pos + 1] == '.') {
                ended = true;
                return next;
            }
            // fields
            int width = copy.width();
            byte delim = spec.delimiter;
            int count = 0;
            int s = pos;
            for (int i = pos; ; i++) {
                if (i == end || buf[i] == delim) {
                    if (count == width) {
                        throw bad("extra data after last expected column", -1);
                    }
                    starts[count] = s;
                    ends[count] = i;
                    count++;
                    s = i + 1;
                    if (i == end) {
                        break;
                    }
                } else if (buf[i] == '\\' && i + 1 < end) {
                    i++; // an escaped delimiter is data
                }
            }
            beginRow(count, width);
            for (int c = 0; c < width; c++) {
                int a = starts[c];
                int b = ends[c];
                if (isNullString(a, b)) {
                    copy.nullValue(c);
                    continue;
                }
                int esc = a;
                while (esc < b && buf[esc] != '\\') {
                    esc++;
                }
                if (esc == b) {
                    value(c, buf, a, b - a);
                } else {
                    int n = unescape(a, b);
                    value(c, field, 0, n);
                }
            }
            endRow(count);
            return next;
        }

        /** Starts a row of the {@code count} fields found: 22P04 naming the first missing column when under {@code width}. */
        private void beginRow(int count, int width) {
            if (count < width) {
                throw bad("missing data for column \"" + copy.columnName(count) + "\"", count);
            }
            copy.addRow();
        }

        /** Whether {@code buf[a, b)} is the NULL string. */
        private boolean isNullString(int a, int b) {
            byte[] nul = spec.nullString;
            return b - a == nul.length && Arrays.equals(buf, a, b, nul, 0, nul.length);
        }

        /** The text format's backslash escapes of {@code buf[a, b)} taken out, into {@link #field}; its length. */
        private int unescape(int a, int b) {
            if (field.length < b - a) {
                field = new byte[Math.max(b - a, field.length * 2)];
            }
            int o = 0;
            for (int i = a; i < b; i++) {
                byte ch = buf[i];
                if (ch != '\\' || i + 1 == b) {
                    field[o++] = ch;
                    continue;
                }
                byte e = buf[++i];
                switch (e) {
                    case 'b' -> field[o++] = '\b';
                    case 'f' -> field[o++] = '\f';
                    case 'n' -> field[o++] = '\n';
                    case 'r' -> field[o++] = '\r';
                    case 't' -> field[o++] = '\t';
                    case 'v' -> field[o++] = 0x0b;
                    case 'x' -> {
                        int v = 0;
                        int k = 0;
                        while (k < 2 && i + 1 < b && Character.digit(buf[i + 1], 16) >= 0) {
                            v = v * 16 + Character.digit(buf[++i], 16);
                            k++;
                        }
                        if (k == 0) {
                            field[o++] = 'x';
                        } else {
                            field[o++] = (byte) v;
                        }
                    }
                    default -> {
                        if (e >= '0' && e <= '7') {
                            int v = e - '0';
                            int k = 1;
                            while (k < 3 && i + 1 < b && buf[i + 1] >= '0' && buf[i + 1] <= '7') {
                                v = v * 8 + (buf[++i] - '0');
                                k++;
                            }
                            field[o++] = (byte) v;
                        } else {
                            field[o++] = e;
                        }
                    }
                }
            }
            return o;
        }

        /** One CSV record from {@code pos} (quoted fields may hold newlines); the next's start, or -1 when incomplete. */
        private int csvRecord(int pos, boolean last) {
            int width = copy.width();
            byte delim = spec.delimiter;
            byte q = spec.quote;
            byte esc = spec.escape;
            // find the record's end and its fields' bounds (quotes kept), without copying
            int count = 0;
            int i = pos;
            int s = pos;
            boolean inQuote = false;
            boolean wasQuoted = false;
            int lines = 1;
            int end;
            while (true) {
                if (i == len) {
                    if (!last) {
                        return -1;
                    }
                    if (inQuote) {
                        line += lines;
                        throw bad("unterminated CSV quoted field", -1);
                    }
                    end = len;
                    break;
                }
                byte ch = buf[i];
                if (inQuote) {
                    if (ch == esc && i + 1 == len && !last) {
                        return -1; // an escape (or a doubled quote) may be cut in two
                    }
                    if (ch == esc && i + 1 < len && (buf[i + 1] == q || buf[i + 1] == esc)) {
                        i += 2;
                        continue;
                    }
                    if (ch == q) {
                        inQuote = false;
                    } else if (ch == '\n') {
                        lines++;
                    }
                    i++;
                    continue;
                }
                if (ch == q) {
                    inQuote = true;
                    wasQuoted = true;
                } else if (ch == '\n' || ch == '\r') {
                    if (ch == '\r' && i + 1 == len && !last) {
                        return -1; // its \n may come next
                    }
                    end = i;
                    break;
                } else if (ch == delim) {
                    if (count == width) {
                        line += lines;
                        throw bad("extra data after last expected column", -1);
                    }
                    starts[count] = s;
                    ends[count] = i;
                    quoted[count] = wasQuoted;
                    count++;
                    wasQuoted = false;
                    s = i + 1;
                }
                i++;
            }
            line += lines;
            if (count == width) {
                throw bad("extra data after last expected column", -1);
            }
            starts[count] = s;
            ends[count] = end;
            quoted[count] = wasQuoted;
            count++;
            int next = end;
            if (next < len && buf[next] == '\r') {
                next++;
            }
            if (next < len && buf[next] == '\n') {
                next++;
            }
            if (count == 1 && !quoted[0] && ends[0] - starts[0] == 2 && buf[starts[0]] == '\\' && buf[starts[0] + 1] == '.') {
                ended = true;
                return next;
            }
            if (!headerSkipped) {
                headerSkipped = true;
                return next;
            }
            beginRow(count, width);
            for (int c = 0; c < width; c++) {
                int a = starts[c];
                int b = ends[c];
                if (!quoted[c]) {
                    if (isNullString(a, b)) {
                        copy.nullValue(c);
                    } else {
                        value(c, buf, a, b - a);
                    }
                    continue;
                }
                int n = csvField(a, b, q, esc);
                value(c, field, 0, n);
            }
            endRow(count);
            return next;
        }

        /** A quoted CSV field's value: quotes out, escapes resolved, into {@link #field}. */
        private int csvField(int a, int b, byte q, byte esc) {
            if (field.length < b - a) {
                field = new byte[Math.max(b - a, field.length * 2)];
            }
            int o = 0;
            boolean in = false;
            for (int i = a; i < b; i++) {
                byte ch = buf[i];
                if (in) {
                    if (ch == esc && i + 1 < b && (buf[i + 1] == q || buf[i + 1] == esc)) {
                        field[o++] = buf[++i];
                    } else if (ch == q) {
                        in = false;
                    } else {
                        field[o++] = ch;
                    }
                } else if (ch == q) {
                    in = true;
                } else {
                    field[o++] = ch;
                }
            }
            return o;
        }
    }

    // ---- COPY ... TO STDOUT -------------------------------------------------------------------------

    /**
     * The DataRows (text format) in {@code rows} as CopyData messages into {@code out}, in the
     * spec's format; the header line first when asked. Returns the rows.
     */
    static long toCopyData(Spec spec, io.respsql.result.ResultColumns columns, ByteBuf rows, ByteBuf out) {
        byte[] nul = spec.nullString;
        long n = 0;
        int width = columns.size();
        boolean[] force = new boolean[width];
        for (int c = 0; c < width; c++) {
            force[c] = spec.forceQuoteAll || spec.forceQuote.contains(columns.name(c));
        }
        if (spec.header) {
            int at = PgMessages.begin(out, 'd');
            for (int c = 0; c < width; c++) {
                if (c > 0) {
                    out.writeByte(spec.delimiter);
                }
                byte[] b = columns.name(c).getBytes(StandardCharsets.UTF_8);
                csvValue(spec, b, 0, b.length, false, out);
            }
            out.writeByte('\n');
            PgMessages.end(out, at);
        }
        byte[] tmp = new byte[256];
        while (rows.isReadable()) {
            int start = rows.readerIndex();
            byte type = rows.readByte();
            int len = rows.readInt();
            if (type != 'D') {
                rows.readerIndex(start + 1 + len);
                continue;
            }
            int fields = rows.readUnsignedShort();
            int at = PgMessages.begin(out, 'd');
            for (int c = 0; c < fields; c++) {
                if (c > 0) {
                    out.writeByte(spec.delimiter);
                }
                int fl = rows.readInt();
                if (fl < 0) {
                    out.writeBytes(nul);
                    continue;
                }
                if (tmp.length < fl) {
                    tmp = new byte[Math.max(fl, tmp.length * 2)];
                }
                rows.readBytes(tmp, 0, fl);
                if (spec.csv) {
                    csvValue(spec, tmp, 0, fl, force[c], out);
                } else {
                    textValue(spec.delimiter, tmp, fl, out);
                }
            }
            out.writeByte('\n');
            PgMessages.end(out, at);
            n++;
        }
        return n;
    }

    private static void textValue(byte delim, byte[] b, int len, ByteBuf out) {
        for (int i = 0; i < len; i++) {
            byte ch = b[i];
            switch (ch) {
                case '\\' -> out.writeShort(('\\' << 8) | '\\');
                case '\n' -> out.writeShort(('\\' << 8) | 'n');
                case '\r' -> out.writeShort(('\\' << 8) | 'r');
                case '\t' -> out.writeShort(('\\' << 8) | 't');
                case '\b' -> out.writeShort(('\\' << 8) | 'b');
                case '\f' -> out.writeShort(('\\' << 8) | 'f');
                case 0x0b -> out.writeShort(('\\' << 8) | 'v');
                default -> {
                    if (ch == delim) {
                        out.writeByte('\\');
                    }
                    out.writeByte(ch);
                }
            }
        }
    }

    private static void csvValue(Spec spec, byte[] b, int off, int len, boolean force, ByteBuf out) {
        byte q = spec.quote;
        byte esc = spec.escape;
        boolean quote = force || len == 0 && spec.nullString.length == 0
                || Arrays.equals(b, off, off + len, spec.nullString, 0, spec.nullString.length)
                || len == 2 && b[off] == '\\' && b[off + 1] == '.';
        for (int i = off; !quote && i < off + len; i++) {
            byte ch = b[i];
            quote = ch == spec.delimiter || ch == q || ch == '\n' || ch == '\r';
        }
        if (!quote) {
            out.writeBytes(b, off, len);
            return;
        }
        out.writeByte(q);
        for (int i = off; i < off + len; i++) {
            byte ch = b[i];
            if (ch == q || ch == esc) {
                out.writeByte(esc);
            }
            out.writeByte(ch);
        }
        out.writeByte(q);
    }
}
