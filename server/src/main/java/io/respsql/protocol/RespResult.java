package io.respsql.protocol;

import io.respsql.result.ResultSink;

/**
 * A result form encoding into a {@link RespWriter}, pointed at the writer once per statement: it
 * keeps where the statement's reply began, so the engine can take the rows back
 * ({@link #retract}) while none has left, and be told when the first chunk leaves.
 */
abstract class RespResult implements ResultSink {
    RespWriter out;
    private long start;

    /** Points at {@code w} for the statement about to run, from the writer's current position. */
    final void point(RespWriter w) {
        this.out = w;
        this.start = w.mark();
    }

    @Override
    public final boolean retract() {
        return out.discardReply(start);
    }

    @Override
    public final void onLeaving(Runnable r) {
        out.onReplyLeaving(r);
    }
}
