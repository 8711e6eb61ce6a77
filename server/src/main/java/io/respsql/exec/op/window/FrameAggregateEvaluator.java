package io.respsql.exec.op.window;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

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
 */
final class FrameAggregateEvaluator extends WindowEvaluator {
    private static final double TWO_64 = 18446744073709551616.0;

    private final WindowFunctionKind kind;
    /** The argument; null for COUNT(*). */
    private final ValueBuffer value;
    private final FrameBounds bounds;
    private final boolean doubles;
    private final boolean running;
    /** MIN/MAX's candidate rows (null for the others), grown to the batch at {@link #bind}. */
    private int[] deque;

    private long count;
    private long sumLo;
    private long sumHi;
    private double dsum;
    private double dcomp;
    private int posInf;
    private int negInf;
    private int nan;
    private int head;
    private int tail;

    FrameAggregateEvaluator(WindowFunctionKind kind, ResultColumn out, ValueBuffer value, FrameBounds bounds,
                            boolean running) {
        super(out);
        this.kind = kind;
        this.value = value;
        this.bounds = bounds;
        this.doubles = value != null && value.kind == ValueBuffer.Kind.DOUBLE;
        this.running = running;
        this.deque = kind == WindowFunctionKind.MIN || kind == WindowFunctionKind.MAX ? new int[16] : null;
    }

    @Override
    void bind(int[] outRows, int[] peerStart, int[] peerEnd, int rows) {
        super.bind(outRows, peerStart, peerEnd, rows);
        bounds.bind(peerStart, peerEnd);
        if (deque != null && deque.length < rows) {
            deque = new int[Math.max(rows, deque.length * 2)]; // holds at most a partition's rows
        }
    }

    @Override
    void partition(int ps, int pe) {
        bounds.partition(ps, pe);
        reset();
        int ws = ps;
        int we = ps;
        for (int i = ps; i < pe; i++) {
            bounds.compute(i);
            int fs = bounds.start;
            int fe = bounds.end;
            int row = outRows[i];
            if (kind == WindowFunctionKind.COUNT_STAR) {
                out.setLong(row, fe - fs);
                continue;
            }
            if (fs >= we) {
                reset();
                ws = fs;
                we = fs;
            } else {
                while (ws < fs) {
                    remove(ws++);
                }
            }
            while (we < fe) {
                add(we++);
            }
            emit(row);
        }
    }

    private void reset() {
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
                boolean min = kind == WindowFunctionKind.MIN;
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

    private double doubleSum() {
        if (running) {
            return dsum;
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
        return dsum + dcomp;
    }

    private void emit(int row) {
        switch (kind) {
            case COUNT:
                out.setLong(row, count);
                break;
            case SUM:
                if (count == 0) {
                    out.setNull(row);
                } else if (doubles) {
                    out.setDouble(row, doubleSum());
                } else {
                    if (sumHi != (sumLo >> 63)) {
                        throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "SUM(" + value.expr.describe() + ") over a window is out of BIGINT range");
                    }
                    out.setLong(row, sumLo);
                }
                break;
            case AVG:
                if (count == 0) {
                    out.setNull(row);
                } else if (doubles) {
                    out.setDouble(row, doubleSum() / count);
                } else {
                    out.setDouble(row, longSumAsDouble() / count);
                }
                break;
            default: // MIN, MAX
                if (tail > head) {
                    out.copy(row, value, deque[head]);
                } else {
                    out.setNull(row);
                }
        }
    }

    private double longSumAsDouble() {
        if (sumHi == (sumLo >> 63)) {
            return sumLo;
        }
        double lo = sumLo >= 0 ? sumLo : sumLo + TWO_64;
        return sumHi * TWO_64 + lo;
    }
}
