package io.respsql.exec.write;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The converted values of the rows an INSERT will write, row-major in primitive arrays (one
 * allocation per statement, none per value): every row is complete and checked before the
 * first is written, so a statement that fails changes nothing. TEXT values are bytes of one
 * reused buffer ({@link #textBytes}), so a bulk load's strings need no array each.
 */
final class PendingRows {
    final int columns;
    int rows;
    long[] longs;
    double[] doubles;
    boolean[] nulls;
    /** Per slot: where its TEXT value starts in {@link #textBytes}, and its length (-1: no text). */
    int[] textOff;
    int[] textLen;
    byte[] textBytes;
    private int textUsed;

    PendingRows(int columns, int expectedRows) {
        this.columns = columns;
        int n = Math.max(1, expectedRows) * columns;
        longs = new long[n];
        doubles = new double[n];
        nulls = new boolean[n];
        textOff = new int[n];
        textLen = new int[n];
        textBytes = new byte[64];
    }

    /** Drops every row (the arrays stay, for the next statement of a cached plan). */
    void clear() {
        rows = 0;
        textUsed = 0;
    }

    /** Adds a row (every value NULL until set); returns its number. */
    int addRow() {
        int need = (rows + 1) * columns;
        if (need > longs.length) {
            int n = Math.max(need, longs.length * 2);
            longs = Arrays.copyOf(longs, n);
            doubles = Arrays.copyOf(doubles, n);
            nulls = Arrays.copyOf(nulls, n);
            textOff = Arrays.copyOf(textOff, n);
            textLen = Arrays.copyOf(textLen, n);
        }
        Arrays.fill(nulls, rows * columns, need, true);
        Arrays.fill(textLen, rows * columns, need, -1); // a reused row holds no text of an earlier statement
        return rows++;
    }

    void set(int row, int column, Cell v) {
        int i = row * columns + column;
        nulls[i] = v.isNull;
        longs[i] = v.l;
        doubles[i] = v.d;
        if (v.isNull || v.text == null) {
            textLen[i] = -1;
            return;
        }
        room(v.textLen);
        System.arraycopy(v.text, v.textOff, textBytes, textUsed, v.textLen);
        textOff[i] = textUsed;
        textLen[i] = v.textLen;
        textUsed += v.textLen;
    }

    /**
     * Sets a TEXT value straight from the statement: the UTF-8 bytes of {@code sql[from, to)},
     * {@code ''} read as one quote when {@code quoted}. ASCII (a bulk load's usual text) is copied
     * char by char into the buffer without any array of its own.
     */
    void setText(int row, int column, String sql, int from, int to, boolean quoted) {
        int i = row * columns + column;
        room(to - from);
        byte[] b = textBytes;
        int o = textUsed;
        for (int k = from; k < to; k++) {
            char ch = sql.charAt(k);
            if (ch >= 0x80) {
                String s = sql.substring(from, to);
                byte[] u = (quoted && s.indexOf('\'') >= 0 ? s.replace("''", "'") : s).getBytes(StandardCharsets.UTF_8);
                room(u.length);
                System.arraycopy(u, 0, textBytes, textUsed, u.length);
                o = textUsed + u.length;
                break;
            }
            b[o++] = (byte) ch;
            if (quoted && ch == '\'') {
                k++; // the scan saw a doubled quote here
            }
        }
        nulls[i] = false;
        textOff[i] = textUsed;
        textLen[i] = o - textUsed;
        textUsed = o;
    }

    /** Sets a TEXT value from bytes that are UTF-8 already (a COPY's field). */
    void setTextBytes(int row, int column, byte[] b, int off, int len) {
        int i = row * columns + column;
        room(len);
        System.arraycopy(b, off, textBytes, textUsed, len);
        nulls[i] = false;
        textOff[i] = textUsed;
        textLen[i] = len;
        textUsed += len;
    }

    private void room(int more) {
        if (textUsed + more > textBytes.length) {
            textBytes = Arrays.copyOf(textBytes, Math.max(textUsed + more, textBytes.length * 2));
        }
    }

    /** Slot {@code (row, column)} into {@code into}; a TEXT value as a slice of {@link #textBytes}. */
    void get(int row, int column, Cell into) {
        int i = row * columns + column;
        into.isNull = nulls[i];
        into.l = longs[i];
        into.d = doubles[i];
        int len = textLen[i];
        into.text = len < 0 ? null : textBytes;
        into.textOff = len < 0 ? 0 : textOff[i];
        into.textLen = Math.max(len, 0);
    }

    /** The TEXT value of a slot as an array of its own (a TEXT primary key's checks), or null. */
    byte[] textCopy(int row, int column) {
        int i = row * columns + column;
        return textLen[i] < 0 ? null : Arrays.copyOfRange(textBytes, textOff[i], textOff[i] + textLen[i]);
    }

    /** Whether two slots hold the same TEXT bytes. */
    boolean sameText(int i, int j) {
        if (textLen[i] < 0 || textLen[j] < 0) {
            return textLen[i] == textLen[j];
        }
        return Arrays.equals(textBytes, textOff[i], textOff[i] + textLen[i], textBytes, textOff[j], textOff[j] + textLen[j]);
    }

    boolean isNull(int row, int column) {
        return nulls[row * columns + column];
    }
}
