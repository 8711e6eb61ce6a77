package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Outputs;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;

import java.util.Arrays;

/**
 * covar_pop, covar_samp, corr and regr_*(Y, X) over float8 (issue 25): PostgreSQL's
 * float8_regr_accum, the Youngs-Cramer update of (N, Sx, Sxx, Sy, Syy, Sxy) per pair with both
 * values non-NULL, and its final functions, so the digits are PostgreSQL's. Six primitive slots
 * per group; nothing allocated per row.
 */
final class RegrAccumulator extends Accumulator {
    private final AggregateSpec.Kind fn;
    private final Expression x;
    private double[] n = new double[0];
    private double[] sx = new double[0];
    private double[] sxx = new double[0];
    private double[] sy = new double[0];
    private double[] syy = new double[0];
    private double[] sxy = new double[0];

    /** {@code y} and {@code x} as regr_*(Y, X) takes them. */
    RegrAccumulator(AggregateSpec.Kind fn, Expression y, Expression x) {
        super(y, false);
        this.fn = fn;
        this.x = x;
    }

    @Override
    void grow(int capacity) {
        int k = grown(n.length, capacity);
        n = Arrays.copyOf(n, k);
        sx = Arrays.copyOf(sx, k);
        sxx = Arrays.copyOf(sxx, k);
        sy = Arrays.copyOf(sy, k);
        syy = Arrays.copyOf(syy, k);
        sxy = Arrays.copyOf(sxy, k);
    }

    @Override
    void accumulate(EvalContext ctx, int g) {
        double vy = arg.evalDouble(ctx);
        if (ctx.isNull) {
            return;
        }
        double vx = x.evalDouble(ctx);
        if (ctx.isNull) {
            return;
        }
        add(g, vy, vx);
    }

    @Override
    void accumulateBatch(EvalContext ctx, int relation, int[] sel, int count, int[] gids, BatchScratch s) {
        int[] slots = ctx.slots;
        for (int i = 0; i < count; i++) {
            slots[relation] = sel[i];
            accumulate(ctx, gids[i]);
        }
    }

    private void add(int g, double newY, double newX) {
        double prevN = n[g];
        double prevSx = sx[g];
        double prevSy = sy[g];
        double cnt = prevN + 1.0;
        double sumX = prevSx + newX;
        double sumY = prevSy + newY;
        double sXX = sxx[g];
        double sYY = syy[g];
        double sXY = sxy[g];
        if (prevN > 0.0) {
            double tmpX = newX * cnt - sumX;
            double tmpY = newY * cnt - sumY;
            double scale = 1.0 / (cnt * prevN);
            sXX += tmpX * tmpX * scale;
            sYY += tmpY * tmpY * scale;
            sXY += tmpX * tmpY * scale;
            boolean xFinite = !Double.isInfinite(prevSx) && !Double.isInfinite(newX);
            boolean yFinite = !Double.isInfinite(prevSy) && !Double.isInfinite(newY);
            if (Double.isInfinite(sumX) || Double.isInfinite(sXX) || Double.isInfinite(sumY) || Double.isInfinite(sYY)
                    || (Double.isInfinite(sXY) && xFinite && yFinite)) {
                if (((Double.isInfinite(sumX) || Double.isInfinite(sXX)) && xFinite)
                        || ((Double.isInfinite(sumY) || Double.isInfinite(sYY)) && yFinite)
                        || (Double.isInfinite(sXY) && xFinite && yFinite)) {
                    throw StatsAccumulator.overflow();
                }
                if (Double.isInfinite(sXX)) {
                    sXX = Double.NaN;
                }
                if (Double.isInfinite(sYY)) {
                    sYY = Double.NaN;
                }
                if (Double.isInfinite(sXY)) {
                    sXY = Double.NaN;
                }
            }
        } else {
            if (Double.isNaN(newX) || Double.isInfinite(newX)) {
                sXX = Double.NaN;
                sXY = Double.NaN;
            }
            if (Double.isNaN(newY) || Double.isInfinite(newY)) {
                sYY = Double.NaN;
                sXY = Double.NaN;
            }
        }
        n[g] = cnt;
        sx[g] = sumX;
        sy[g] = sumY;
        sxx[g] = sXX;
        syy[g] = sYY;
        sxy[g] = sXY;
    }

    @Override
    void write(Column c, int row, int g) {
        double cnt = n[g];
        if (fn == AggregateSpec.Kind.REGR_COUNT) {
            Outputs.writeLong(c, row, (long) cnt);
            return;
        }
        if (cnt < 1.0 || (fn == AggregateSpec.Kind.COVAR_SAMP && cnt < 2.0)) {
            Outputs.writeNull(c, row);
            return;
        }
        double sXX = sxx[g];
        double sYY = syy[g];
        double sXY = sxy[g];
        double v;
        switch (fn) {
            case REGR_SXX:
                v = sXX;
                break;
            case REGR_SYY:
                v = sYY;
                break;
            case REGR_SXY:
                v = sXY;
                break;
            case REGR_AVGX:
                v = sx[g] / cnt;
                break;
            case REGR_AVGY:
                v = sy[g] / cnt;
                break;
            case COVAR_POP:
                v = sXY / cnt;
                break;
            case COVAR_SAMP:
                v = sXY / (cnt - 1.0);
                break;
            case CORR:
                if (sXX == 0 || sYY == 0) {
                    Outputs.writeNull(c, row);
                    return;
                }
                v = sXY / Math.sqrt(sXX * sYY);
                break;
            case REGR_R2:
                if (sXX == 0) {
                    Outputs.writeNull(c, row);
                    return;
                }
                v = sYY == 0 ? 1.0 : (sXY * sXY) / (sXX * sYY);
                break;
            case REGR_SLOPE:
                if (sXX == 0) {
                    Outputs.writeNull(c, row);
                    return;
                }
                v = sXY / sXX;
                break;
            default: // REGR_INTERCEPT
                if (sXX == 0) {
                    Outputs.writeNull(c, row);
                    return;
                }
                v = (sy[g] - sx[g] * sXY / sXX) / cnt;
        }
        Outputs.writeDouble(c, row, v);
    }
}
