package io.respsql.exec.op.window;

/**
 * Computes one window function for the rows of a partition, writing each row's result into the
 * output work table. Created once per run (it may hold sliding state, reset per partition) and
 * bound to each batch's arrays by {@link #bind}: a grouped run computes a batch per partition, and
 * re-creating evaluators per batch was allocation per partition. Rows are positions in sorted
 * order, {@code outRows[i]} the output row of position {@code i}.
 */
abstract class WindowEvaluator {
    protected final ResultColumn out;
    protected int[] outRows;
    /** Each position's peer group {@code [peerStart, peerEnd)} in this batch. */
    protected int[] peerStart;
    protected int[] peerEnd;

    WindowEvaluator(ResultColumn out) {
        this.out = out;
    }

    /** The batch about to be computed: its output rows and peer groups, {@code rows} positions. */
    void bind(int[] outRows, int[] peerStart, int[] peerEnd, int rows) {
        this.outRows = outRows;
        this.peerStart = peerStart;
        this.peerEnd = peerEnd;
    }

    /** Writes the results of positions {@code [ps, pe)}, one partition. */
    abstract void partition(int ps, int pe);
}
