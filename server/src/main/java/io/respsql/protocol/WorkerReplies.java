package io.respsql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.respsql.result.ResultSink;
import io.respsql.result.WorkerReply;

import java.nio.charset.StandardCharsets;

/**
 * The reply forms of a background query ({@link WorkerReply}): a {@link RespWriter} of its own,
 * with the 2010 rows or the typed ones, in RESP2 or RESP3. One shared instance per form, so
 * choosing one per request allocates nothing.
 */
public final class WorkerReplies implements WorkerReply.Form {
    private static final WorkerReplies[] SHARED = {
            new WorkerReplies(false, 2), new WorkerReplies(true, 2), new WorkerReplies(false, 3), new WorkerReplies(true, 3)};

    private final boolean typed;
    private final int protocol;

    private WorkerReplies(boolean typed, int protocol) {
        this.typed = typed;
        this.protocol = protocol;
    }

    /** The form of QUERY's typed rows ({@code typed}) or the 2010 rows, in {@code protocol} (2 or 3). */
    public static WorkerReply.Form of(boolean typed, int protocol) {
        return protocol == 2 || protocol == 3 ? SHARED[(protocol - 2) * 2 + (typed ? 1 : 0)] : new WorkerReplies(typed, protocol);
    }

    @Override
    public WorkerReply open(ByteBufAllocator alloc, WorkerReply.Chunks chunks) {
        return new Reply(alloc, chunks, typed, protocol);
    }

    @Override
    public ByteBuf error(String text) {
        return Unpooled.copiedBuffer("-" + text.replace('\r', ' ').replace('\n', ' ') + "\r\n", StandardCharsets.UTF_8);
    }

    private static final class Reply implements WorkerReply, RespWriter.Sink {
        private final ByteBufAllocator alloc;
        private final WorkerReply.Chunks chunks;
        private final RespWriter w;
        private final ResultSink sink;

        Reply(ByteBufAllocator alloc, WorkerReply.Chunks chunks, boolean typed, int protocol) {
            this.alloc = alloc;
            this.chunks = chunks;
            this.w = new RespWriter().target(Unpooled.buffer(256), this).protocol(protocol);
            this.sink = typed ? new TypedRows().on(w) : new Rows2010().on(w);
        }

        @Override
        public void handOver(RespWriter writer) {
            ByteBuf chunk = writer.target();
            // From the connection's pooled allocator, direct as the channel wants it: the channel
            // releases each chunk back to the pool once written, so a streamed reply reuses a
            // bounded set of buffers instead of leaving its size in heap garbage (and the channel
            // does not copy a heap chunk into a direct one before the write).
            writer.continueIn(alloc.ioBuffer(RespWriter.CHUNK_BYTES + 1024));
            chunks.chunk(chunk);
        }

        @Override
        public ResultSink sink() {
            return sink;
        }

        @Override
        public ByteBuf finish() {
            return w.target();
        }

        @Override
        public void discard() {
            w.target().release();
        }
    }
}
