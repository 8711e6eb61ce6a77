package io.respsql.exec.write;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A plan's run state keeps no reference to the engine's row list once a collect is over, so a
 * cached plan does not pin a row buffer the engine has replaced after a big statement.
 */
class RowListReleaseTest {
    /** Gives rows 3, 5, 7 of relation 0, or fails after the first when {@code fail}. */
    private static Operator rows(boolean fail) {
        return new Operator() {
            @Override
            public boolean run(EvalContext ctx, TupleConsumer out) {
                for (int slot : new int[] {3, 5, 7}) {
                    ctx.slots[0] = slot;
                    if (!out.accept(ctx)) {
                        return false;
                    }
                    if (fail) {
                        throw new IllegalStateException("stopped");
                    }
                }
                return true;
            }

            @Override
            public long relations() {
                return 1;
            }

            @Override
            public void explain(List<String> lines, int depth) {
            }
        };
    }

    @Test
    void theRowListIsLetGoAfterACollect() {
        WriteRun run = new WriteRun(1);
        run.start(null);
        IntArrayList into = new IntArrayList();
        RowSource.rowList(rows(false)).collect(run, into, null);
        assertEquals(IntArrayList.wrap(new int[] {3, 5, 7}), into);
        assertFalse(run.holdsRows());
    }

    @Test
    void andAfterACollectThatFailed() {
        WriteRun run = new WriteRun(1);
        run.start(null);
        IntArrayList into = new IntArrayList();
        assertThrows(IllegalStateException.class, () -> RowSource.rowList(rows(true)).collect(run, into, null));
        assertFalse(run.holdsRows());
    }
}
