package io.respsql.net;

import io.netty.channel.ChannelHandlerContext;
import io.respsql.config.FsyncPolicy;
import io.respsql.config.ServerConfig;
import io.respsql.persist.AppendOnlyFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Holds back replies while append-only records produced in the same event-loop iteration are not
 * yet in the file. Connections that have replies to flush while records are pending register
 * here; one task, run on the event loop after the iteration's reads, writes the records (and
 * fsyncs with {@code appendfsync always}) once for all of them, then flushes every waiting
 * connection: a group commit. With no pending records a connection flushes directly, so the path
 * without an AOF does no more than check one buffer. RESP and PostgreSQL connections share it.
 */
public final class GroupCommit implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommit.class);

    private final AppendOnlyFile aof;
    private final ServerConfig config;
    private final List<ChannelHandlerContext> waiting = new ArrayList<>();
    private boolean scheduled;

    GroupCommit(AppendOnlyFile aof, ServerConfig config) {
        this.aof = aof;
        this.config = config;
    }

    /** Whether a connection's replies must wait for the AOF. */
    public boolean holdsReplies() {
        return aof.hasPending();
    }

    /** Flushes {@code ctx} once the pending records are written. */
    public void flushAfterCommit(ChannelHandlerContext ctx) {
        waiting.add(ctx);
        if (!scheduled) {
            scheduled = true;
            ctx.channel().eventLoop().execute(this);
        }
    }

    /** Writes pending records now (before a reply that is flushed at once, e.g. followed by a close). */
    public void commitNow() {
        if (aof.hasPending()) {
            aof.writePending();
        }
    }

    @Override
    public void run() {
        scheduled = false;
        boolean ok = aof.writePending();
        boolean durable = ok || config.appendFsync() != FsyncPolicy.ALWAYS;
        for (int i = 0; i < waiting.size(); i++) {
            ChannelHandlerContext ctx = waiting.get(i);
            if (durable) {
                ctx.flush();
            } else {
                // appendfsync always promises no acknowledged write is lost: rather than
                // acknowledging writes that are not on disk, drop the connection.
                ctx.close();
            }
        }
        if (!durable && !waiting.isEmpty()) {
            LOG.warn("closed {} connection(s) whose replies wait for an AOF write that failed", waiting.size());
        }
        waiting.clear();
    }
}
