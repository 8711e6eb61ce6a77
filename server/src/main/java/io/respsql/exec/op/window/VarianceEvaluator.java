package io.respsql.exec.op.window;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Numeric;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * VAR_POP, VAR_SAMP (VARIANCE), STDDEV_POP and STDDEV_SAMP (STDDEV) over each row's frame, as
 * PostgreSQL computes them.
 *
 * <p>DOUBLE values: PostgreSQL's float8 accumulation (Youngs-Cramer: N, Sx, Sxx added row by row in
 * frame order). PostgreSQL re-aggregates a moving frame from its first row, so a running frame
 * (UNBOUNDED PRECEDING, no EXCLUDE) adds in order and a frame of at most {@link #RECOMPUTE} rows is
 * summed afresh: both the same doubles as PostgreSQL. A larger moving frame slides (each run adds
 * and removes with the inverse update, the runs around an EXCLUDE combined by Chan's formula):
 * O(1) per row, within the last bits of PostgreSQL's answer.
 *
 * <p>Integers and NUMERIC: exact, as PostgreSQL's numeric variance: N, the sum and the sum of
 * squares slide (integers in 128 bits, NUMERIC in its long form or a BigDecimal), then
 * (N * sumX2 - sumX^2) / (N * N or N * (N - 1)) at PostgreSQL's division scale, its square root
 * for STDDEV; the result's text is made per row (the final division is BigDecimal arithmetic).
 */
final class VarianceEvaluator extends WindowEvaluator {
    /** Frames up to this many rows are summed afresh (PostgreSQL's exact doubles); larger ones slide. */
    static final int RECOMPUTE = 64;

    private final boolean sample;
    private final boolean stddev;
    private final ValueBuffer value;
    private final FrameBounds bounds;
    private final boolean doubles;
    private final boolean numerics;
    private final boolean running;
    private final Run a = new Run();
    private final Run b = new Run();
    private final EvalContext tmp = new EvalContext(1);

    VarianceEvaluator(WindowFunctionKind kind, ResultColumn out, ValueBuffer value, FrameBounds bounds, boolean running,
                      boolean doubleResult) {
        super(out);
        this.sample = kind == WindowFunctionKind.VAR_SAMP || kind == WindowFunctionKind.VARIANCE
                || kind == WindowFunctionKind.STDDEV_SAMP || kind == WindowFunctionKind.STDDEV;
        this.stddev = kind == WindowFunctionKind.STDDEV_POP || kind == WindowFunctionKind.STDDEV_SAMP || kind == WindowFunctionKind.STDDEV;
        this.value = value;
        this.bounds = bounds;
        this.doubles = doubleResult; // DOUBLE values, or integers outside PostgreSQL's dialect (no NUMERIC there)
        this.numerics = value.kind == ValueBuffer.Kind.NUMERIC;
        this.running = running;
    }

    @Override
    void bind(int[] outRows, int[] peerStart, int[] peerEnd, int rows) {
        super.bind(outRows, peerStart, peerEnd, rows);
        bounds.bind(peerStart, peerEnd);
    }

    @Override
    void partition(int ps, int pe) {
        bounds.partition(ps, pe);
        a.reset(ps);
        b.reset(ps);
        for (int i = ps; i < pe; i++) {
            bounds.compute(i);
            int row = outRows[i];
            if (doubles && !running && bounds.size() <= RECOMPUTE) {
                afresh(i);
                emitDouble(row);
                continue;
            }
            a.slide(bounds.start, bounds.aEnd);
            b.slide(bounds.bStart, bounds.end);
            int cur = bounds.withCurrent && !value.isNull(i) ? i : -1;
            if (doubles) {
                combined(cur);
                emitDouble(row);
            } else {
                emitExact(row, cur);
            }
        }
    }

    // ---- doubles ----------------------------------------------------------------------------------

    private double n;
    private double sx;
    private double sxx;

    /** The frame of row {@code i} summed in order (PostgreSQL's float8_accum); leaves N, Sx, Sxx. */
    private void afresh(int i) {
        n = 0;
        sx = 0;
        sxx = 0;
        int size = bounds.size();
        for (int k = 0; k < size; k++) {
            int j = bounds.row(k, i);
            if (!value.isNull(j)) {
                double[] st = accum(n, sx, sxx, value.getDouble(j));
                n = st[0];
                sx = st[1];
                sxx = st[2];
            }
        }
    }

    private final double[] st = new double[3];

    /** PostgreSQL's float8_accum of {@code x} into (N, Sx, Sxx). */
    private double[] accum(double n0, double sx0, double sxx0, double x) {
        double n1 = n0 + 1;
        double sx1 = sx0 + x;
        double sxx1 = sxx0;
        if (n0 > 0) {
            double t = x * n1 - sx1;
            sxx1 += t * t / (n1 * n0);
            if (Double.isInfinite(sx1) || Double.isInfinite(sxx1)) {
                if (!Double.isInfinite(sx0) && !Double.isInfinite(x)) {
                    throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
                }
                sxx1 = Double.NaN;
            }
        } else if (Double.isNaN(x) || Double.isInfinite(x)) {
            sxx1 = Double.NaN;
        }
        st[0] = n1;
        st[1] = sx1;
        st[2] = sxx1;
        return st;
    }

    /** Runs a and b and row {@code cur} (-1: none) combined into N, Sx, Sxx. */
    private void combined(int cur) {
        n = a.n;
        sx = a.sx;
        sxx = a.sxx;
        if (cur >= 0) {
            double[] s = accum(n, sx, sxx, value.getDouble(cur));
            n = s[0];
            sx = s[1];
            sxx = s[2];
        }
        if (b.n > 0) {
            if (n == 0) {
                n = b.n;
                sx = b.sx;
                sxx = b.sxx;
            } else {
                double d = sx / n - b.sx / b.n;
                sxx = sxx + b.sxx + n * b.n / (n + b.n) * d * d;
                n += b.n;
                sx += b.sx;
            }
        }
    }

    private void emitDouble(int row) {
        if (n == 0 || (sample && n <= 1)) {
            out.setNull(row);
            return;
        }
        double num = sxx;
        double r = num <= 0 ? 0 : num / (sample ? n - 1 : n);
        out.setDouble(row, stddev ? Math.sqrt(r) : r);
    }

    // ---- exact ------------------------------------------------------------------------------------

    private void emitExact(int row, int cur) {
        long count = a.count + b.count + (cur >= 0 ? 1 : 0);
        if (count == 0 || (sample && count <= 1)) {
            out.setNull(row);
            return;
        }
        BigDecimal sumX;
        BigDecimal sumX2;
        int scale;
        if (numerics) {
            if (a.nan + b.nan > 0 || (cur >= 0 && value.numBig(cur) == Numeric.NAN)) {
                out.setNumeric(row, 0, 0, Numeric.NAN);
                return;
            }
            sumX = a.bx.add(b.bx);
            sumX2 = a.bxx.add(b.bxx);
            scale = Math.max(a.maxScale(), b.maxScale());
            if (cur >= 0) {
                BigDecimal x = BigDecimal.valueOf(value.getLong(cur), value.numScale(cur));
                BigDecimal big = value.numBig(cur);
                if (big != null) {
                    x = big;
                }
                sumX = sumX.add(x);
                sumX2 = sumX2.add(x.multiply(x));
                scale = Math.max(scale, x.scale());
            }
        } else {
            long lo = a.lo;
            long hi = a.hi;
            long l = lo + b.lo;
            hi += b.hi + (Long.compareUnsigned(l, lo) < 0 ? 1 : 0);
            lo = l;
            BigInteger sq = a.squares().add(b.squares());
            if (cur >= 0) {
                long v = value.getLong(cur);
                l = lo + v;
                hi += (v >> 63) + (Long.compareUnsigned(l, lo) < 0 ? 1 : 0);
                lo = l;
                sq = sq.add(BigInteger.valueOf(v).multiply(BigInteger.valueOf(v)));
            }
            sumX = new BigDecimal(int128(lo, hi));
            sumX2 = new BigDecimal(sq);
            scale = 0;
        }
        // PostgreSQL's numeric_stddev_internal: (N * sumX2 - sumX * sumX) at scale 2d, d the largest scale of the values
        BigDecimal bn = BigDecimal.valueOf(count);
        BigDecimal num = bn.multiply(sumX2).subtract(sumX.multiply(sumX)).setScale(2 * scale, RoundingMode.HALF_UP);
        if (num.signum() <= 0) {
            out.setNumeric(row, 0, 0, null);
            return;
        }
        long den = sample ? count * (count - 1) : count * count;
        long q = Numeric.divide(tmp, 0, num.scale(), num, den, 0, null);
        int rscale = tmp.numScale;
        BigDecimal r = tmp.numBig != null ? tmp.numBig : BigDecimal.valueOf(q, rscale);
        if (stddev) {
            r = r.sqrt(new MathContext(Math.max(1, r.precision() - r.scale()) + rscale + 8)).setScale(rscale, RoundingMode.HALF_UP);
        }
        if (r.precision() <= 18) {
            out.setNumeric(row, r.unscaledValue().longValue(), r.scale(), null);
        } else {
            out.setNumeric(row, 0, r.scale(), r);
        }
    }

    private static BigInteger int128(long lo, long hi) {
        return BigInteger.valueOf(hi).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(lo)));
    }

    /** One run of rows {@code [ws, we)} whose ends never move backward. */
    private final class Run {
        int ws;
        int we;
        long count;
        // doubles
        double n;
        double sx;
        double sxx;
        // integers: the sum in 128 bits, the sum of squares in 192 (lo, mid, hi)
        long lo;
        long hi;
        long q0;
        long q1;
        long q2;
        // NUMERIC
        BigDecimal bx = BigDecimal.ZERO;
        BigDecimal bxx = BigDecimal.ZERO;
        int nan;
        int[] scaleCounts;
        int top;

        void reset(int at) {
            ws = at;
            we = at;
            count = 0;
            n = 0;
            sx = 0;
            sxx = 0;
            lo = 0;
            hi = 0;
            q0 = 0;
            q1 = 0;
            q2 = 0;
            if (numerics && (bx.signum() != 0 || bxx.signum() != 0 || nan != 0 || top != 0)) {
                bx = BigDecimal.ZERO;
                bxx = BigDecimal.ZERO;
                nan = 0;
                top = 0;
                if (scaleCounts != null) {
                    java.util.Arrays.fill(scaleCounts, 0);
                }
            }
        }

        void slide(int fs, int fe) {
            if (fs >= we || fe <= fs) {
                reset(fs);
            } else {
                while (ws < fs) {
                    update(ws++, -1);
                }
            }
            while (we < fe) {
                update(we++, 1);
            }
        }

        int maxScale() {
            return top;
        }

        BigInteger squares() {
            BigInteger r = new BigInteger(Long.toUnsignedString(q0));
            r = r.add(new BigInteger(Long.toUnsignedString(q1)).shiftLeft(64));
            return r.add(BigInteger.valueOf(q2).shiftLeft(128));
        }

        private void update(int j, int sign) {
            if (value.isNull(j)) {
                return;
            }
            count += sign;
            if (doubles) {
                double x = value.getDouble(j);
                if (sign > 0) {
                    double[] s = accum(n, sx, sxx, x);
                    n = s[0];
                    sx = s[1];
                    sxx = s[2];
                } else if (n <= 1) {
                    n = 0;
                    sx = 0;
                    sxx = 0;
                } else {
                    // the inverse of float8_accum's update
                    double t = x * n - sx;
                    sxx -= t * t / (n * (n - 1));
                    n -= 1;
                    sx -= x;
                }
            } else if (numerics) {
                BigDecimal big = value.numBig(j);
                if (big == Numeric.NAN) {
                    nan += sign;
                    return;
                }
                BigDecimal x = big != null ? big : BigDecimal.valueOf(value.getLong(j), value.numScale(j));
                BigDecimal xx = x.multiply(x);
                int sc = x.scale();
                if (scaleCounts == null || scaleCounts.length <= sc) {
                    scaleCounts = scaleCounts == null ? new int[Math.max(16, sc + 1)] : java.util.Arrays.copyOf(scaleCounts, Math.max(sc + 1, scaleCounts.length * 2));
                }
                if (sign > 0) {
                    bx = bx.add(x);
                    bxx = bxx.add(xx);
                    scaleCounts[sc]++;
                    top = Math.max(top, sc);
                } else {
                    bx = bx.subtract(x);
                    bxx = bxx.subtract(xx);
                    scaleCounts[sc]--;
                    while (top > 0 && scaleCounts[top] == 0) {
                        top--;
                    }
                }
            } else {
                long v = value.getLong(j);
                if (sign > 0) {
                    long l = lo + v;
                    hi += (v >> 63) + (Long.compareUnsigned(l, lo) < 0 ? 1 : 0);
                    lo = l;
                } else {
                    long l = lo - v;
                    hi -= (v >> 63) + (Long.compareUnsigned(lo, v) < 0 ? 1 : 0);
                    lo = l;
                }
                // v * v: an unsigned 128-bit square, added to or taken from the 192-bit sum
                long sqLo = v * v;
                long sqHi = Math.multiplyHigh(v, v); // v*v >= 0: the signed high word is the unsigned one
                if (sign > 0) {
                    long n0 = q0 + sqLo;
                    long c0 = Long.compareUnsigned(n0, q0) < 0 ? 1 : 0;
                    long n1 = q1 + sqHi;
                    long c1 = Long.compareUnsigned(n1, q1) < 0 ? 1 : 0;
                    long n1c = n1 + c0;
                    c1 += Long.compareUnsigned(n1c, n1) < 0 ? 1 : 0;
                    q0 = n0;
                    q1 = n1c;
                    q2 += c1;
                } else {
                    long b0 = Long.compareUnsigned(q0, sqLo) < 0 ? 1 : 0;
                    long n0 = q0 - sqLo;
                    long b1 = Long.compareUnsigned(q1, sqHi) < 0 ? 1 : 0;
                    long n1 = q1 - sqHi;
                    b1 += Long.compareUnsigned(n1, b0) < 0 ? 1 : 0;
                    n1 -= b0;
                    q0 = n0;
                    q1 = n1;
                    q2 -= b1;
                }
            }
        }
    }
}
