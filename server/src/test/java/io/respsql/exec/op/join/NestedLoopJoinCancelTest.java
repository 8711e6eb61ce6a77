package io.respsql.exec.op.join;

import io.respsql.exec.op.CancelCheck;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.Cancellation;
import io.respsql.expr.EvalContext;
import io.respsql.sql.SqlException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A nested loop checks for a cancel within a block of inner tuples, not once per outer tuple:
 * with one outer row and a huge inner side, a cancel asked for mid-way stops it there.
 */
class NestedLoopJoinCancelTest {
    /** Relation {@code rel}'s slots 0..n-1. */
    private static Operator rows(int rel, int n) {
        return new Operator() {
            @Override
            public boolean run(EvalContext ctx, TupleConsumer out) {
                for (int i = 0; i < n; i++) {
                    ctx.slots[rel] = i;
                    if (!out.accept(ctx)) {
                        return false;
                    }
                }
                return true;
            }

            @Override
            public long relations() {
                return 1L << rel;
            }

            @Override
            public void explain(List<String> lines, int depth) {
            }
        };
    }

    @Test
    void aCancelStopsTheInnerLoopOfOneOuterTuple() {
        int inner = 1_000_000;
        int cancelAt = 5_000;
        NestedLoopJoin join = new NestedLoopJoin(rows(0, 1), rows(1, inner), new int[] {1}, null, false);
        EvalContext ctx = new EvalContext(2);
        Cancellation cancel = new Cancellation();
        ctx.cancel = cancel;
        int[] pairs = {0};
        SqlException e = assertThrows(SqlException.class, () -> join.run(ctx, c -> {
            if (++pairs[0] == cancelAt) {
                cancel.cancel("canceling statement due to user request"); // as CLIENT KILL or a timeout would
            }
            return true;
        }));
        assertTrue(e.getMessage().contains("user request"), e.getMessage());
        // before, the only check came before the million pairs: all of them ran, and nothing threw here
        assertTrue(pairs[0] < cancelAt + 2 * CancelCheck.EVERY, "pairs after the cancel: " + pairs[0]);
    }

    @Test
    void withoutACancelEveryPairIsProduced() {
        for (int n : new int[] {0, 1, CancelCheck.EVERY - 1, CancelCheck.EVERY, CancelCheck.EVERY + 1, 3 * CancelCheck.EVERY + 7}) {
            NestedLoopJoin join = new NestedLoopJoin(rows(0, 3), rows(1, n), new int[] {1}, null, true);
            EvalContext ctx = new EvalContext(2);
            ctx.cancel = new Cancellation();
            long[] sum = {0, 0};
            join.run(ctx, c -> {
                sum[0]++;
                sum[1] += c.slots[1];
                return true;
            });
            assertEquals(n == 0 ? 3 : 3L * n, sum[0], "inner " + n);
            assertEquals(n == 0 ? -3 : 3L * n * (n - 1) / 2, sum[1], "inner " + n);
        }
    }
}
