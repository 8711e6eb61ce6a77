package io.respsql.engine;

import io.respsql.exec.write.InsertOperator;

/**
 * Reads the rows of {@code INSERT ... VALUES (...), (...)} straight from the statement's text, using
 * the literals a {@link LiteralScan} found in it: a bulk load's thousand rows go into pending rows
 * without a syntax tree per value. Only rows of plain literals (a number under at most one sign, a
 * string, NULL) are read; anything else answers "not this shape" and the statement takes the plain
 * path. Reused for every statement (event loop only); the walk allocates nothing.
 */
final class BulkValues {
    private final LiteralScan scan;
    /** Where the walk stands in the text, and the next literal of the scan it expects. */
    private int walk;
    private int literal;
    private int open;
    private int width;

    BulkValues(LiteralScan scan) {
        this.scan = scan;
    }

    /**
     * After {@code scan} has scanned {@code sql}: the end of its first row (the text up to there is
     * the statement with one row, for the parser to name the table and columns), or -1 when the
     * text is not an INSERT ... VALUES of literal rows as far as its first row.
     */
    int firstRowEnd(String sql) {
        open = firstRow(sql);
        if (open < 0) {
            return -1;
        }
        walk = open;
        literal = 0;
        width = row(sql, -1, null);
        return width < 0 ? -1 : walk;
    }

    /** Values in the first row ({@link #firstRowEnd}). */
    int width() {
        return width;
    }

    /**
     * Hands every row, the first included, to {@code into} (a row started per row); false when a
     * row is not of literals, has another width, a value is refused, or text follows the rows.
     */
    boolean readRows(String sql, InsertOperator.Bulk into) {
        walk = open;
        literal = 0;
        int n = sql.length();
        while (true) {
            into.addRow();
            if (row(sql, width, into) < 0) {
                return false;
            }
            skipSpace(sql);
            if (walk == n) {
                break;
            }
            if (sql.charAt(walk) != ',') {
                return false;
            }
            walk++;
            skipSpace(sql);
        }
        return literal == scan.count;
    }

    /**
     * Where the first row's {@code (} is: after the last word VALUES before the first literal,
     * in a prefix without quotes; -1 when there is none.
     */
    private int firstRow(String sql) {
        int first = scan.count == 0 ? sql.length() : scan.starts[0];
        int values = -1;
        for (int i = 0; i + 6 <= first; i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`' || c == '[') {
                return -1;
            }
            if ((c == 'V' || c == 'v') && sql.regionMatches(true, i, "VALUES", 0, 6)
                    && (i == 0 || !isWordChar(sql.charAt(i - 1))) && (i + 6 == sql.length() || !isWordChar(sql.charAt(i + 6)))) {
                values = i + 6;
            }
        }
        if (values < 0) {
            return -1;
        }
        walk = values;
        skipSpace(sql);
        return walk < sql.length() && sql.charAt(walk) == '(' ? walk : -1;
    }

    /**
     * Reads the row {@code (v, ...)} at {@link #walk} (each v a literal of the scan under at most one
     * sign, or NULL), handing its values to {@code into} when not null. Returns its values' count
     * ({@code width} when given), or -1 when it is not such a row (or {@code into} refused a value).
     */
    private int row(String sql, int width, InsertOperator.Bulk into) {
        int n = sql.length();
        walk++; // '('
        for (int i = 0; ; i++) {
            if (width >= 0 && i >= width) {
                return -1;
            }
            skipSpace(sql);
            if (walk >= n) {
                return -1;
            }
            boolean signed = false;
            boolean negative = false;
            char c = sql.charAt(walk);
            if (c == '-' || c == '+') {
                signed = true;
                negative = c == '-';
                walk++;
                skipSpace(sql);
            }
            if (literal < scan.count && walk == scan.starts[literal]) {
                int k = literal++;
                int end = scan.ends[k];
                if (into != null && !into.set(i, LiteralScan.kindOf(scan.kinds[k]), signed, negative, scan.integers[k], sql,
                        walk, end)) {
                    return -1;
                }
                walk = end;
            } else if (!signed && walk + 4 <= n && sql.regionMatches(true, walk, "NULL", 0, 4)
                    && (walk + 4 == n || !isWordChar(sql.charAt(walk + 4)))) {
                walk += 4; // the value stays NULL
            } else {
                return -1;
            }
            skipSpace(sql);
            if (walk >= n) {
                return -1;
            }
            c = sql.charAt(walk++);
            if (c == ')') {
                return width < 0 || i + 1 == width ? i + 1 : -1;
            }
            if (c != ',') {
                return -1;
            }
        }
    }

    private void skipSpace(String sql) {
        int n = sql.length();
        while (walk < n && Character.isWhitespace(sql.charAt(walk))) {
            walk++;
        }
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == ':' || c == '@' || c == '$' || c == '#';
    }
}
