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
    /** ROWS, GROUPS and RANGE over an integer key: the offsets (0 start, 1 end). */
    private final long[] offN = new long[2];
    /** RANGE over a DOUBLE key. */
    private final double[] offD = new double[2];
    /** RANGE over a NUMERIC key: the offsets' long form, scale, BigDecimal. */
    private final long[] offU = new long[2];
    private final int[] offS = new int[2];
    private final java.math.BigDecimal[] offB = new java.math.BigDecimal[2];
    /** RANGE over a DATE or TIMESTAMP key: the INTERVAL offsets. */
    private final long[] offMonths = new long[2];
    private final long[] offDays = new long[2];
    private final long[] offMicros = new long[2];
    private final long startN;
    private final long endN;
    private final KeyType keyType;
    /** A RANGE offset PostgreSQL's in_range rejects (negative, NaN): the error of the first comparison. */
    private final String[] badRange = new String[2];
    /** Scratch for NUMERIC sums. */
    private final EvalContext tmp = new EvalContext(1);

    /** The ORDER BY key's type, for RANGE with an offset. */
    enum KeyType { INTEGER, DOUBLE, NUMERIC, DATE, TIMESTAMP }

    // The current row's bound (set by prepare): PostgreSQL's in_range(val, base, offset, sub, less).
    private boolean less;
    private boolean constantAnswer;
    private boolean answer;
    private long sumN;
    private double sumD;
    private boolean baseNaN;
    private boolean infinite;
    private long sumU;
    private int sumS;
    private java.math.BigDecimal sumB;

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
        this.keyType = rangeOffset ? keyType(key.expr.type()) : KeyType.INTEGER;
        offset(frame.startOffset(), "starting", ctx, 0);
        offset(frame.endOffset(), "ending", ctx, 1);
        startN = offN[0];
        endN = offN[1];
    }

    /** The key types RANGE with an offset takes (the planner checked), by the offset type they want. */
    static KeyType keyType(SqlType t) {
        switch (t) {
            case INT:
            case BIGINT:
                return KeyType.INTEGER;
            case DOUBLE:
                return KeyType.DOUBLE;
            case NUMERIC:
                return KeyType.NUMERIC;
            case DATE:
                return KeyType.DATE;
            case TIMESTAMP:
                return KeyType.TIMESTAMP;
            default:
                return null;
        }
    }

    /** Evaluates offset {@code at} (once per run) as the frame's unit and key want it; PostgreSQL's checks. */
    private void offset(Expression e, String which, EvalContext ctx, int at) {
        if (e == null) {
            return;
        }
        if (e.type() == SqlType.NULL) {
            throw new SqlException(SqlState.NULL_VALUE_NOT_ALLOWED, "frame " + which + " offset must not be null");
        }
        boolean negative;
        boolean range = key != null;
        boolean text = e.type() == SqlType.TEXT; // a quoted literal: PostgreSQL reads it as the offset type the key wants
        KeyType kt = range ? keyType : KeyType.INTEGER;
        switch (kt) {
            case DOUBLE: {
                double d;
                if (text) {
                    byte[] b = e.evalText(ctx);
                    d = ctx.isNull ? 0 : parseDouble(new String(b, ctx.textOffset, ctx.textLength, java.nio.charset.StandardCharsets.UTF_8), e);
                } else {
                    d = e.evalDouble(ctx);
                }
                offD[at] = d;
                negative = d < 0 || Double.isNaN(d);
                break;
            }
            case NUMERIC: {
                long u;
                if (text) {
                    byte[] b = e.evalText(ctx);
                    u = ctx.isNull ? 0 : io.respsql.expr.Numeric.parseForColumn(ctx, b, ctx.textOffset, ctx.textLength, -1);
                } else {
                    u = e.evalNumeric(ctx);
                }
                offU[at] = u;
                offS[at] = ctx.numScale;
                offB[at] = ctx.numBig;
                negative = !ctx.isNull && (ctx.numBig == io.respsql.expr.Numeric.NAN
                        || (ctx.numBig != null ? ctx.numBig.signum() < 0 : u < 0));
                break;
            }
            case DATE:
            case TIMESTAMP: {
                byte[] b = e.evalText(ctx);
                if (ctx.isNull) {
                    negative = false;
                    break;
                }
                int off = ctx.textOffset;
                if (text) {
                    b = io.respsql.expr.Interval.parse(new String(b, off, ctx.textLength, java.nio.charset.StandardCharsets.UTF_8));
                    off = 0;
                }
                offMonths[at] = io.respsql.expr.Interval.months(b, off);
                offDays[at] = io.respsql.expr.Interval.days(b, off);
                offMicros[at] = io.respsql.expr.Interval.micros(b, off);
                // PostgreSQL's interval_sign: months as 30 days, days as 24 hours
                double span = (offMonths[at] * 30.0 + offDays[at]) * io.respsql.expr.Temporal.MICROS_PER_DAY + offMicros[at];
                negative = span < 0;
                break;
            }
            default:
                if (e.type() == SqlType.NUMERIC) { // PostgreSQL's assignment cast to bigint: rounded
                    long u = e.evalNumeric(ctx);
                    offN[at] = ctx.isNull ? 0 : io.respsql.expr.Numeric.longOf(u, ctx, 64);
                } else if (e.type() == SqlType.DOUBLE) {
                    double d = e.evalDouble(ctx);
                    if (!ctx.isNull && (Double.isNaN(d) || Math.abs(d) >= 0x1p63)) {
                        throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range: " + e.describe());
                    }
                    offN[at] = (long) Math.rint(d);
                } else {
                    offN[at] = e.evalLong(ctx);
                }
                negative = offN[at] < 0;
        }
        if (ctx.isNull) {
            throw new SqlException(SqlState.NULL_VALUE_NOT_ALLOWED, "frame " + which + " offset must not be null");
        }
        if (negative && range) {
            // PostgreSQL's in_range checks the offset when it compares rows: over no rows (or NULL keys only) no error
            badRange[at] = "invalid preceding or following size in window function: " + e.describe();
        } else if (negative) {
            throw new SqlException(SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE, "frame " + which + " offset must not be negative: " + e.describe());
        }
    }

    /** PostgreSQL's float8in for an offset written as a quoted literal ('inf', '1.5'). */
    private static double parseDouble(String t, Expression e) {
        String v = t.trim().toLowerCase(java.util.Locale.ROOT);
        switch (v) {
            case "inf":
            case "+inf":
            case "infinity":
            case "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf":
            case "-infinity":
                return Double.NEGATIVE_INFINITY;
            case "nan":
                return Double.NaN;
            default:
                try {
                    return Double.parseDouble(v);
                } catch (NumberFormatException x) {
                    throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type double precision: \"" + t + "\"");
                }
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
     * A RANGE offset bound of row {@code i}: for a frame start the first row PostgreSQL's in_range
     * puts in the frame, for a frame end the first row after it (exclusive end); found by binary
     * search among the partition's non-NULL keys (in_range is monotone along the sort order).
     */
    private int rangeBound(int i, boolean preceding, boolean isStart) {
        if (key.isNull(i)) {
            return isStart ? peerStart[i] : peerEnd[i];
        }
        // PostgreSQL's flags: subtract the offset for PRECEDING, want rows >= the sum for a start
        // (<= for an end); a descending key flips both.
        boolean sub = preceding != descending;
        less = isStart == descending;
        int at = isStart ? 0 : 1;
        if (badRange[at] != null && nnEnd > nnStart) {
            throw new SqlException(SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE, badRange[at]);
        }
        prepare(i, at, sub);
        int lo = nnStart;
        int hi = nnEnd;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            boolean in = inRange(mid);
            // Start: first row in range (the rows before are not); end: first row no longer in range.
            if (isStart == in) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** Computes base +- offset {@code at} for row {@code i} (PostgreSQL's in_range_* before the comparison). */
    private void prepare(int i, int at, boolean sub) {
        constantAnswer = false;
        switch (keyType) {
            case INTEGER: {
                long base = key.getLong(i);
                long o = sub ? -offN[at] : offN[at];
                long sum = base + o;
                if (((base ^ sum) & (o ^ sum)) < 0) {
                    // Overflow: the true sum is past every value, so the answer is the same for all.
                    constantAnswer = true;
                    answer = sub ? !less : less;
                }
                sumN = sum;
                return;
            }
            case DOUBLE: {
                double base = key.getDouble(i);
                double off = offD[at];
                baseNaN = Double.isNaN(base);
                // +inf infinitely precedes +inf and -inf infinitely follows -inf: every non-NaN value is in range
                infinite = Double.isInfinite(off) && Double.isInfinite(base) && (sub ? base > 0 : base < 0);
                sumD = sub ? base - off : base + off;
                return;
            }
            case NUMERIC: {
                java.math.BigDecimal bb = key.numBig(i);
                baseNaN = bb == io.respsql.expr.Numeric.NAN;
                if (!baseNaN) {
                    sumU = io.respsql.expr.Numeric.add(tmp, key.getLong(i), key.numScale(i), bb, offU[at], offS[at], offB[at], sub);
                    sumS = tmp.numScale;
                    sumB = tmp.numBig;
                }
                return;
            }
            default: { // DATE, TIMESTAMP
                long base = key.getLong(i);
                if (keyType == KeyType.DATE) {
                    base *= io.respsql.expr.Temporal.MICROS_PER_DAY;
                }
                sumN = sub ? io.respsql.expr.Interval.addToTimestamp(base, -offMonths[at], -offDays[at], -offMicros[at])
                        : io.respsql.expr.Interval.addToTimestamp(base, offMonths[at], offDays[at], offMicros[at]);
            }
        }
    }

    /** PostgreSQL's in_range for the key of row {@code j} against the prepared sum. */
    private boolean inRange(int j) {
        if (constantAnswer) {
            return answer;
        }
        switch (keyType) {
            case INTEGER: {
                long v = key.getLong(j);
                return less ? v <= sumN : v >= sumN;
            }
            case DOUBLE: {
                double v = key.getDouble(j);
                if (Double.isNaN(v)) {
                    return baseNaN || !less; // NaN = NaN, NaN above every number
                }
                if (baseNaN) {
                    return less;
                }
                if (infinite) {
                    return true;
                }
                return less ? v <= sumD : v >= sumD;
            }
            case NUMERIC: {
                java.math.BigDecimal vb = key.numBig(j);
                boolean valNaN = vb == io.respsql.expr.Numeric.NAN;
                if (valNaN) {
                    return baseNaN || !less;
                }
                if (baseNaN) {
                    return less;
                }
                int c = io.respsql.expr.Numeric.compare(key.getLong(j), key.numScale(j), vb, sumU, sumS, sumB);
                return less ? c <= 0 : c >= 0;
            }
            default: {
                long v = key.getLong(j);
                if (keyType == KeyType.DATE) {
                    v *= io.respsql.expr.Temporal.MICROS_PER_DAY;
                }
                return less ? v <= sumN : v >= sumN;
            }
        }
    }
}
