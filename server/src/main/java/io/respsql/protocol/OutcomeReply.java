package io.respsql.protocol;

import io.respsql.result.Outcome;

/**
 * A statement's {@link Outcome} as its RESP reply, the same under RESP2 and RESP3 (the 2010
 * replies: {@code +OK}, {@code :n}, an array of bulk strings, {@code -ERR ...}). Rows were
 * already streamed by the statement's result form ({@link Rows2010}, {@link TypedRows}); a
 * failure replaces whatever part of the reply is still here with the error, and when part of it
 * already left, writes nothing: the writer is then broken and the connection closes, since a
 * client cannot be told of an error in the middle of an array.
 */
public final class OutcomeReply {
    private OutcomeReply() {
    }

    /** Writes the reply of {@code o}, a statement whose reply began at {@code mark} ({@link RespWriter#mark}). */
    public static void write(RespWriter out, long mark, Outcome o) {
        switch (o.reply()) {
            case OK -> out.ok();
            case INTEGER -> out.integer(o.value());
            case LINES -> {
                out.arrayHeader(o.lines().size());
                for (String line : o.lines()) {
                    out.bulk(line);
                }
            }
            case ERROR -> {
                if (out.discardReply(mark)) {
                    out.error(o.error());
                }
            }
            default -> {
                // ROWS: streamed already; LATER: a worker replies
            }
        }
    }
}
