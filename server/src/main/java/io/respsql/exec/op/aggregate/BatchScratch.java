package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.scan.TableScan;

/** Per-run arrays of one batch's values, shared by the keys and accumulators of one aggregate run. */
final class BatchScratch {
    final long[] longs = new long[TableScan.BATCH];
    final double[] doubles = new double[TableScan.BATCH];
    final boolean[] nulls = new boolean[TableScan.BATCH];
    final int[] codes = new int[TableScan.BATCH];
}
