package io.respsql.exec;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run that throws (a cancel, an error) lets the gathered slots go: a cached plan's writer must not keep them. */
class ResultWriterReleaseTest {
    /** Pushes {@code n} tuples (slots ascending, or scattered) on relations 0 and 1, then throws. */
    private static Operator failingAfter(int n, boolean scattered) {
        return new Operator() {
            @Override
            public boolean run(EvalContext ctx, TupleConsumer out) {
                for (int i = 0; i < n; i++) {
                    int s = scattered ? (i * 7919) % n : i;
                    ctx.slots[0] = s;
                    ctx.slots[1] = s;
                    out.accept(ctx);
                }
                throw new IllegalStateException("cancelled");
            }

            @Override
            public long relations() {
                return 3;
            }

            @Override
            public void explain(List<String> lines, int depth) {
            }
        };
    }

    @Test
    void aRunThatThrowsLetsTheGatheredSlotsGo() {
        ResultWriter w = new ResultWriter();
        EvalContext ctx = new EvalContext(2);
        int n = 500_000;
        for (int[] carried : new int[][] {{0}, {0, 1}}) {
            for (boolean scattered : new boolean[] {false, true}) {
                Operator op = failingAfter(n, scattered);
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> w.write(op, new Expression[0], null, carried, ctx, null));
                assertEquals("cancelled", e.getMessage());
                // 500,000 slots were gathered (2 MB as a list, 62 KB as a bitmap); none of it is kept
                assertTrue(w.heldBytes() <= 4L * (1 << 16) + 4096,
                        "holds " + w.heldBytes() + " bytes after a failed run of " + carried.length + " relation(s), scattered " + scattered);
            }
        }
    }
}
