package io.respsql.exec.op.window;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr.BoundKind;
import io.respsql.sql.tree.Expr.Exclusion;
import io.respsql.sql.tree.Expr.FrameUnit;

/**
 * The frame of each row of a partition, as row positions {@code [start, end)} in sorted order.
 * Per run: the offsets are evaluated once here. Both bounds never move backward as the current
 * row advances, which is what lets the aggregates slide (add at the end, remove at the start).
 *
 * <p>RANGE with an offset compares the single ORDER BY key: the frame starts at the first row
 * whose key is not before (current key moved back or forward by the offset, in the sort's
 * direction) and ends after the last row not past it; found by binary search among the
 * partition's non-NULL keys. As in PostgreSQL, a NULL key is in range only of NULL keys: a row
 * whose key is NULL has its NULL peers as the offset bounds, and NULL rows are never within an
 * offset of a non-NULL key.
 *
 * <p>GROUPS counts peer groups: each partition's groups are numbered once (O(rows)), so a bound
 * is an array lookup. EXCLUDE leaves out the current row, its peer group, or its peers but itself:
 * the frame is then {@code [start, aEnd)}, the current row when {@link #withCurrent}, and
 * {@code [bStart, end)}; all four positions still never move backward, so each part can slide.
 */
final class FrameBounds {
    private final WindowFrame frame;
    private final boolean rows;
    private final boolean groups;
    private final Exclusion exclude;
    /** GROUPS: each position's peer group number in its partition, and each group's first position (then the partition's end). */
    private int[] groupOf = new int[0];
    private int[] groupStarts = new int[0];
    private int groupCount;
    /** The batch's peer groups, set by {@link #bind}. */
    private int[] peerStart;
    private int[] peerEnd;
    /** The ORDER BY key, for RANGE with an offset; else null. */
    private final ValueBuffer key;
    private final boolean descending;
    private final boolean nullsFirst;
    private final long startN;
    private final long endN;
    private final double startD;
    private final double endD;

    private int ps;
    private int pe;
    /** The partition's rows whose order key is not NULL (RANGE with offset). */
    private int nnStart;
    private int nnEnd;

    /** Set by {@link #compute}: the current row's frame, {@code start <= end}. */
    int start;
    int end;
    /**
     * Set by {@link #compute}: with EXCLUDE, the frame's rows are {@code [start, aEnd)}, the current
     * row when {@code withCurrent} (EXCLUDE TIES), and {@code [bStart, end)}; without, aEnd and
     * bStart are {@code end} and withCurrent is false.
     */
    int aEnd;
    int bStart;
    boolean withCurrent;

    FrameBounds(WindowFrame frame, ValueBuffer key, WindowSortKey keySpec, EvalContext ctx) {
        this.frame = frame;
        this.rows = frame.unit() == FrameUnit.ROWS;
        this.groups = frame.unit() == FrameUnit.GROUPS;
        this.exclude = frame.exclude();
        boolean rangeOffset = frame.unit() == FrameUnit.RANGE && frame.hasOffset();
        this.key = rangeOffset ? key : null;
        this.descending = rangeOffset && keySpec.descending();
        this.nullsFirst = rangeOffset && keySpec.nullsFirst();
        boolean doubleKey = rangeOffset && key.kind == ValueBuffer.Kind.DOUBLE;
        long[] n = new long[2];
        double[] d = new double[2];
        offset(frame.startOffset(), "starting", doubleKey, ctx, n, d, 0);
        offset(frame.endOffset(), "ending", doubleKey, ctx, n, d, 1);
        startN = n[0];
        endN = n[1];
        startD = d[0];
        endD = d[1];
    }

    private static void offset(Expression e, String which, boolean asDouble, EvalContext ctx, long[] n, double[] d, int at) {
        if (e == null) {
            return;
        }
        boolean isNull;
        boolean negative;
        if (asDouble) {
            d[at] = e.type() == SqlType.NULL ? 0 : e.evalDouble(ctx);
            isNull = e.type() == SqlType.NULL || ctx.isNull;
            negative = d[at] < 0 || Double.isNaN(d[at]);
        } else {
            n[at] = e.type() == SqlType.NULL ? 0 : e.evalLong(ctx);
            isNull = e.type() == SqlType.NULL || ctx.isNull;
            negative = n[at] < 0;
        }
        if (isNull) {
            throw new SqlException(SqlState.NULL_VALUE_NOT_ALLOWED, "frame " + which + " offset must not be null");
        }
        if (negative) {
            throw new SqlException(SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE, "frame " + which + " offset must not be negative: " + e.describe());
        }
    }

    /** The peer groups of the batch about to be computed (a grouped run's scratch arrays, which may have grown). */
    void bind(int[] peerStart, int[] peerEnd) {
        this.peerStart = peerStart;
        this.peerEnd = peerEnd;
        if (groups && groupOf.length < peerStart.length) {
            groupOf = new int[peerStart.length];
            groupStarts = new int[peerStart.length + 1];
        }
    }

    /** The frame's row count (exclusions left out). */
    int size() {
        return (aEnd - start) + (withCurrent ? 1 : 0) + (end - bStart);
    }

    /** The frame's {@code n}-th row (0-based, {@code n < size()}), in window order. */
    int row(int n, int current) {
        int a = aEnd - start;
        if (n < a) {
            return start + n;
        }
        n -= a;
        if (withCurrent) {
            if (n == 0) {
                return current;
            }
            n--;
        }
        return bStart + n;
    }

    void partition(int partitionStart, int partitionEnd) {
        ps = partitionStart;
        pe = partitionEnd;
        if (groups) {
            int g = -1;
            for (int i = ps; i < pe; i++) {
                if (peerStart[i] == i || i == ps) {
                    groupStarts[++g] = i;
                }
                groupOf[i] = g;
            }
            groupCount = g + 1;
            groupStarts[groupCount] = pe;
        }
        if (key != null) {
            nnStart = ps;
            nnEnd = pe;
            if (!key.hasNoNulls()) {
                if (nullsFirst) {
                    while (nnStart < pe && key.isNull(nnStart)) {
                        nnStart++;
                    }
                } else {
                    while (nnEnd > ps && key.isNull(nnEnd - 1)) {
                        nnEnd--;
                    }
                }
            }
        }
    }

    void compute(int i) {
        int s;
        switch (frame.startKind()) {
            case UNBOUNDED_PRECEDING:
                s = ps;
                break;
            case CURRENT_ROW:
                s = rows ? i : peerStart[i];
                break;
            case PRECEDING:
                s = rows ? (startN >= i - ps ? ps : (int) (i - startN))
                        : groups ? (startN > groupOf[i] ? ps : groupStarts[(int) (groupOf[i] - startN)]) : rangeBound(i, true, true);
                break;
            default: // FOLLOWING
                s = rows ? (startN >= pe - i ? pe : (int) (i + startN))
                        : groups ? (startN >= groupCount - groupOf[i] ? pe : groupStarts[(int) (groupOf[i] + startN)]) : rangeBound(i, false, true);
        }
        int e;
        switch (frame.endKind()) {
            case UNBOUNDED_FOLLOWING:
                e = pe;
                break;
            case CURRENT_ROW:
                e = rows ? i + 1 : peerEnd[i];
                break;
            case PRECEDING:
                e = rows ? (endN > i - ps ? ps : (int) (i - endN + 1))
                        : groups ? (endN > groupOf[i] ? ps : groupStarts[(int) (groupOf[i] - endN) + 1]) : rangeBound(i, true, false);
                break;
            default: // FOLLOWING
                e = rows ? (endN >= pe - i ? pe : (int) (i + endN + 1))
                        : groups ? (endN >= groupCount - groupOf[i] ? pe : groupStarts[(int) (groupOf[i] + endN) + 1]) : rangeBound(i, false, false);
        }
        start = s;
        end = Math.max(s, e);
        switch (exclude) {
            case NO_OTHERS:
                aEnd = end;
                bStart = end;
                withCurrent = false;
                return;
            case CURRENT_ROW:
                excluded(i, i + 1);
                withCurrent = false;
                return;
            case GROUP:
                excluded(peerStart[i], peerEnd[i]);
                withCurrent = false;
                return;
            default: // TIES
                excluded(peerStart[i], peerEnd[i]);
                withCurrent = i >= start && i < end;
        }
    }

    /** Leaves rows {@code [xs, xe)} out of the frame. */
    private void excluded(int xs, int xe) {
        aEnd = Math.min(end, Math.max(start, xs));
        bStart = Math.max(aEnd, Math.min(end, xe));
    }

    /**
     * A RANGE offset bound of row {@code i}: for a frame start the first row whose key is not
     * before the target, for a frame end the first row after it (exclusive end).
     */
    private int rangeBound(int i, boolean preceding, boolean isStart) {
        if (key.isNull(i)) {
            return isStart ? peerStart[i] : peerEnd[i];
        }
        // Moving back in sort order is toward smaller keys ascending, larger keys descending.
        boolean towardSmaller = preceding != descending;
        if (key.kind == ValueBuffer.Kind.DOUBLE) {
            double off = isStart ? startD : endD;
            double v = key.getDouble(i);
            double target = towardSmaller ? v - off : v + off;
            int lo = nnStart;
            int hi = nnEnd;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                int c = ValueBuffer.compareDoubles(key.getDouble(mid), target);
                if (descending) {
                    c = -c;
                }
                // Start: first not before the target (c >= 0); end: first past it (c > 0).
                if (isStart ? c >= 0 : c > 0) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return lo;
        }
        long off = isStart ? startN : endN;
        long v = key.getLong(i);
        long target = towardSmaller ? saturatedSub(v, off) : saturatedAdd(v, off);
        int lo = nnStart;
        int hi = nnEnd;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compare(key.getLong(mid), target);
            if (descending) {
                c = -c;
            }
            if (isStart ? c >= 0 : c > 0) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** {@code v - n} for {@code n >= 0}, MIN_VALUE when it would overflow (every key is then in range). */
    private static long saturatedSub(long v, long n) {
        long r = v - n;
        return ((v ^ n) & (v ^ r)) < 0 ? Long.MIN_VALUE : r;
    }

    private static long saturatedAdd(long v, long n) {
        long r = v + n;
        return ((v ^ r) & (n ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
