package io.respsql.exec.op.window;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Numeric;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.math.BigDecimal;

/**
 * SUM, AVG, COUNT(*), COUNT(x), MIN and MAX over each row's frame. Frames only move forward, so
 * one window of rows {@code [ws, we)} is kept per partition: rows entering the frame are added,
 * rows leaving it removed (O(1) each; MIN/MAX through a monotonic deque of candidate rows), and a
 * frame disjoint from the last restarts the state. A frame starting at UNBOUNDED PRECEDING never
 * removes: a running aggregate. The whole pass over a partition is O(rows), allocation-free.
 *
 * <p>Integer sums are kept in 128 bits, so adding and removing never overflow midway; a result
 * outside BIGINT is an error (PostgreSQL's SUM(bigint) is NUMERIC and would not be). DOUBLE sums
 * add in row order when nothing is ever removed (PostgreSQL's order and rounding); frames that
 * remove use a compensated sum, with infinities and NaN counted apart, so removing a large value
 * leaves no cancellation error (within the last bits of PostgreSQL's re-aggregation).
 *
 * <p>NUMERIC sums are exact (the long form while it fits 18 digits: no allocation per row) and
 * print at the largest scale among the frame's values, as PostgreSQL's (whose inverse transition
 * restarts when the last value of that scale leaves); AVG of NUMERIC and (PostgreSQL's dialect)
 * of integers divides that sum at PostgreSQL's division scale.
 *
 * <p>With EXCLUDE the frame is two runs around the excluded rows (and the current row for EXCLUDE
 * TIES): each run slides on its own state ({@link Slide}), and the result combines both.
 */
final class FrameAggregateEvaluator extends WindowEvaluator {
    private static final double TWO_64 = 18446744073709551616.0;

    private final WindowFunctionKind kind;
    /** The argument; null for COUNT(*). */
    private final ValueBuffer value;
    private final FrameBounds bounds;
    private final boolean doubles;
    private final boolean numerics;
    /** The result is NUMERIC (SUM/AVG of NUMERIC, AVG of integers in PostgreSQL's dialect). */
    private final boolean numericResult;
    private final boolean running;
    /** Scratch for NUMERIC arithmetic (not the statement's context). */
    private final EvalContext tmp = new EvalContext(1);
    private static final long[] POW10 = new long[19];

    static {
        long p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
    }
    private final boolean min;
    /** The frame's rows before the excluded ones (all of them without EXCLUDE), and after them. */
    private final Slide a;
    private final Slide b;

    FrameAggregateEvaluator(WindowFunctionKind kind, ResultColumn out, ValueBuffer value, FrameBounds bounds,
                            boolean running, boolean numericResult) {
        super(out);
        this.kind = kind;
        this.value = value;
        this.bounds = bounds;
        this.doubles = value != null && value.kind == ValueBuffer.Kind.DOUBLE;
        this.numerics = value != null && value.kind == ValueBuffer.Kind.NUMERIC;
        this.numericResult = numericResult;
        this.running = running;
        this.min = kind == WindowFunctionKind.MIN;
        boolean minMax = kind == WindowFunctionKind.MIN || kind == WindowFunctionKind.MAX;
        this.a = new Slide(minMax);
        this.b = new Slide(minMax);
    }

    @Override
    void bind(int[] outRows, int[] peerStart, int[] peerEnd, int rows) {
        super.bind(outRows, peerStart, peerEnd, rows);
        bounds.bind(peerStart, peerEnd);
        a.grow(rows);
        b.grow(rows);
    }

    @Override
    void partition(int ps, int pe) {
        bounds.partition(ps, pe);
        a.reset(ps);
        b.reset(ps);
        for (int i = ps; i < pe; i++) {
            bounds.compute(i);
            int row = outRows[i];
            if (kind == WindowFunctionKind.COUNT_STAR) {
                out.setLong(row, bounds.size());
                continue;
            }
            a.slide(bounds.start, bounds.aEnd);
            b.slide(bounds.bStart, bounds.end);
            emit(row, bounds.withCurrent ? i : -1);
        }
    }

    /**
     * The aggregate state of one run of rows {@code [ws, we)} whose ends never move backward: rows
     * entering are added, rows leaving removed, a run disjoint from the last restarts.
     */
    private final class Slide {
        /** MIN/MAX's candidate rows (null for the others), grown to the batch at {@link #grow}. */
        int[] deque;
        int ws;
        int we;
        long count;
        long sumLo;
        long sumHi;
        double dsum;
        double dcomp;
        int posInf;
        int negInf;
        int nan;
        int head;
        int tail;
        /** NUMERIC: the exact sum (long form, or big), how many values of each scale, the largest scale present. */
        long nU;
        int nS;
        BigDecimal nB;
        int[] scaleCounts;
        int maxScale;
        /** NUMERIC state was touched since the last reset. */
        boolean dirty;

        Slide(boolean minMax) {
            deque = minMax ? new int[16] : null;
        }

        void grow(int rows) {
            if (deque != null && deque.length < rows) {
                deque = new int[Math.max(rows, deque.length * 2)]; // holds at most a partition's rows
            }
        }

        void reset(int at) {
            ws = at;
            we = at;
            count = 0;
            sumLo = 0;
            sumHi = 0;
            dsum = 0;
            dcomp = 0;
            posInf = 0;
            negInf = 0;
            nan = 0;
            head = 0;
            tail = 0;
            if (dirty) {
                dirty = false;
                nU = 0;
                nS = 0;
                nB = null;
                if (scaleCounts != null) {
                    java.util.Arrays.fill(scaleCounts, 0);
                }
                maxScale = 0;
            }
        }

        private void addNumeric(int j, boolean subtract) {
            dirty = true;
            BigDecimal b = value.numBig(j);
            if (b == Numeric.NAN) {
                nan += subtract ? -1 : 1;
                return;
            }
            int sc = value.numScale(j);
            nU = Numeric.add(tmp, nU, nS, nB, value.getLong(j), sc, b, subtract);
            nS = tmp.numScale;
            nB = tmp.numBig;
            if (scaleCounts == null || scaleCounts.length <= sc) {
                scaleCounts = scaleCounts == null ? new int[Math.max(16, sc + 1)] : java.util.Arrays.copyOf(scaleCounts, Math.max(sc + 1, scaleCounts.length * 2));
            }
            if (subtract) {
                scaleCounts[sc]--;
                while (maxScale > 0 && scaleCounts[maxScale] == 0) {
                    maxScale--;
                }
            } else {
                scaleCounts[sc]++;
                maxScale = Math.max(maxScale, sc);
            }
        }

        void slide(int fs, int fe) {
            if (fs >= we || fe <= fs) {
                reset(fs);
            } else {
                while (ws < fs) {
                    remove(ws++);
                }
            }
            while (we < fe) {
                add(we++);
            }
        }

        private void add(int j) {
            if (value.isNull(j)) {
                return;
            }
            count++;
            switch (kind) {
                case SUM:
                case AVG:
                    if (doubles) {
                        addDouble(value.getDouble(j), 1);
                    } else if (numerics) {
                        addNumeric(j, false);
                    } else {
                        long v = value.getLong(j);
                        long lo = sumLo + v;
                        sumHi += (v >> 63) + (Long.compareUnsigned(lo, sumLo) < 0 ? 1 : 0);
                        sumLo = lo;
                    }
                    break;
                case MIN:
                case MAX: {
                    // Rows dominated by the new one can never be the answer again: drop them.
                    while (tail > head) {
                        int c = value.compare(deque[tail - 1], j);
                        if (min ? c >= 0 : c <= 0) {
                            tail--;
                        } else {
                            break;
                        }
                    }
                    deque[tail++] = j;
                    break;
                }
                default: // COUNT
            }
        }

        private void remove(int j) {
            if (value.isNull(j)) {
                return;
            }
            count--;
            switch (kind) {
                case SUM:
                case AVG:
                    if (doubles) {
                        addDouble(-value.getDouble(j), -1);
                    } else if (numerics) {
                        addNumeric(j, true);
                    } else {
                        long v = value.getLong(j);
                        long lo = sumLo - v;
                        sumHi -= (v >> 63) + (Long.compareUnsigned(sumLo, v) < 0 ? 1 : 0);
                        sumLo = lo;
                    }
                    break;
                case MIN:
                case MAX:
                    if (tail > head && deque[head] == j) {
                        head++;
                    }
                    break;
                default: // COUNT
            }
        }

        /** Adds {@code v}; {@code sign} -1 when it is a removal (the specials' counts go down). */
        private void addDouble(double v, int sign) {
            if (running) {
                dsum += v;
                return;
            }
            if (!Double.isFinite(v)) {
                if (Double.isNaN(v)) {
                    nan += sign;
                } else if ((v > 0) == (sign > 0)) {
                    posInf += sign;
                } else {
                    negInf += sign;
                }
                return;
            }
            // Neumaier's compensated summation.
            double t = dsum + v;
            if (Math.abs(dsum) >= Math.abs(v)) {
                dcomp += (dsum - t) + v;
            } else {
                dcomp += (v - t) + dsum;
            }
            dsum = t;
        }
    }

    /** Writes the aggregate of runs a and b, and of row {@code current} when it is not -1. */
    private void emit(int row, int current) {
        boolean cur = current >= 0 && !value.isNull(current);
        long count = a.count + b.count + (cur ? 1 : 0);
        switch (kind) {
            case COUNT:
                out.setLong(row, count);
                return;
            case SUM:
            case AVG:
                if (count == 0) {
                    out.setNull(row);
                } else if (numerics) {
                    emitNumeric(row, cur ? current : -1, count);
                } else if (doubles) {
                    double sum = doubleSum(cur ? value.getDouble(current) : 0);
                    out.setDouble(row, kind == WindowFunctionKind.SUM ? sum : sum / count);
                } else {
                    long lo = a.sumLo;
                    long hi = a.sumHi;
                    if (b.count > 0) {
                        long l = lo + b.sumLo;
                        hi += b.sumHi + (Long.compareUnsigned(l, lo) < 0 ? 1 : 0);
                        lo = l;
                    }
                    if (cur) {
                        long v = value.getLong(current);
                        long l = lo + v;
                        hi += (v >> 63) + (Long.compareUnsigned(l, lo) < 0 ? 1 : 0);
                        lo = l;
                    }
                    if (kind == WindowFunctionKind.AVG && numericResult) {
                        long u;
                        BigDecimal big = null;
                        if (hi == (lo >> 63) && lo <= Numeric.MAX_FAST && lo >= -Numeric.MAX_FAST) {
                            u = lo;
                        } else {
                            u = 0;
                            big = new BigDecimal(java.math.BigInteger.valueOf(hi).shiftLeft(64).add(
                                    new java.math.BigInteger(Long.toUnsignedString(lo))));
                        }
                        long q = Numeric.divide(tmp, u, 0, big, count, 0, null);
                        out.setNumeric(row, q, tmp.numScale, tmp.numBig);
                    } else if (kind == WindowFunctionKind.AVG) {
                        out.setDouble(row, longSumAsDouble(lo, hi) / count);
                    } else if (hi != (lo >> 63)) {
                        throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "SUM(" + value.expr.describe() + ") over a window is out of BIGINT range");
                    } else {
                        out.setLong(row, lo);
                    }
                }
                return;
            default: { // MIN, MAX
                int best = cur ? current : -1;
                best = better(best, a.tail > a.head ? a.deque[a.head] : -1);
                best = better(best, b.tail > b.head ? b.deque[b.head] : -1);
                if (best >= 0) {
                    out.copy(row, value, best);
                } else {
                    out.setNull(row);
                }
            }
        }
    }

    /** SUM or AVG of NUMERIC: runs a and b and row {@code current} (-1: none), {@code count} values in all. */
    private void emitNumeric(int row, int current, long count) {
        int nan = a.nan + b.nan;
        long u = a.nU;
        int sc = a.nS;
        BigDecimal big = a.nB;
        int scale = a.maxScale;
        if (b.count > 0) {
            u = Numeric.add(tmp, u, sc, big, b.nU, b.nS, b.nB, false);
            sc = tmp.numScale;
            big = tmp.numBig;
            scale = Math.max(scale, b.maxScale);
        }
        if (current >= 0) {
            BigDecimal cb = value.numBig(current);
            if (cb == Numeric.NAN) {
                nan++;
            } else {
                int cs = value.numScale(current);
                u = Numeric.add(tmp, u, sc, big, value.getLong(current), cs, cb, false);
                sc = tmp.numScale;
                big = tmp.numBig;
                scale = Math.max(scale, cs);
            }
        }
        if (nan > 0) {
            out.setNumeric(row, 0, 0, Numeric.NAN);
            return;
        }
        // The sum carries the largest scale it ever met; the frame's values have at most `scale`
        // digits after the point, so the digits past it are zeros: dropping them is exact.
        if (sc > scale) {
            if (big != null) {
                big = big.setScale(scale, java.math.RoundingMode.UNNECESSARY);
                if (big.precision() <= 18) {
                    u = big.unscaledValue().longValue();
                    big = null;
                }
            } else {
                u = sc - scale >= POW10.length ? 0 : u / POW10[sc - scale];
            }
            sc = scale;
        }
        if (kind == WindowFunctionKind.AVG) {
            u = Numeric.divide(tmp, u, sc, big, count, 0, null);
            sc = tmp.numScale;
            big = tmp.numBig;
        }
        out.setNumeric(row, u, sc, big);
    }

    /** The row of the smaller (MIN) or larger (MAX) value; -1 for none. */
    private int better(int x, int y) {
        if (x < 0) {
            return y;
        }
        if (y < 0) {
            return x;
        }
        int c = value.compare(x, y);
        return (min ? c <= 0 : c >= 0) ? x : y;
    }

    /** The double sum of runs a and b plus {@code extra}. */
    private double doubleSum(double extra) {
        if (running) {
            return a.dsum + extra; // nothing is excluded when running
        }
        int nan = a.nan + b.nan;
        int posInf = a.posInf + b.posInf;
        int negInf = a.negInf + b.negInf;
        if (Double.isNaN(extra)) {
            nan++;
        } else if (extra == Double.POSITIVE_INFINITY) {
            posInf++;
        } else if (extra == Double.NEGATIVE_INFINITY) {
            negInf++;
        }
        if (nan > 0 || (posInf > 0 && negInf > 0)) {
            return Double.NaN;
        }
        if (posInf > 0) {
            return Double.POSITIVE_INFINITY;
        }
        if (negInf > 0) {
            return Double.NEGATIVE_INFINITY;
        }
        double s = a.dsum + b.dsum;
        double c = a.dcomp + b.dcomp;
        if (b.count > 0) {
            // Two-sum of the runs' partial sums, so combining them keeps the compensation exact.
            double bb = s - a.dsum;
            c += (a.dsum - (s - bb)) + (b.dsum - bb);
        }
        if (Double.isFinite(extra) && extra != 0) {
            double t = s + extra;
            double bb = t - s;
            c += (s - (t - bb)) + (extra - bb);
            s = t;
        }
        return s + c;
    }

    private static double longSumAsDouble(long lo, long hi) {
        if (hi == (lo >> 63)) {
            return lo;
        }
        double l = lo >= 0 ? lo : lo + TWO_64;
        return hi * TWO_64 + l;
    }
}
