package io.respsql.exec.op.window;

/** FIRST_VALUE and LAST_VALUE: the value at the frame's first (last) row, NULL for an empty frame. */
final class FrameValueEvaluator extends WindowEvaluator {
    private final boolean first;
    private final ValueBuffer value;
    private final FrameBounds bounds;

    FrameValueEvaluator(boolean first, ResultColumn out, ValueBuffer value, FrameBounds bounds) {
        super(out);
        this.first = first;
        this.value = value;
        this.bounds = bounds;
    }

    @Override
    void bind(int[] outRows, int[] peerStart, int[] peerEnd, int rows) {
        super.bind(outRows, peerStart, peerEnd, rows);
        bounds.bind(peerStart, peerEnd);
    }

    @Override
    void partition(int ps, int pe) {
        bounds.partition(ps, pe);
        for (int i = ps; i < pe; i++) {
            bounds.compute(i);
            if (bounds.start >= bounds.end) {
                out.setNull(outRows[i]);
            } else {
                out.copy(outRows[i], value, first ? bounds.start : bounds.end - 1);
            }
        }
    }
}
