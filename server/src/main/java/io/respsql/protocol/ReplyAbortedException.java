package io.respsql.protocol;

/**
 * Thrown by a {@link RespWriter.Sink} when a reply may not continue (the client went over its
 * output buffer limit). The writer is marked broken first; whoever catches it must not write.
 */
public final class ReplyAbortedException extends RuntimeException {
    public ReplyAbortedException(String message) {
        super(message, null, false, false);
    }
}
