package io.respsql.exec.op.window;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/**
 * ROW_NUMBER, RANK, DENSE_RANK and NTILE: positions and peer groups only (no frame). RANK
 * leaves gaps after ties, DENSE_RANK does not; NTILE(n) deals the partition's rows into n
 * buckets whose sizes differ by at most one, the larger first (PostgreSQL); PERCENT_RANK is
 * (rank - 1) / (rows - 1), 0 for a one-row partition; CUME_DIST is (rows up to the last peer) / rows.
 */
final class RankingEvaluator extends WindowEvaluator {
    private final WindowFunctionKind kind;
    /** NTILE's bucket count, read at the partition's first row as PostgreSQL does. */
    private final ValueBuffer buckets;

    RankingEvaluator(WindowFunctionKind kind, ResultColumn out, ValueBuffer buckets) {
        super(out);
        this.kind = kind;
        this.buckets = buckets;
    }

    @Override
    void partition(int ps, int pe) {
        switch (kind) {
            case ROW_NUMBER:
                for (int i = ps; i < pe; i++) {
                    out.setLong(outRows[i], i - ps + 1);
                }
                break;
            case RANK:
                for (int i = ps; i < pe; i++) {
                    out.setLong(outRows[i], peerStart[i] - ps + 1);
                }
                break;
            case DENSE_RANK: {
                long rank = 0;
                for (int i = ps; i < pe; i++) {
                    if (peerStart[i] == i) {
                        rank++;
                    }
                    out.setLong(outRows[i], rank);
                }
                break;
            }
            case NTILE:
                ntile(ps, pe);
                break;
            case PERCENT_RANK: {
                double denominator = pe - ps - 1;
                for (int i = ps; i < pe; i++) {
                    out.setDouble(outRows[i], denominator == 0 ? 0 : (peerStart[i] - ps) / denominator);
                }
                break;
            }
            case CUME_DIST: {
                double rows = pe - ps;
                for (int i = ps; i < pe; i++) {
                    out.setDouble(outRows[i], (peerEnd[i] - ps) / rows);
                }
                break;
            }
            default:
                throw new IllegalStateException(kind.name());
        }
    }

    private void ntile(int ps, int pe) {
        if (buckets.isNull(ps)) {
            for (int i = ps; i < pe; i++) {
                out.setNull(outRows[i]);
            }
            return;
        }
        long n = buckets.getLong(ps);
        if (n <= 0) {
            throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_NTILE, "argument of NTILE must be greater than zero, got " + n);
        }
        long rows = pe - ps;
        long small = rows / n;
        long large = small + 1;
        // The first (rows % n) buckets hold one row more.
        long inLarge = (rows % n) * large;
        for (int i = ps; i < pe; i++) {
            long k = i - ps;
            long bucket = k < inLarge ? k / large + 1 : rows % n + (k - inLarge) / small + 1;
            out.setLong(outRows[i], bucket);
        }
    }
}
