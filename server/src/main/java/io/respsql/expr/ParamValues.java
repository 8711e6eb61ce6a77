package io.respsql.expr;

/**
 * The values of a statement's parameters for one run (a cached plan re-run with the literals of
 * a new text, or EXECUTE of a prepared statement): slot i is read by {@link Parameter} i. Flat
 * primitive arrays so that filling them for a point statement allocates nothing but text bytes.
 */
public final class ParamValues {
    public long[] longs;
    public double[] doubles;
    public byte[][] texts;
    public boolean[] nulls;
    private int size;
    /**
     * Moves on every {@link #reset}: one number per run, so what an expression derives from the
     * values (an IN list's hash set) is rebuilt once per run, not per row.
     */
    public int run;

    public ParamValues(int capacity) {
        resize(Math.max(capacity, 1));
    }

    private void resize(int n) {
        longs = new long[n];
        doubles = new double[n];
        texts = new byte[n][];
        nulls = new boolean[n];
    }

    /** Makes room for {@code n} values (old values are dropped). */
    public void reset(int n) {
        if (longs.length < n) {
            resize(n);
        }
        size = n;
        run++;
    }

    public int size() {
        return size;
    }

    public void setLong(int i, long v) {
        longs[i] = v;
        doubles[i] = v;
        nulls[i] = false;
    }

    public void setDouble(int i, double v) {
        doubles[i] = v;
        longs[i] = (long) v;
        nulls[i] = false;
    }

    public void setText(int i, byte[] utf8) {
        texts[i] = utf8;
        nulls[i] = false;
    }

    public void setNull(int i) {
        nulls[i] = true;
    }
}
