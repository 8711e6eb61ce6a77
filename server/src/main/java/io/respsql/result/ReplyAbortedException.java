package io.respsql.result;

/**
 * Thrown while a result is being sent when the rest of it may not follow (the client went over
 * its output buffer limit, or went away). The writer is marked broken first; whoever catches it
 * must not write. Here, not in {@code protocol/}, because the engine catches it from any
 * {@link ResultSink} without knowing the wire form.
 */
public final class ReplyAbortedException extends RuntimeException {
    public ReplyAbortedException(String message) {
        super(message, null, false, false);
    }
}
