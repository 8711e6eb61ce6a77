package io.respsql.exec.op.window;

/**
 * Computes one window function for the rows of a partition, writing each row's result into the
 * output work table. Created per run (it may hold sliding state); rows are positions in sorted
 * order, {@code outRows[i]} the output row of position {@code i}.
 */
abstract class WindowEvaluator {
    protected final ResultColumn out;
    protected final int[] outRows;

    WindowEvaluator(ResultColumn out, int[] outRows) {
        this.out = out;
        this.outRows = outRows;
    }

    /** Writes the results of positions {@code [ps, pe)}, one partition. */
    abstract void partition(int ps, int pe);
}
