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
        return aof.hasPending() || syncing;
    }

    /** Flushes {@code ctx} once the pending records are written. */
    public void flushAfterCommit(ChannelHandlerContext ctx) {
        waiting.add(ctx);
        if (!scheduled && !syncing) {
            scheduled = true;
            ctx.channel().eventLoop().execute(this);
        }
    }

    // ---- prepared: with appendfsync always the fsync runs off the event loop ----
    // The loop writes the records and goes on with other connections' statements while the fsync
    // thread makes them durable; the replies that waited for them leave when it is done, and the
    // commits that came meanwhile share the next fsync. A reply held once keeps its place: every
    // later reply of that connection waits too (waitingFor).

    /** An fsync is in flight: replies flushed now wait for it (and the next one, if they follow records). */
    private boolean syncing;
    /** The connections whose replies the fsync in flight releases. */
    private final List<ChannelHandlerContext> syncWaiting = new ArrayList<>();
    private long asyncSyncs;

    /** Whether {@code ctx} has replies held now (its later replies must not overtake them). */
    public boolean waitingFor(ChannelHandlerContext ctx) {
        return (!waiting.isEmpty() && waiting.contains(ctx)) || (!syncWaiting.isEmpty() && syncWaiting.contains(ctx));
    }

    /** Fsyncs run off the event loop so far (INFO). */
    public long asyncSyncs() {
        return asyncSyncs;
    }

    /** The fsync thread's fsync ended ({@code ok}: the records are on disk): its replies leave, and the next group starts. */
    private void synced(boolean ok) {
        syncing = false;
        release(syncWaiting, ok);
        if (!waiting.isEmpty() || aof.hasPending()) {
            run();
        }
    }

    private void release(List<ChannelHandlerContext> list, boolean durable) {
        for (int i = 0; i < list.size(); i++) {
            ChannelHandlerContext ctx = list.get(i);
            if (durable) {
                ctx.flush();
            } else {
                ctx.close();
            }
        }
        if (!durable && !list.isEmpty()) {
            LOG.warn("closed {} connection(s) whose replies wait for an AOF write that failed", list.size());
        }
        list.clear();
    }

    /** Writes pending records now (before a reply that is flushed at once, e.g. followed by a close). */
    public void commitNow() {
        if (aof.hasPending()) {
            aof.writePending();
        }
        aof.syncWritten(); // and what an fsync in flight has not made durable yet
    }

    /** Append-only records made so far. */
    public long appended() {
        return aof.appendedRecords();
    }

    @Override
    public void run() {
        scheduled = false;
        if (syncing) {
            return; // the fsync in flight runs this again when it ends
        }
        if (aof.syncsAsync()) {
            boolean[] failed = new boolean[1];
            boolean toSync = aof.writeUnsynced(failed);
            if (failed[0]) {
                release(waiting, false);
                return;
            }
            if (!toSync) {
                release(waiting, true); // nothing written since the last fsync: nothing to wait for
                return;
            }
            syncing = true;
            asyncSyncs++;
            syncWaiting.addAll(waiting);
            waiting.clear();
            aof.syncAsync(this::synced);
            return;
        }
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
