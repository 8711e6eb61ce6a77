package io.respsql.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringRedisContent;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.InlineCommandRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.LastBulkStringRedisContent;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.respsql.command.CommandArgs;
import io.respsql.config.ServerConfig;
import io.respsql.config.SplitArgs;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Builds one connection's requests from netty-codec-redis' {@link io.netty.handler.codec.redis.RedisDecoder}
 * output: an array header, then for each argument a bulk-string header and its content.
 *
 * <p>Why not {@code RedisBulkStringAggregator} and {@code RedisArrayAggregator}: they wrap every
 * argument in a new composite buffer and every request in a message and a list, which profiling
 * showed to be a large share of the server's per-request work. Here an argument whose content
 * arrives in one piece (nearly always) is that content's buffer, retained; only an argument that
 * really arrives in several reads is gathered in a composite.
 */
final class RequestAssembler {
    private final CommandArgs args = new CommandArgs();
    private final int maxArgs;
    private final ServerConfig config;
    /** Bytes of the request being assembled: arguments complete and gathered so far. */
    private long bufferedBytes;
    /** Arguments still expected for the request being assembled; 0 between requests. */
    private int pending;
    /** Content of a bulk string that arrives in several pieces. */
    private CompositeByteBuf partial;
    private ByteBuf firstPiece;

    RequestAssembler(int maxArgs, ServerConfig config) {
        this.maxArgs = maxArgs;
        this.config = config;
    }

    /** Bytes held for the request not yet complete (its query buffer, in Redis's terms). */
    long bufferedBytes() {
        return bufferedBytes;
    }

    /** The arguments of the request just completed by {@link #accept}. */
    CommandArgs args() {
        return args;
    }

    /**
     * Takes one decoded message (the caller releases it afterwards; what is kept is retained).
     *
     * @return null when more messages are needed or a request is complete ({@link #complete()}),
     *         otherwise what is wrong, for a protocol error reply
     */
    String accept(Object msg, ByteBufAllocator alloc) {
        if (msg instanceof ArrayHeaderRedisMessage header) {
            if (pending > 0) {
                return "expected '$', got '*'";
            }
            long n = header.length();
            if (n > maxArgs) {
                return "invalid multibulk length";
            }
            pending = n > 0 ? (int) n : 0; // *0 and *-1 are ignored, as Redis does
            return null;
        }
        if (msg instanceof BulkStringHeaderRedisMessage header) {
            if (pending == 0) {
                return "expected '*', got '$'";
            }
            // Refused at the header, before any of the content is buffered.
            return header.bulkStringLength() > config.protoMaxBulkLen() ? "invalid bulk length" : null;
        }
        if (msg instanceof BulkStringRedisContent piece) {
            if (pending == 0) {
                return "expected '*', got '$'";
            }
            boolean last = msg instanceof LastBulkStringRedisContent;
            if (msg instanceof FullBulkStringRedisMessage full) {
                if (full.isNull() || full.content().readableBytes() > config.protoMaxBulkLen()) {
                    return "invalid bulk length";
                }
                bufferedBytes += full.content().readableBytes();
                addArgument(full.content().retain());
            } else if (last && firstPiece == null && partial == null) {
                bufferedBytes += piece.content().readableBytes();
                addArgument(piece.content().retain());
            } else {
                bufferedBytes += piece.content().readableBytes();
                gather(piece.content(), alloc);
                if (last) {
                    addArgument(takeGathered());
                }
            }
            return null;
        }
        if (msg instanceof InlineCommandRedisMessage inline) {
            if (pending > 0) {
                return "expected '$', got an inline command";
            }
            List<byte[]> words = SplitArgs.split(inline.content().getBytes(StandardCharsets.UTF_8));
            if (words == null) {
                return "unbalanced quotes in request";
            }
            for (byte[] w : words) {
                args.add(Unpooled.wrappedBuffer(w));
            }
            return null;
        }
        return "expected '*', got '" + typeChar(msg) + "'";
    }

    /** Whether a request's array header was read and its arguments are still coming. */
    boolean inArray() {
        return pending > 0;
    }

    /** True when {@link #args()} holds a whole request (possibly empty: an empty inline line). */
    boolean complete() {
        return pending == 0 && firstPiece == null;
    }

    /** Releases the arguments of the request just served. */
    void reset() {
        bufferedBytes = 0;
        for (int i = 0; i < args.count(); i++) {
            args.get(i).release();
        }
        args.clear();
    }

    /** Drops everything, including a half-received request (the connection is closing). */
    void discard() {
        reset();
        pending = 0;
        if (firstPiece != null) {
            firstPiece.release();
            firstPiece = null;
        }
        if (partial != null) {
            partial.release();
            partial = null;
        }
    }

    private void addArgument(ByteBuf content) {
        args.add(content);
        pending--;
    }

    private void gather(ByteBuf content, ByteBufAllocator alloc) {
        if (firstPiece == null && partial == null) {
            firstPiece = content.retain();
            return;
        }
        if (partial == null) {
            partial = alloc.compositeBuffer(Integer.MAX_VALUE);
            partial.addComponent(true, firstPiece);
            firstPiece = null;
        }
        partial.addComponent(true, content.retain());
    }

    private ByteBuf takeGathered() {
        ByteBuf b = partial != null ? partial : firstPiece;
        partial = null;
        firstPiece = null;
        return b;
    }

    private static char typeChar(Object m) {
        if (m instanceof IntegerRedisMessage) {
            return ':';
        } else if (m instanceof SimpleStringRedisMessage) {
            return '+';
        } else if (m instanceof ErrorRedisMessage) {
            return '-';
        }
        return '?';
    }
}
