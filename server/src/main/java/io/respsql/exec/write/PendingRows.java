package io.respsql.exec.write;

import java.util.Arrays;

/**
 * The converted values of the rows an INSERT will write, row-major in primitive arrays (one
 * allocation per statement, none per value): every row is complete and checked before the
 * first is written, so a statement that fails changes nothing.
 */
final class PendingRows {
    final int columns;
    int rows;
    long[] longs;
    double[] doubles;
    byte[][] texts;
    boolean[] nulls;

    PendingRows(int columns, int expectedRows) {
        this.columns = columns;
        int n = Math.max(1, expectedRows) * columns;
        longs = new long[n];
        doubles = new double[n];
        texts = new byte[n][];
        nulls = new boolean[n];
    }

    /** Drops every row (the arrays stay, for the next statement of a cached plan). */
    void clear() {
        rows = 0;
    }

    /** Adds a row (every value NULL until set); returns its number. */
    int addRow() {
        int need = (rows + 1) * columns;
        if (need > longs.length) {
            int n = Math.max(need, longs.length * 2);
            longs = Arrays.copyOf(longs, n);
            doubles = Arrays.copyOf(doubles, n);
            texts = Arrays.copyOf(texts, n);
            nulls = Arrays.copyOf(nulls, n);
        }
        Arrays.fill(nulls, rows * columns, need, true);
        Arrays.fill(texts, rows * columns, need, null); // a reused row holds no text of an earlier statement
        return rows++;
    }

    void set(int row, int column, Cell v) {
        int i = row * columns + column;
        nulls[i] = v.isNull;
        longs[i] = v.l;
        doubles[i] = v.d;
        texts[i] = v.text;
    }

    void get(int row, int column, Cell into) {
        int i = row * columns + column;
        into.isNull = nulls[i];
        into.l = longs[i];
        into.d = doubles[i];
        into.text = texts[i];
    }

    boolean isNull(int row, int column) {
        return nulls[row * columns + column];
    }
}
