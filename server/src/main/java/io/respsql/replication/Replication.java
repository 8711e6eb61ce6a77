package io.respsql.replication;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoop;
import io.respsql.client.Session;
import io.respsql.config.ConfigException;
import io.respsql.config.ServerConfig;
import io.respsql.engine.CommitListener;
import io.respsql.engine.SqlEngine;
import io.respsql.engine.WriteGuard;
import io.respsql.info.ServerStats;
import io.respsql.persist.AofFormat;
import io.respsql.persist.AppendOnlyFile;
import io.respsql.persist.BackgroundJobs;
import io.respsql.persist.SnapshotReader;
import io.respsql.persist.SnapshotWriter;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;
import io.respsql.storage.CatalogImage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Master/replica replication, as Redis's PSYNC2. The stream is the append-only file's records
 * ({@link AofFormat}); a replication id (40 hex) and a byte offset name a position in it; the last
 * {@code repl-backlog-size} bytes are kept ({@link Backlog}) for replicas that reconnect.
 *
 * <p>As a master it is the SQL engine's commit listener (every write that took effect is appended
 * to the backlog and sent to the online replicas once per event-loop iteration) and answers PSYNC:
 * {@code +CONTINUE} with what the replica missed when its id and offset are in the backlog, else
 * {@code +FULLRESYNC}: a copy-on-write capture, written as a snapshot by a thread of its own and
 * streamed to the replica, followed by the records committed after the capture. A replica whose
 * unsent output passes the replica class's hard {@code client-output-buffer-limit} is disconnected.
 *
 * <p>As a replica ({@link MasterLink}) it applies the master's stream and feeds the same bytes to
 * its own backlog, so its offset is the master's and, once promoted ({@code REPLICAOF NO ONE}), the
 * other replicas can continue from it. It is also the engine's write guard: {@code -READONLY} on a
 * read-only replica, {@code -NOREPLICAS} on a master short of good replicas. Event loop only.
 */
public final class Replication implements CommitListener, WriteGuard {
    private static final Logger LOG = LoggerFactory.getLogger(Replication.class);
    static final String ZERO_ID = "0000000000000000000000000000000000000000";
    /** Name of the full-sync capture in {@link BackgroundJobs}. */
    public static final String JOB = "replica sync";
    public static final String READONLY = "READONLY You can't write against a read only replica.";
    public static final String NOREPLICAS = "NOREPLICAS Not enough good replicas to write.";
    private static final String UNBLOCKED =
            "-UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)\r\n";

    private final ServerConfig config;
    private final ServerStats stats;
    private final SqlEngine engine;
    private final Catalog catalog;
    private final BackgroundJobs jobs;
    private final EventLoop loop;
    /** The kind of socket the link to a master opens: it must match {@link #loop}'s transport. */
    private Class<? extends io.netty.channel.Channel> socketChannel = io.netty.channel.socket.nio.NioSocketChannel.class;
    private AppendOnlyFile aof;

    private String replid = newId();
    private String replid2 = ZERO_ID;
    private long secondOffset = -1;
    /** Null until the first replica connects (or this server becomes a replica), as in Redis. */
    private Backlog backlog;
    /** The stream's offset while there is no backlog. */
    private long idleOffset;

    private final Map<Long, ReplicaPeer> peers = new LinkedHashMap<>();
    private final List<Waiter> waiters = new ArrayList<>();
    private final ByteBuf record = Unpooled.buffer(256);
    private boolean flushScheduled;
    private final Runnable flushTask = this::flush;
    /** A full sync's capture being written, or null. */
    private boolean syncRunning;
    private int syncFiles;

    /** The link to our master; null when this server is a master. */
    private MasterLink link;
    /** Whether our data belongs to a known stream position (else a replica asks with {@code PSYNC ? -1}). */
    private boolean history;
    /** Set while the master's stream is applied: the read-only guard lets those writes through. */
    boolean applying;

    public Replication(ServerConfig config, ServerStats stats, SqlEngine engine, BackgroundJobs jobs, EventLoop loop) {
        this.config = config;
        this.stats = stats;
        this.engine = engine;
        this.catalog = engine.catalog();
        this.jobs = jobs;
        this.loop = loop;
    }

    /** The append-only file, restarted from the data after a full sync (as Redis rewrites it). */
    public void appendOnlyFile(AppendOnlyFile aof) {
        this.aof = aof;
    }

    static String newId() {
        byte[] b = new byte[20];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    // ---- offsets -------------------------------------------------------------------------------

    /** The offset of the last byte of the stream (Redis's {@code master_repl_offset}). */
    public long offset() {
        return backlog == null ? idleOffset : backlog.endOffset();
    }

    private void ensureBacklog() {
        if (backlog == null) {
            backlog = new Backlog(config.replBacklogSize(), idleOffset);
        }
    }

    String replid() {
        return replid;
    }

    public boolean isReplica() {
        return link != null;
    }

    // ---- startup: the stream position a snapshot stands for -------------------------------------

    /**
     * After the data was loaded from the snapshot file: if the position saved with that snapshot
     * matches it ({@link PositionFile}), a replica continues from it (PSYNC with that id and offset,
     * so a restarted replica resyncs partially), and a master keeps it as its second id, so its
     * replicas can continue (Redis does both from the RDB's aux fields).
     */
    public void restoreFromSnapshot() {
        PositionFile.Position p = PositionFile.read(config);
        if (p == null) {
            return;
        }
        idleOffset = p.offset();
        if (config.masterHost() != null) {
            replid = p.replid();
            history = true;
        } else {
            replid2 = p.replid();
            secondOffset = p.offset() + 1;
        }
        ensureBacklog();
        LOG.info("replication position from the snapshot: id {} offset {}", p.replid(), p.offset());
    }

    /** Persistence's snapshot observer: remembers the stream position at the capture, saves it with the snapshot. */
    public Runnable snapshotCaptured(long createdMillis) {
        String id = replid;
        long off = offset();
        return () -> PositionFile.write(config, id, off, createdMillis);
    }

    private io.respsql.persist.LoadProgress loadProgress = new io.respsql.persist.LoadProgress();

    /** Where a replica's load of its master's snapshot reports how far it is (INFO persistence's loading_*). */
    public void loadProgress(io.respsql.persist.LoadProgress progress) {
        this.loadProgress = progress;
    }

    io.respsql.persist.LoadProgress loadProgress() {
        return loadProgress;
    }

    /** Starts replicating when the configuration names a master ({@code replicaof}). */
    public void start() {
        if (config.masterHost() != null) {
            becomeReplica(config.masterHost(), config.masterPort());
        }
    }

    // ---- the master's stream -------------------------------------------------------------------

    @Override
    public void committed(String sql, long changes, boolean postgres) {
        committedText(sql, changes, postgres);
    }

    /** The record written from the text's UTF-8 bytes: the same for a String and a view of it. */
    @Override
    public void committedText(CharSequence sql, long changes, boolean postgres) {
        if (link != null || backlog == null) {
            return; // a replica's stream is its master's bytes, fed as they arrive
        }
        record.clear();
        AofFormat.writeSql(record, sql, postgres);
        append(record);
    }

    @Override
    public void flushedAll() {
        if (link != null || backlog == null) {
            return;
        }
        record.clear();
        AofFormat.writeFlushAll(record);
        append(record);
    }

    /**
     * PUBLISH on a master goes to its replicas (not to the append-only file), whose subscribers get
     * it too, as in Redis. {@code message}'s indexes are left unchanged.
     */
    public void published(byte[] channel, ByteBuf message) {
        if (link != null || backlog == null) {
            return;
        }
        int len = message.readableBytes();
        record.clear();
        record.writeBytes(PUBLISH_HEAD);
        record.writeCharSequence(Integer.toString(channel.length), StandardCharsets.US_ASCII);
        record.writeBytes(CRLF);
        record.writeBytes(channel);
        record.writeBytes(CRLF).writeByte('$');
        record.writeCharSequence(Integer.toString(len), StandardCharsets.US_ASCII);
        record.writeBytes(CRLF);
        record.writeBytes(message, message.readerIndex(), len);
        record.writeBytes(CRLF);
        append(record);
    }

    private static final byte[] PUBLISH_HEAD = "*3\r\n$7\r\nPUBLISH\r\n$".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CRLF = {'\r', '\n'};

    /** Where a replica delivers the PUBLISH records of its master's stream (its Pub/Sub hub). */
    private java.util.function.BiConsumer<byte[], ByteBuf> publisher = (channel, message) -> { };

    public void publisher(java.util.function.BiConsumer<byte[], ByteBuf> publisher) {
        this.publisher = publisher;
    }

    void deliverPublished(byte[] channel, ByteBuf message) {
        publisher.accept(channel, message);
    }

    /** A MULTI/EXEC block goes to replicas as one group, as to the append-only file. */
    @Override
    public void blockBegun() {
        if (link != null || backlog == null) {
            return;
        }
        record.clear();
        AofFormat.writeMulti(record);
        append(record);
    }

    @Override
    public void blockEnded() {
        if (link != null || backlog == null) {
            return;
        }
        record.clear();
        AofFormat.writeExec(record);
        append(record);
    }

    private void append(ByteBuf bytes) {
        backlog.append(bytes, bytes.readerIndex(), bytes.readableBytes());
        scheduleFlush();
    }

    /** A replica: bytes of the master's stream, applied; they go on to our own replicas unchanged. */
    void fed(ByteBuf in, int from, int len) {
        backlog.append(in, from, len);
        if (!peers.isEmpty()) {
            scheduleFlush();
        }
    }

    private void scheduleFlush() {
        if (!flushScheduled && !peers.isEmpty()) {
            flushScheduled = true;
            loop.execute(flushTask);
        }
    }

    /** Once per iteration: hands each replica the stream bytes it has not been sent yet. */
    private void flush() {
        flushScheduled = false;
        if (backlog == null) {
            return;
        }
        long end = backlog.endOffset();
        ByteBuf shared = null;
        long sharedFrom = -1;
        List<ReplicaPeer> drop = null;
        for (ReplicaPeer p : peers.values()) {
            if (p.state != ReplicaPeer.State.ONLINE && p.state != ReplicaPeer.State.WAIT_BGSAVE_END) {
                continue;
            }
            if (p.sent >= end) {
                continue;
            }
            if (!backlog.holdsFrom(p.sent + 1)) {
                (drop == null ? drop = new ArrayList<>() : drop).add(p);
                continue;
            }
            if (shared == null || sharedFrom != p.sent + 1) {
                if (shared != null) {
                    shared.release();
                }
                shared = backlog.copyFrom(p.sent + 1);
                sharedFrom = p.sent + 1;
            }
            p.sent = end;
            if (p.state == ReplicaPeer.State.ONLINE) {
                p.channel.writeAndFlush(shared.retainedDuplicate(), p.channel.voidPromise());
                if (overLimit(p.session.pendingOutputBytes() - p.snapshotBytesPending)) {
                    (drop == null ? drop = new ArrayList<>() : drop).add(p);
                }
            } else {
                p.syncBuffer.writeBytes(shared, shared.readerIndex(), shared.readableBytes());
                if (overLimit(p.syncBuffer.readableBytes())) {
                    (drop == null ? drop = new ArrayList<>() : drop).add(p);
                }
            }
        }
        if (shared != null) {
            shared.release();
        }
        if (drop != null) {
            for (ReplicaPeer p : drop) {
                stats.clientOutputBufferLimitDisconnections++;
                LOG.warn("Client {} (replica) scheduled to be closed ASAP for overcoming of output buffer limits "
                        + "or falling out of the backlog.", p.session.addr());
                p.session.kill();
            }
        }
    }

    private boolean overLimit(long bytes) {
        long hard = config.replicaOutputHardLimit();
        return hard > 0 && bytes > hard;
    }

    // ---- master side commands ------------------------------------------------------------------

    private ReplicaPeer peer(Session s) {
        ReplicaPeer p = peers.get(s.id());
        if (p == null) {
            String addr = s.addr();
            String ip = addr.startsWith("[") ? addr.substring(1, addr.lastIndexOf(']')) : addr.substring(0, addr.lastIndexOf(':'));
            p = new ReplicaPeer(s, ip, System.currentTimeMillis());
            peers.put(s.id(), p);
            long id = s.id();
            s.channel().closeFuture().addListener(f -> loop.execute(() -> peerClosed(id)));
        }
        return p;
    }

    private void peerClosed(long id) {
        ReplicaPeer p = peers.remove(id);
        if (p != null) {
            p.releaseBuffer();
            if (p.state != null) {
                LOG.info("Connection with replica {}:{} lost.", p.ip, p.listeningPort);
            }
        }
    }

    /** {@code REPLCONF listening-port <port>}. */
    public void listeningPort(Session s, int port) {
        peer(s).listeningPort = port;
    }

    /** {@code REPLCONF ACK <offset>} (no reply). */
    public void ack(Session s, long offset) {
        ReplicaPeer p = peers.get(s.id());
        if (p == null) {
            return;
        }
        if (offset > p.ackOffset) {
            p.ackOffset = offset;
        }
        p.lastAckMillis = System.currentTimeMillis();
        checkWaiters();
    }

    /**
     * {@code PSYNC <replid> <offset>}. A partial resync is answered here ({@code +CONTINUE}); a full
     * one writes {@code +FULLRESYNC} itself once its capture is taken, which may be later (another
     * capture holds the slot): returns false then, having written nothing.
     */
    public boolean psync(Session s, String id, long wanted, RespWriter out) {
        if (link != null && !link.connected()) {
            out.error("NOMASTERLINK Can't SYNC while not connected with my master");
            return true;
        }
        ReplicaPeer p = peer(s);
        if (p.state != null) {
            out.error("ERR PSYNC already received on this connection");
            return true;
        }
        s.markReplica();
        stats.replicaClients++; // the connection closes as a replica: ClientConnection counts it down
        boolean known = id.equalsIgnoreCase(replid) || (id.equalsIgnoreCase(replid2) && wanted <= secondOffset);
        if (known && backlog != null && backlog.holdsFrom(wanted)) {
            p.state = ReplicaPeer.State.ONLINE;
            p.sent = wanted - 1;
            p.ackOffset = wanted - 1;
            stats.syncPartialOk++;
            // The reply is queued on the connection now; the backlog bytes follow in a task, after it.
            out.simple("CONTINUE " + replid);
            flushScheduled = false;
            scheduleFlush();
            LOG.info("Partial resynchronization request from {}:{} accepted: sending {} bytes of backlog",
                    p.ip, p.listeningPort, offset() - wanted + 1);
            return true;
        }
        if (!id.equals("?")) {
            stats.syncPartialErr++;
        }
        stats.syncFull++;
        ensureBacklog();
        p.state = ReplicaPeer.State.WAIT_BGSAVE_START;
        LOG.info("Replica {}:{} asks for synchronization: full resync", p.ip, p.listeningPort);
        // After this iteration's replies went out, so +FULLRESYNC comes after the earlier replies.
        loop.execute(this::startFullSync);
        return false;
    }

    /** Starts a full sync for every replica waiting for one, if the capture slot is free. */
    private void startFullSync() {
        if (syncRunning || jobs.running() != null || catalog.hasUncommitted()) {
            return; // retried by cron (a transaction's uncommitted writes are never sent)
        }
        List<ReplicaPeer> batch = new ArrayList<>();
        for (ReplicaPeer p : peers.values()) {
            if (p.state == ReplicaPeer.State.WAIT_BGSAVE_START && p.channel.isActive()) {
                batch.add(p);
            }
        }
        if (batch.isEmpty() || !jobs.tryStart(JOB)) {
            return;
        }
        syncRunning = true;
        flush(); // bytes before the capture go to online replicas first
        CatalogImage image = catalog.capture();
        long at = offset();
        for (ReplicaPeer p : batch) {
            p.state = ReplicaPeer.State.WAIT_BGSAVE_END;
            p.sent = at;
            p.ackOffset = 0;
            p.syncBuffer = Unpooled.buffer(4096);
            p.channel.writeAndFlush(Unpooled.copiedBuffer("+FULLRESYNC " + replid + " " + at + "\r\n",
                    StandardCharsets.US_ASCII), p.channel.voidPromise());
        }
        Path tmp = config.dir().resolve("temp-repl-" + ProcessHandle.current().pid() + "-" + (++syncFiles) + ".rsql");
        Thread writer = new Thread(() -> {
            Throwable failure = null;
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                SnapshotWriter.write(image, ch, "Full sync: writing the snapshot for the replicas");
            } catch (Throwable e) {
                failure = e;
            }
            Throwable f = failure;
            try {
                loop.execute(() -> fullSyncWritten(image, tmp, batch, f));
            } catch (RejectedExecutionException stopped) {
                deleteQuietly(tmp);
            }
        }, "respsql-repl-sync");
        writer.setDaemon(true);
        writer.start();
    }

    /** Back on the loop: the snapshot file is complete; stream it, then the records since the capture. */
    private void fullSyncWritten(CatalogImage image, Path tmp, List<ReplicaPeer> batch, Throwable failure) {
        image.release();
        jobs.finished();
        syncRunning = false;
        try {
            if (failure != null) {
                LOG.error("Writing the snapshot for replicas failed: {}", failure.toString());
                for (ReplicaPeer p : batch) {
                    p.session.kill();
                }
                return;
            }
            flush(); // records since the capture into each replica's sync buffer
            for (ReplicaPeer p : batch) {
                if (!p.channel.isActive() || peers.get(p.session.id()) != p) {
                    continue;
                }
                try {
                    FileChannel fc = FileChannel.open(tmp, StandardOpenOption.READ);
                    long len = fc.size();
                    p.channel.write(Unpooled.copiedBuffer("$" + len + "\r\n", StandardCharsets.US_ASCII), p.channel.voidPromise());
                    // The snapshot in flight is not output the replica is slow to read: the limit
                    // counts only the stream queued behind it.
                    p.snapshotBytesPending = len;
                    io.netty.channel.ChannelProgressivePromise sent = p.channel.newProgressivePromise();
                    io.respsql.storage.ProgressLog sending = new io.respsql.storage.ProgressLog(
                            "Full sync: sending the snapshot to replica " + p.ip + ":" + p.listeningPort);
                    sent.addListener(new io.netty.channel.ChannelProgressiveFutureListener() {
                        @Override
                        public void operationProgressed(io.netty.channel.ChannelProgressiveFuture f, long progress, long total) {
                            sending.at(progress, total, progress);
                        }

                        @Override
                        public void operationComplete(io.netty.channel.ChannelProgressiveFuture f) {
                            p.snapshotBytesPending = 0;
                        }
                    });
                    p.channel.write(snapshotBody(p.channel, fc, len), sent);
                    p.channel.write(p.syncBuffer, p.channel.voidPromise());
                    p.syncBuffer = null;
                    p.state = ReplicaPeer.State.ONLINE;
                    p.channel.flush();
                    LOG.info("Synchronization with replica {}:{} succeeded: {} bytes of snapshot", p.ip, p.listeningPort, len);
                } catch (IOException e) {
                    LOG.error("Cannot send the snapshot to replica {}: {}", p.ip, e.toString());
                    p.session.kill();
                }
            }
        } finally {
            deleteQuietly(tmp); // open channels keep reading the unlinked file
        }
        startFullSync();
    }

    /**
     * The snapshot's bytes as the replica's connection can take them: a file region (sendfile) in
     * plaintext; over TLS, whose SslHandler encrypts buffers only, 64 KB chunks read as the
     * connection drains (a ChunkedWriteHandler, put behind the SslHandler so every later write
     * keeps its order).
     */
    private static Object snapshotBody(io.netty.channel.Channel ch, FileChannel fc, long len) throws IOException {
        io.netty.channel.ChannelPipeline pipe = ch.pipeline();
        io.netty.channel.ChannelHandlerContext tls = pipe.context(io.netty.handler.ssl.SslHandler.class);
        if (tls == null) {
            return new DefaultFileRegion(fc, 0, len);
        }
        if (pipe.get(io.netty.handler.stream.ChunkedWriteHandler.class) == null) {
            pipe.addAfter(tls.name(), "snapshot-chunks", new io.netty.handler.stream.ChunkedWriteHandler());
        }
        return new io.netty.handler.stream.ChunkedNioFile(fc, 0, len, 64 * 1024);
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a stale temporary file is harmless
        }
    }

    // ---- WAIT ----------------------------------------------------------------------------------

    private record Waiter(Session session, long offset, int replicas, long deadlineMillis) {
    }

    private int acked(long off) {
        int n = 0;
        for (ReplicaPeer p : peers.values()) {
            if (p.state == ReplicaPeer.State.ONLINE && p.ackOffset >= off) {
                n++;
            }
        }
        return n;
    }

    /**
     * {@code WAIT numreplicas timeout}: replies at once when enough replicas acknowledged the
     * stream up to this client's last write, else blocks only this client (it is not read from)
     * and returns false; the reply comes with the acknowledgements or at the timeout.
     * With {@code mayBlock} false (WAIT inside EXEC, whose reply is one element of the block's
     * array) it replies the count of acknowledging replicas at once, as Redis does for a client
     * that may not block.
     */
    public boolean waitFor(Session s, int replicas, long timeoutMillis, boolean mayBlock, RespWriter out) {
        if (link != null) {
            out.error("ERR WAIT cannot be used with replica instances. Please also note that writes to replicas are just local and are not propagated.");
            return true;
        }
        long target = s.replicationOffset();
        int n = acked(target);
        if (n >= replicas || !mayBlock) {
            out.integer(n);
            return true;
        }
        long deadline = timeoutMillis == 0 ? 0 : System.currentTimeMillis() + timeoutMillis;
        waiters.add(new Waiter(s, target, replicas, deadline));
        stats.blockedClients = waiters.size();
        s.block();
        if (timeoutMillis > 0) {
            loop.schedule(this::checkWaiters, timeoutMillis, TimeUnit.MILLISECONDS);
        }
        return false;
    }

    private void checkWaiters() {
        if (waiters.isEmpty()) {
            return;
        }
        long now = System.currentTimeMillis();
        for (int i = waiters.size() - 1; i >= 0; i--) {
            Waiter w = waiters.get(i);
            int n = acked(w.offset);
            boolean active = w.session.channel().isActive();
            if (!active || n >= w.replicas || (w.deadlineMillis != 0 && now >= w.deadlineMillis)) {
                waiters.remove(i);
                stats.blockedClients = waiters.size();
                if (active) {
                    io.netty.channel.Channel ch = w.session.channel();
                    ch.write(Unpooled.copiedBuffer(":" + n + "\r\n", StandardCharsets.US_ASCII), ch.voidPromise());
                    // Flushed in a task: after a group commit already queued, so no earlier reply
                    // of this client leaves before its log record is written.
                    loop.execute(ch::flush);
                    w.session.unblock();
                }
            }
        }
    }

    // ---- write guard ---------------------------------------------------------------------------

    @Override
    public String refusal() {
        if (link != null) {
            return config.replicaReadOnly() && !applying ? READONLY : null;
        }
        int min = config.minReplicasToWrite();
        if (min > 0 && goodReplicas() < min) {
            return NOREPLICAS;
        }
        return null;
    }

    /** Online replicas that acknowledged within {@code min-replicas-max-lag} seconds. */
    private int goodReplicas() {
        long now = System.currentTimeMillis();
        long maxLag = config.minReplicasMaxLag();
        int n = 0;
        for (ReplicaPeer p : peers.values()) {
            if (p.state == ReplicaPeer.State.ONLINE && (now - p.lastAckMillis) / 1000 <= maxLag) {
                n++;
            }
        }
        return n;
    }

    // ---- REPLICAOF -----------------------------------------------------------------------------

    /** {@code REPLICAOF host port}; returns the status reply. */
    public String replicaOf(String host, int port) {
        if (link != null && link.host().equalsIgnoreCase(host) && link.port() == port) {
            return "OK Already connected to specified master";
        }
        if (link == null) {
            history = true; // a master turned replica asks to continue its own stream (Redis's cached master)
        }
        becomeReplica(host, port);
        return "OK";
    }

    private void becomeReplica(String host, int port) {
        if (link != null) {
            link.close();
        }
        config.replicaOf(host, port);
        ensureBacklog();
        // Blocked WAITs can no longer be satisfied by this server's replicas. As Redis
        // (disconnectAllBlockedClients): an -UNBLOCKED error, then the connection closes, so
        // nothing the client sent meanwhile runs against what is now a replica.
        for (Waiter w : waiters) {
            w.session.closeAfterReply();
            w.session.channel().writeAndFlush(Unpooled.copiedBuffer(UNBLOCKED, StandardCharsets.US_ASCII))
                    .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
            w.session.unblock();
        }
        waiters.clear();
        stats.blockedClients = 0;
        link = new MasterLink(this, config, engine, loop, socketChannel, host, port);
        LOG.info("Connecting to MASTER {}:{}", host, port);
        link.connect();
    }

    /** {@code REPLICAOF NO ONE}: keeps the data, starts a new history (the old id stays usable as replid2). */
    /** The socket channel class of the event loop's transport (NIO unless set), for the link to a master. */
    // ---- pgtls ----
    /** Makes the client SslHandler of a link to a master (null: plaintext); tls-replication. */
    public interface TlsClient {
        io.netty.handler.ssl.SslHandler handler(io.netty.channel.Channel ch, String host, int port);
    }

    private TlsClient tlsClient = (ch, host, port) -> null;

    public void tlsClient(TlsClient factory) {
        this.tlsClient = factory;
    }

    TlsClient tlsClient() {
        return tlsClient;
    }

    public void socketChannel(Class<? extends io.netty.channel.Channel> type) {
        this.socketChannel = type;
    }

    /** CLIENT KILL TYPE master: drops the link to the master (it reconnects); whether there was one. */
    public boolean killMasterLink() {
        return link != null && link.drop();
    }

    public void promote() {
        if (link == null) {
            return;
        }
        link.close();
        link = null;
        config.replicaOf(null, 0);
        ensureBacklog();
        replid2 = replid;
        secondOffset = offset() + 1;
        replid = newId();
        LOG.info("MASTER MODE enabled: new replication id {}, previous {} valid up to offset {}", replid, replid2, secondOffset - 1);
    }

    // ---- replica side callbacks (MasterLink) ---------------------------------------------------

    /** What the replica asks its master for: our id and the next offset (PSYNC). */
    String psyncId() {
        return history ? replid : "?";
    }

    long psyncOffset() {
        return psyncId().equals("?") ? -1 : offset() + 1;
    }

    /** {@code +CONTINUE [id]}: the master may have a new id (it was promoted); ours follows it. */
    void continued(String newId) {
        if (newId != null && !newId.equalsIgnoreCase(replid)) {
            replid2 = replid;
            secondOffset = offset() + 1;
            replid = newId;
            disconnectPeers(); // they learn the new id by reconnecting
        }
    }

    /**
     * A full sync's snapshot was loaded into {@code fresh} (off the loop): it replaces the data, and
     * our stream position becomes the master's. The received file becomes our snapshot file with
     * its position, so a restart can resync partially.
     */
    void installSnapshot(Catalog fresh, String masterId, long masterOffset, Path received) {
        boolean logOn = aof != null && config.appendOnly();
        if (logOn) {
            switchLog(false);
        }
        // the master's prepared statements replace the replica's own (FLUSHALL's clear keeps them)
        catalog.takeAll(fresh);
        replid = masterId;
        history = true;
        replid2 = ZERO_ID;
        secondOffset = -1;
        ensureBacklog();
        backlog.reset(masterOffset);
        disconnectPeers();
        if (logOn) {
            switchLog(true); // rewrites the log from the data just loaded
        }
        try {
            long created = SnapshotReader.createdMillis(received);
            Files.move(received, config.snapshotPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            PositionFile.write(config, masterId, masterOffset, created);
        } catch (IOException e) {
            LOG.warn("cannot keep the received snapshot as {}: {}", config.snapshotPath(), e.toString());
            deleteQuietly(received);
        }
    }

    /** Writes the append-only records of what was applied (before the replica acknowledges it). */
    void writeLog() {
        if (aof != null && aof.hasPending()) {
            aof.writePending();
        }
    }

    private void switchLog(boolean on) {
        try {
            aof.switchTo(on);
        } catch (ConfigException e) {
            LOG.warn("append only file not {} after the full sync: {}", on ? "restarted" : "stopped", e.getMessage());
        }
    }

    private void disconnectPeers() {
        for (ReplicaPeer p : new ArrayList<>(peers.values())) {
            if (p.state != null) {
                p.session.kill();
            }
        }
    }

    ServerStats stats() {
        return stats;
    }

    // ---- cron, ROLE, INFO ----------------------------------------------------------------------

    private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);
    private long lastPingMillis = System.currentTimeMillis();

    /**
     * Every 100 ms on the loop: reconnects and acknowledges as a replica, pings replicas every
     * {@code repl-ping-replica-period} seconds (in the stream, as Redis, so they can tell a silent
     * master from a dead one), starts waiting syncs, resizes the backlog.
     */
    public void cron(long now) {
        if (link == null && backlog != null && !peers.isEmpty()
                && now - lastPingMillis >= config.replPingReplicaPeriod() * 1000L) {
            lastPingMillis = now;
            record.clear();
            record.writeBytes(PING);
            append(record);
        }
        if (link != null) {
            link.cron(now);
        }
        if (backlog != null && backlog.size() != config.replBacklogSize()) {
            backlog = backlog.resized(config.replBacklogSize());
        }
        for (ReplicaPeer p : peers.values()) {
            if (p.state == ReplicaPeer.State.WAIT_BGSAVE_START) {
                startFullSync();
                break;
            }
        }
        checkWaiters();
    }

    /** {@code ROLE}, in Redis's shapes. */
    public void role(RespWriter out) {
        if (link != null) {
            out.arrayHeader(5);
            out.bulk("slave");
            out.bulk(link.host());
            out.integer(link.port());
            out.bulk(link.roleState());
            out.integer(link.connected() ? offset() : -1);
            return;
        }
        List<ReplicaPeer> attached = attached();
        out.arrayHeader(3);
        out.bulk("master");
        out.integer(offset());
        out.arrayHeader(attached.size());
        for (ReplicaPeer p : attached) {
            out.arrayHeader(3);
            out.bulk(p.ip);
            out.bulk(Integer.toString(p.listeningPort));
            out.bulk(Long.toString(p.ackOffset));
        }
    }

    private List<ReplicaPeer> attached() {
        List<ReplicaPeer> list = new ArrayList<>();
        for (ReplicaPeer p : peers.values()) {
            if (p.state != null) {
                list.add(p);
            }
        }
        return list;
    }

    /** The fields of {@code INFO replication}, with Redis's names. */
    public void info(StringBuilder sb) {
        long now = System.currentTimeMillis();
        if (link != null) {
            field(sb, "role", "slave");
            field(sb, "master_host", link.host());
            field(sb, "master_port", link.port());
            field(sb, "master_link_status", link.connected() ? "up" : "down");
            field(sb, "master_last_io_seconds_ago", link.lastIoSecondsAgo(now));
            field(sb, "master_sync_in_progress", link.syncInProgress() ? 1 : 0);
            field(sb, "slave_read_repl_offset", offset());
            field(sb, "slave_repl_offset", offset());
            if (link.syncInProgress()) {
                field(sb, "master_sync_total_bytes", link.syncTotalBytes());
                field(sb, "master_sync_read_bytes", link.syncReadBytes());
                field(sb, "master_sync_left_bytes", link.syncTotalBytes() - link.syncReadBytes());
                field(sb, "master_sync_perc", String.format(java.util.Locale.ROOT, "%.2f",
                        link.syncTotalBytes() <= 0 ? 0.0 : link.syncReadBytes() * 100.0 / link.syncTotalBytes()));
                field(sb, "master_sync_last_io_seconds_ago", link.lastIoSecondsAgo(now));
            }
            if (!link.connected()) {
                field(sb, "master_link_down_since_seconds", link.downSinceSeconds(now));
            }
            field(sb, "slave_priority", config.replicaPriority());
            field(sb, "slave_read_only", config.replicaReadOnly() ? 1 : 0);
            field(sb, "replica_announced", 1);
        } else {
            field(sb, "role", "master");
        }
        List<ReplicaPeer> attached = attached();
        field(sb, "connected_slaves", attached.size());
        if (link == null && config.minReplicasToWrite() > 0) {
            field(sb, "min_slaves_good_slaves", goodReplicas());
        }
        for (int i = 0; i < attached.size(); i++) {
            ReplicaPeer p = attached.get(i);
            sb.append("slave").append(i).append(":ip=").append(p.ip).append(",port=").append(p.listeningPort)
              .append(",state=").append(p.state.infoName).append(",offset=").append(p.ackOffset)
              .append(",lag=").append(Math.max(0, (now - p.lastAckMillis) / 1000)).append("\r\n");
        }
        field(sb, "master_failover_state", "no-failover");
        field(sb, "master_replid", replid);
        field(sb, "master_replid2", replid2);
        field(sb, "master_repl_offset", offset());
        field(sb, "second_repl_offset", secondOffset);
        field(sb, "repl_backlog_active", backlog == null ? 0 : 1);
        field(sb, "repl_backlog_size", backlog == null ? config.replBacklogSize() : backlog.size());
        field(sb, "repl_backlog_first_byte_offset", backlog == null ? 0 : backlog.firstByteOffset());
        field(sb, "repl_backlog_histlen", backlog == null ? 0 : backlog.histlen());
    }

    private static void field(StringBuilder sb, String name, Object value) {
        sb.append(name).append(':').append(value).append("\r\n");
    }

    /** Closes the link to the master (server stopping). */
    public void close() {
        if (link != null) {
            link.close();
        }
    }
}
