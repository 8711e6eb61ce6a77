package io.respsql.result;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A statement's reply encoded off the event loop (a background query's worker), into buffers of
 * its own. The engine runs the statement into {@link #sink()}; how the rows look on the wire
 * (2010 rows or typed, RESP2 or RESP3) is the {@link Form}'s business, which {@code protocol/}
 * supplies and {@code command/} chooses per request, so the engine encodes nothing itself.
 *
 * <p>A reply longer than a chunk is streamed: each full chunk is handed to {@link Chunks} on the
 * worker as it fills (it may throw {@link ReplyAbortedException} to stop the statement); the rest
 * is taken by {@link #finish()}. Worker thread only.
 */
public interface WorkerReply {
    /** The reply form and protocol chosen for a request: opens one reply per statement. Stateless, shared. */
    interface Form {
        /** A new reply whose later chunks come from {@code alloc} (the connection's) and whose full chunks go to {@code chunks}. */
        WorkerReply open(ByteBufAllocator alloc, Chunks chunks);

        /** A whole error reply of {@code text} (an error code first, e.g. {@code ERR ...}). */
        ByteBuf error(String text);
    }

    /** Where full chunks of a streamed reply go (the worker's hand-over to the event loop). */
    interface Chunks {
        /** Takes {@code chunk} (its bytes are the next part of the reply; the receiver releases it). */
        void chunk(ByteBuf chunk);
    }

    /** Where the statement writes its result. */
    ResultSink sink();

    /** The reply's bytes after the last chunk handed over (the caller releases them). */
    ByteBuf finish();

    /** Releases the part not handed over (a failed statement). */
    void discard();
}
