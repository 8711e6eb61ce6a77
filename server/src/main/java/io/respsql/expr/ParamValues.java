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
    /**
     * The text the values were read from and each value's span in it (a plan cache run), so that
     * a cached INSERT can store a number into a TEXT column as written ({@code 0005} stays
     * {@code 0005}); null when the values did not come from a text.
     */
    private CharSequence source;
    private int[] starts;
    private int[] ends;

    public ParamValues(int capacity) {
        resize(Math.max(capacity, 1));
    }

    private void resize(int n) {
        longs = new long[n];
        doubles = new double[n];
        texts = new byte[n][];
        nulls = new boolean[n];
        starts = new int[n];
        ends = new int[n];
    }

    /** Makes room for {@code n} values (old values are dropped). */
    public void reset(int n) {
        if (longs.length < n) {
            resize(n);
        }
        size = n;
        run++;
        source = null;
    }

    /** Value {@code i} was written as {@code text[start, end)}. */
    public void setSource(CharSequence text, int i, int start, int end) {
        source = text;
        starts[i] = start;
        ends[i] = end;
    }

    /** Value {@code i} as written in the statement's text; null when it did not come from a text. */
    public String sourceText(int i) {
        return source == null ? null : source.subSequence(starts[i], ends[i]).toString();
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
