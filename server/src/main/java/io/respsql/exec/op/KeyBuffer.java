package io.respsql.exec.op;

import io.respsql.expr.Numeric;
import it.unimi.dsi.fastutil.HashCommon;

import java.util.Arrays;

/**
 * The key values of one tuple, reused for every tuple of a run: longs (doubles as their
 * canonical bits), NULL flags, and TEXT bytes copied into a private arena (an expression's text
 * is valid only until it is evaluated again).
 */
public final class KeyBuffer {
    final byte[] kinds;
    final long[] vals;
    final boolean[] nulls;
    final int[] lens;
    /**
     * Per TEXT key, how many of its bytes count for equality and hashing: all of them, except for a
     * NUMERIC key ({@link #setNumeric}), whose bytes are its match key followed by the text it shows.
     */
    final int[] cuts;
    byte[] text = new byte[64];
    private int textUsed;
    private boolean anyNull;

    public KeyBuffer(byte[] kinds) {
        this.kinds = kinds;
        this.vals = new long[kinds.length];
        this.nulls = new boolean[kinds.length];
        this.lens = new int[kinds.length];
        this.cuts = new int[kinds.length];
    }

    public int width() {
        return kinds.length;
    }

    /** Forgets the previous tuple's values (text space and the NULL summary). */
    public void reset() {
        textUsed = 0;
        anyNull = false;
    }

    public void setLong(int j, long v) {
        vals[j] = v;
        nulls[j] = false;
    }

    public void setDouble(int j, double d) {
        vals[j] = bits(d);
        nulls[j] = false;
    }

    /** {@code b} may be null when {@code len} is 0 (storage keeps no array for an empty string). */
    public void setText(int j, byte[] b, int off, int len) {
        if (textUsed + len > text.length) {
            text = Arrays.copyOf(text, Math.max(text.length * 2, textUsed + len));
        }
        if (len > 0) {
            System.arraycopy(b, off, text, textUsed, len);
        }
        vals[j] = textUsed;
        lens[j] = len;
        cuts[j] = len;
        textUsed += len;
        nulls[j] = false;
    }

    /**
     * A NUMERIC value as a TEXT-carried key: equal by value ({@link Numeric#writeKey}: 1.0 = 1.00),
     * and, when {@code shown}, followed by its own text, which a group's or a set operation's
     * output takes from the first tuple of its key (PostgreSQL prints the first value it saw).
     * Allocates nothing once warm, up to 18 digits.
     */
    public void setNumeric(int j, long u, int scale, java.math.BigDecimal big, boolean shown) {
        int k = Numeric.writeKey(u, scale, big, text, textUsed);
        if (k < 0) {
            text = Arrays.copyOf(text, Math.max(text.length * 2, textUsed - k));
            k = Numeric.writeKey(u, scale, big, text, textUsed);
        }
        int t = 0;
        if (shown) {
            t = Numeric.writeText(u, scale, big, text, textUsed + k);
            if (t < 0) {
                text = Arrays.copyOf(text, Math.max(text.length * 2, textUsed + k - t));
                t = Numeric.writeText(u, scale, big, text, textUsed + k);
            }
        }
        vals[j] = textUsed;
        lens[j] = k + t;
        cuts[j] = k;
        textUsed += k + t;
        nulls[j] = false;
    }

    public void setNull(int j) {
        vals[j] = 0;
        lens[j] = 0;
        cuts[j] = 0;
        nulls[j] = true;
        anyNull = true;
    }

    /** Some key is NULL (a join key that can match nothing). */
    public boolean anyNull() {
        return anyNull;
    }

    public boolean isNull(int j) {
        return nulls[j];
    }

    public long getLong(int j) {
        return vals[j];
    }

    public double getDouble(int j) {
        return Double.longBitsToDouble(vals[j]);
    }

    /** Hash of all values, NULL hashing alike; equal keys (as {@link KeyStore#equalsBuffer}) hash alike. */
    public int hash() {
        long h = 0x9E3779B97F4A7C15L;
        for (int j = 0; j < kinds.length; j++) {
            long x;
            if (nulls[j]) {
                x = 0x5DEECE66DL;
            } else if (kinds[j] == Keys.TEXT) {
                x = hashBytes(text, (int) vals[j], cuts[j]);
            } else {
                x = vals[j];
            }
            h = HashCommon.mix(h * 31 + x);
        }
        return (int) (h ^ (h >>> 32));
    }

    /** Eight bytes a step (a byte-at-a-time chain was a tenth of GROUP BY's time on text keys), then the tail. */
    static long hashBytes(byte[] b, int off, int len) {
        long h = len;
        int i = off;
        for (int end = off + len - 7; i < end; i += 8) {
            h = HashCommon.mix(h ^ (long) LONGS.get(b, i));
        }
        for (int end = off + len; i < end; i++) {
            h = h * 31 + b[i];
        }
        return h;
    }

    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /** Doubles as their bits with -0.0 folded into 0.0 and one NaN, so bitwise equality is value equality. */
    static long bits(double d) {
        return d == 0.0 ? 0L : Double.doubleToLongBits(d);
    }
}
