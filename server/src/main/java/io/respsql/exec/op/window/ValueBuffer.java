package io.respsql.exec.op.window;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.Numeric;
import io.respsql.expr.SqlType;

import java.util.Arrays;

/**
 * One expression's value for every buffered tuple, in primitive arrays (no object per row):
 * longs for long-carried types, doubles for DOUBLE, TEXT as slices of one byte arena, NUMERIC as
 * unscaled longs and scales (a BigDecimal only for a value past 18 digits). A
 * constant expression is evaluated once and stored once. After the sort, {@link #permute}
 * puts the values in sorted order so the compute loops index them directly.
 */
final class ValueBuffer {
    /** NUMERIC: the unscaled long and scale per value, a BigDecimal beside them for a value past the long form. */
    enum Kind { LONG, DOUBLE, TEXT, NUMERIC }

    private static final int INITIAL = 64;

    final Expression expr;
    final Kind kind;
    private final boolean constant;
    private int size;
    private long[] longs;
    private double[] doubles;
    private byte[] arena;
    private int arenaUsed;
    private int[] offsets;
    private int[] lengths;
    /** Null per value; allocated at the first NULL. Entries at and past {@code size} are not meaningful. */
    private boolean[] nulls;
    /** NUMERIC: each value's scale, and its BigDecimal when it left the long form (allocated at the first such value). */
    private int[] scales;
    private java.math.BigDecimal[] bigs;
    private int[] spareScales;
    private java.math.BigDecimal[] spareBigs;
    /** Scratch for NUMERIC conversions (not the statement's context). */
    private EvalContext tmp;
    /**
     * {@link #permute}'s targets, swapped with the live arrays: a grouped run permutes once or
     * twice per partition, and double-buffering keeps that (and the appends after it, which
     * find the capacity already there) free of allocation once the arrays have grown.
     */
    private long[] spareLongs;
    private double[] spareDoubles;
    private int[] spareOffsets;
    private int[] spareLengths;
    private boolean[] spareNulls;

    ValueBuffer(Expression expr) {
        this.expr = expr;
        this.kind = kindOf(expr.type());
        this.constant = expr.isConstant();
        int cap = constant ? 1 : INITIAL;
        switch (kind) {
            case LONG:
                longs = new long[cap];
                break;
            case DOUBLE:
                doubles = new double[cap];
                break;
            case NUMERIC:
                longs = new long[cap];
                scales = new int[cap];
                tmp = new EvalContext(1);
                break;
            default:
                offsets = new int[cap];
                lengths = new int[cap];
                arena = new byte[constant ? 16 : 1024];
        }
    }

    static Kind kindOf(SqlType t) {
        if (t == SqlType.DOUBLE) {
            return Kind.DOUBLE;
        }
        if (t == SqlType.NUMERIC) {
            return Kind.NUMERIC;
        }
        return t.isTextCarried() ? Kind.TEXT : Kind.LONG;
    }

    /** Evaluates the expression for the tuple now in {@code ctx} and appends its value. */
    void append(EvalContext ctx) {
        if (constant && size == 1) {
            return;
        }
        int i = size;
        if (!constant && i == capacity()) {
            grow();
        }
        if (expr.type() == SqlType.NULL) {
            setNull(i);
            size++;
            return;
        }
        switch (kind) {
            case LONG: {
                long v = expr.evalLong(ctx);
                if (ctx.isNull) {
                    setNull(i);
                } else {
                    longs[i] = v;
                    clearNull(i);
                }
                break;
            }
            case DOUBLE: {
                double v = expr.evalDouble(ctx);
                if (ctx.isNull) {
                    setNull(i);
                } else {
                    doubles[i] = v;
                    clearNull(i);
                }
                break;
            }
            case NUMERIC: {
                long v = expr.evalNumeric(ctx);
                if (ctx.isNull) {
                    setNull(i);
                } else {
                    longs[i] = v;
                    scales[i] = ctx.numScale;
                    if (ctx.numBig != null && bigs == null) {
                        bigs = new java.math.BigDecimal[longs.length];
                    }
                    if (bigs != null) {
                        bigs[i] = ctx.numBig;
                    }
                    clearNull(i);
                }
                break;
            }
            default: {
                byte[] b = expr.evalText(ctx);
                if (ctx.isNull) {
                    setNull(i);
                } else {
                    clearNull(i);
                    int len = ctx.textLength;
                    if (arenaUsed + len > arena.length) {
                        arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + len));
                    }
                    System.arraycopy(b, ctx.textOffset, arena, arenaUsed, len);
                    offsets[i] = arenaUsed;
                    lengths[i] = len;
                    arenaUsed += len;
                }
            }
        }
        size++;
    }

    private int capacity() {
        return kind == Kind.LONG || kind == Kind.NUMERIC ? longs.length : kind == Kind.DOUBLE ? doubles.length : offsets.length;
    }

    private void grow() {
        int cap = capacity() * 2;
        switch (kind) {
            case LONG:
                longs = Arrays.copyOf(longs, cap);
                break;
            case DOUBLE:
                doubles = Arrays.copyOf(doubles, cap);
                break;
            case NUMERIC:
                longs = Arrays.copyOf(longs, cap);
                scales = Arrays.copyOf(scales, cap);
                if (bigs != null) {
                    bigs = Arrays.copyOf(bigs, cap);
                }
                break;
            default:
                offsets = Arrays.copyOf(offsets, cap);
                lengths = Arrays.copyOf(lengths, cap);
        }
        if (nulls != null) {
            nulls = Arrays.copyOf(nulls, cap);
        }
    }

    private void setNull(int i) {
        if (nulls == null) {
            nulls = new boolean[constant ? 1 : capacity()];
        }
        nulls[i] = true;
    }

    /** Entries are reused (permute's spare arrays, a grouped run's next partition): a non-NULL value says so. */
    private void clearNull(int i) {
        if (nulls != null) {
            nulls[i] = false;
        }
    }

    /**
     * Reorders the values: value {@code i} becomes the old value {@code perm[i]}. Writes into the
     * spare arrays (grown to the live ones' capacity) and swaps them in, so nothing is allocated
     * once both have grown and the capacity the appends need is kept.
     */
    void permute(int[] perm, int n) {
        if (constant) {
            return;
        }
        int cap = Math.max(capacity(), n);
        switch (kind) {
            case LONG: {
                long[] p = spareLongs == null || spareLongs.length < cap ? new long[cap] : spareLongs;
                long[] v = longs;
                for (int i = 0; i < n; i++) {
                    p[i] = v[perm[i]];
                }
                spareLongs = v;
                longs = p;
                break;
            }
            case NUMERIC: {
                long[] p = spareLongs == null || spareLongs.length < cap ? new long[cap] : spareLongs;
                int[] ps = spareScales == null || spareScales.length < cap ? new int[cap] : spareScales;
                long[] v = longs;
                int[] vs = scales;
                for (int i = 0; i < n; i++) {
                    p[i] = v[perm[i]];
                    ps[i] = vs[perm[i]];
                }
                spareLongs = v;
                longs = p;
                spareScales = vs;
                scales = ps;
                if (bigs != null) {
                    java.math.BigDecimal[] pb = spareBigs == null || spareBigs.length < cap ? new java.math.BigDecimal[cap] : spareBigs;
                    java.math.BigDecimal[] vb = bigs;
                    for (int i = 0; i < n; i++) {
                        pb[i] = vb[perm[i]];
                    }
                    spareBigs = vb;
                    bigs = pb;
                }
                break;
            }
            case DOUBLE: {
                double[] p = spareDoubles == null || spareDoubles.length < cap ? new double[cap] : spareDoubles;
                double[] v = doubles;
                for (int i = 0; i < n; i++) {
                    p[i] = v[perm[i]];
                }
                spareDoubles = v;
                doubles = p;
                break;
            }
            default: {
                int[] o = spareOffsets == null || spareOffsets.length < cap ? new int[cap] : spareOffsets;
                int[] l = spareLengths == null || spareLengths.length < cap ? new int[cap] : spareLengths;
                int[] vo = offsets;
                int[] vl = lengths;
                for (int i = 0; i < n; i++) {
                    o[i] = vo[perm[i]];
                    l[i] = vl[perm[i]];
                }
                spareOffsets = vo;
                spareLengths = vl;
                offsets = o;
                lengths = l;
            }
        }
        if (nulls != null) {
            cap = capacity(); // the appends index nulls up to the live arrays' capacity
            boolean[] p = spareNulls == null || spareNulls.length < cap ? new boolean[cap] : spareNulls;
            boolean[] v = nulls;
            for (int i = 0; i < n; i++) {
                p[i] = v[perm[i]];
            }
            spareNulls = v;
            nulls = p;
        }
        size = n;
    }

    private int at(int i) {
        return constant ? 0 : i;
    }

    boolean isNull(int i) {
        return nulls != null && nulls[at(i)];
    }

    /** No value is NULL (lets loops skip the check). */
    boolean hasNoNulls() {
        return nulls == null;
    }

    long getLong(int i) {
        return longs[at(i)];
    }

    /** The value as a double (a long-carried or NUMERIC value converted). */
    double getDouble(int i) {
        if (kind == Kind.NUMERIC) {
            int a = at(i);
            tmp.numScale = scales[a];
            tmp.numBig = bigs == null ? null : bigs[a];
            return Numeric.doubleOf(longs[a], tmp);
        }
        return kind == Kind.DOUBLE ? doubles[at(i)] : (double) longs[at(i)];
    }

    /** NUMERIC: the scale of value {@code i} (its unscaled long is {@link #getLong}). */
    int numScale(int i) {
        return scales[at(i)];
    }

    /** NUMERIC: value {@code i} as a BigDecimal when it left the long form (or NaN), else null. */
    java.math.BigDecimal numBig(int i) {
        return bigs == null ? null : bigs[at(i)];
    }

    byte[] textBytes() {
        return arena;
    }

    int textOffset(int i) {
        return offsets[at(i)];
    }

    int textLength(int i) {
        return lengths[at(i)];
    }

    /** Compares two non-NULL values (TEXT bytewise unsigned; -0.0 equals 0.0, NaN above all, as PostgreSQL). */
    int compare(int i, int j) {
        switch (kind) {
            case LONG:
                return Long.compare(longs[at(i)], longs[at(j)]);
            case DOUBLE:
                return compareDoubles(doubles[at(i)], doubles[at(j)]);
            case NUMERIC: {
                int a = at(i);
                int b = at(j);
                return Numeric.compare(longs[a], scales[a], bigs == null ? null : bigs[a], longs[b], scales[b], bigs == null ? null : bigs[b]);
            }
            default: {
                int a = at(i);
                int b = at(j);
                return Arrays.compareUnsigned(arena, offsets[a], offsets[a] + lengths[a], arena, offsets[b], offsets[b] + lengths[b]);
            }
        }
    }

    static int compareDoubles(double a, double b) {
        if (a < b) {
            return -1;
        }
        if (a > b) {
            return 1;
        }
        if (a == b) {
            return 0;
        }
        return Boolean.compare(Double.isNaN(a), Double.isNaN(b));
    }

    /**
     * A long whose signed order is the sort order of this non-NULL value (for radix sorting):
     * equal exactly when the values compare equal (-0.0 as 0.0, every NaN alike and above all).
     */
    long sortKey(int i, boolean descending) {
        long k;
        if (kind == Kind.DOUBLE) {
            double d = doubles[at(i)];
            long bits = Double.doubleToLongBits(d == 0 ? 0.0 : d);
            k = bits < 0 ? bits ^ Long.MAX_VALUE : bits;
        } else {
            k = longs[at(i)];
        }
        return descending ? ~k : k;
    }

    /** Sort order of two values, NULLs placed as asked: for sorting. */
    int compareForSort(int i, int j, boolean descending, boolean nullsFirst) {
        if (nulls != null) {
            boolean ni = nulls[at(i)];
            boolean nj = nulls[at(j)];
            if (ni || nj) {
                if (ni == nj) {
                    return 0;
                }
                return ni == nullsFirst ? -1 : 1;
            }
        }
        int c = compare(i, j);
        return descending ? -c : c;
    }

    /**
     * A hash of value {@code i} consistent with {@link #same} (NULLs alike; -0.0 as 0.0, every NaN
     * alike, through {@link #sortKey}): for grouping rows by partition without sorting them.
     */
    int hash(int i) {
        if (nulls != null && nulls[at(i)]) {
            return 0x5bd1e995;
        }
        long h;
        if (kind == Kind.NUMERIC) {
            double d = getDouble(i); // equal values (1.0, 1.00) are one double; every NaN alike
            h = Double.isNaN(d) ? 0x7ff8000000000000L : Double.doubleToLongBits(d == 0 ? 0.0 : d);
        } else if (kind == Kind.TEXT) {
            int a = at(i);
            h = 1;
            for (int p = offsets[a], e = p + lengths[a]; p < e; p++) {
                h = 31 * h + arena[p];
            }
        } else {
            h = sortKey(i, false);
        }
        h *= 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /**
     * Moves value {@code i} to position 0 and forgets the others (a grouped window run keeps the
     * row that opened the next partition while it drops the finished one).
     */
    void keepOnly(int i) {
        if (constant) {
            return;
        }
        boolean wasNull = nulls != null && nulls[i];
        switch (kind) {
            case LONG:
                longs[0] = longs[i];
                break;
            case DOUBLE:
                doubles[0] = doubles[i];
                break;
            case NUMERIC:
                longs[0] = longs[i];
                scales[0] = scales[i];
                if (bigs != null) {
                    bigs[0] = bigs[i];
                }
                break;
            default: {
                int len = lengths[i];
                System.arraycopy(arena, offsets[i], arena, 0, len);
                offsets[0] = 0;
                lengths[0] = len;
                arenaUsed = len;
            }
        }
        if (nulls != null) {
            nulls[0] = wasNull; // the entries after it are rewritten by the appends
        }
        size = 1;
    }

    /** Same value, NULL equal to NULL: for partition and peer boundaries. */
    boolean same(int i, int j) {
        if (nulls != null) {
            boolean ni = nulls[at(i)];
            boolean nj = nulls[at(j)];
            if (ni || nj) {
                return ni == nj;
            }
        }
        return compare(i, j) == 0;
    }
}
