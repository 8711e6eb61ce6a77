package io.respsql.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.config.ConfigException;
import io.respsql.config.FsyncPolicy;
import io.respsql.config.ServerConfig;
import io.respsql.engine.CommitListener;
import io.respsql.engine.SqlEngine;
import io.respsql.engine.WriteGuard;
import io.respsql.storage.CatalogImage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The append-only file (AOF). Every write that takes effect is encoded as a record into an
 * in-memory buffer ({@link #committed}); before any reply produced in the same event-loop
 * iteration is flushed, the network layer calls {@link #writePending()}, which writes the buffer
 * to the file and, with {@code appendfsync always}, fsyncs it. With {@code everysec} a background
 * thread fsyncs about once a second; with {@code no} the OS decides.
 *
 * <p>If the file cannot be written, the records stay in the buffer, further writes are refused
 * ({@link #refusal()}) and the write is retried from the server's cron until it succeeds; reads
 * keep working. Everything but the background fsync runs on the event-loop thread.
 *
 * <p>A rewrite ({@code BGREWRITEAOF}, {@code CONFIG SET appendonly yes}) captures the catalog on
 * the event loop; a background thread writes it as a snapshot preamble to a temporary file while
 * new records go both to the current file and to a rewrite buffer; back on the event loop the
 * buffer is appended to the temporary file, which is fsynced and renamed over the AOF, and
 * appends continue in it.
 */
public final class AppendOnlyFile implements CommitListener, WriteGuard, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AppendOnlyFile.class);
    private static final int INITIAL_BUFFER = 64 * 1024;
    /** A buffer grown above this by a burst is replaced after it is written. */
    private static final int KEEP_BUFFER = 16 << 20;
    private static final long DELAYED_FSYNC_NANOS = TimeUnit.SECONDS.toNanos(2);

    /** Told of every fsync of the file after it returned (a seam for tests and diagnostics). */
    @FunctionalInterface
    public interface FsyncObserver {
        void fsynced(long fileSize);
    }

    /** The job name {@link BackgroundJobs} knows a rewrite by. */
    public static final String JOB = "append only file rewriting";

    private final ServerConfig config;
    private final SqlEngine engine;
    private final BackgroundJobs jobs;
    /** The event loop, where a background rewrite hands its result back. */
    private Executor loop;
    private ByteBuf buf = Unpooled.directBuffer(INITIAL_BUFFER);
    private boolean open;
    private Path path;
    private volatile FileChannel channel;
    /** Bytes of the file written so far; the next record goes there. */
    private long size;
    private long baseSize;
    private long loadTruncatedBytes;
    private String writeError;
    private volatile FsyncPolicy policy;

    // Background fsync (everysec); guarded by fsyncLock against a channel switch.
    private final Object fsyncLock = new Object();
    private ScheduledExecutorService fsyncThread;
    private volatile long writtenEnd;
    private volatile long syncedEnd;
    private volatile long lastFsyncNanos = System.nanoTime();
    private volatile long fsyncStartedNanos;
    private long delayedFsync;
    private volatile FsyncObserver observer = size -> { };
    private volatile String failWrites;

    // Rewrite state (event loop).
    /** Records committed since the rewrite's capture; non-null while a rewrite runs. */
    private ByteBuf rewriteBuf;
    private boolean rewriteCancelled;
    /** CONFIG SET appendonly yes: the log opens when its first rewrite is done. */
    private boolean openAfterRewrite;
    private boolean lastRewriteOk = true;
    private long rewrites;
    private CompletableFuture<Boolean> rewriteDone = CompletableFuture.completedFuture(true);
    private volatile Runnable rewriteHook = () -> { };

    public AppendOnlyFile(ServerConfig config, SqlEngine engine, BackgroundJobs jobs) {
        this.config = config;
        this.engine = engine;
        this.jobs = jobs;
        this.policy = config.appendFsync();
    }

    /** The event loop; needed before a background rewrite can start. */
    public void eventLoop(Executor loop) {
        this.loop = loop;
    }

    // ---- startup and switching ----------------------------------------------------------------

    /**
     * With {@code appendonly yes}: loads the file if it exists (throws {@link AofLoadException}
     * when it is damaged other than at its tail), else creates it from the current data; then
     * opens it for appending. Call before the server serves clients.
     */
    public void start() {
        load(engine, null);
        openAfterLoad();
    }

    /**
     * The part of {@link #start()} that may run off the event loop, before the file is opened: with
     * {@code appendonly yes}, replays the file into {@code into} (an engine over a catalog the loop
     * does not serve yet), or, when there is no file, writes one from {@code into}'s data. Tells
     * {@code progress} (null: nobody) how far it has read. Then {@link #openAfterLoad()} on the loop.
     */
    public void load(SqlEngine into, LoadProgress progress) {
        if (!config.appendOnly()) {
            return;
        }
        Path p = config.appendOnlyPath();
        try {
            if (Files.exists(p)) {
                AofLoader.Result r = AofLoader.load(p, into, progress);
                loadTruncatedBytes = r.droppedBytes();
                LOG.info("DB loaded from append only file {}: {} records, {} bytes", p, r.records(), r.size());
            } else {
                writeFromData(into.catalog());
            }
        } catch (IOException e) {
            throw new AofLoadException("Cannot open AOF " + p + ": " + e.getMessage(), e);
        }
    }

    /** After {@link #load}: opens the file for appending (event loop). */
    public void openAfterLoad() {
        if (!config.appendOnly()) {
            return;
        }
        Path p = config.appendOnlyPath();
        try {
            openForAppend(p);
            baseSize = size;
        } catch (IOException e) {
            throw new AofLoadException("Cannot open AOF " + p + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code CONFIG SET appendonly yes|no}. Yes starts a background rewrite of the current data;
     * the file takes appends once it is done (writes until then are in the rewrite buffer). No
     * closes the file, cancelling a rewrite in progress.
     */
    public void switchTo(boolean on) throws ConfigException {
        if (on && !open && !openAfterRewrite) {
            if (jobs.running() != null) {
                throw new ConfigException("Background " + jobs.running() + " in progress; try again when it ends");
            }
            if (engine.catalog().hasUncommitted()) {
                throw new ConfigException(io.respsql.storage.Catalog.UNCOMMITTED);
            }
            startRewrite(true);
            LOG.info("append only file enabled: rewriting {} in the background", config.appendOnlyPath());
        } else if (!on && (open || openAfterRewrite)) {
            openAfterRewrite = false;
            if (rewriteBuf != null) {
                rewriteCancelled = true;
            }
            try {
                closeFile();
            } catch (IOException e) {
                LOG.warn("closing the AOF file {} failed: {}", path, e.toString());
            }
            LOG.info("append only file disabled");
        }
    }

    /**
     * Writes {@code catalog}'s data to a temporary file (a snapshot preamble; nothing for an empty
     * catalog: no table, view or prepared statement), fsyncs it and renames it over the AOF
     * ({@link #openAfterLoad} then appends to it). Runs at startup, before the data is served.
     */
    private void writeFromData(io.respsql.storage.Catalog catalog) throws IOException {
        Path target = config.appendOnlyPath();
        Files.createDirectories(target.toAbsolutePath().getParent());
        Path tmp = tempPath(target);
        CatalogImage image = catalog.capture();
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            if (!image.isEmpty()) {
                SnapshotWriter.write(image, out, "Writing append only file " + target);
            }
            out.force(true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        } finally {
            image.release();
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        fsyncDirectory(target);
    }

    /**
     * {@code BGREWRITEAOF}: starts a background rewrite. Returns null when it started, else the
     * error reply (without '-') saying which job is in the way.
     */
    public String rewriteInBackground() {
        if (engine.catalog().hasUncommitted()) {
            return "ERR " + io.respsql.storage.Catalog.UNCOMMITTED;
        }
        if (jobs.running() != null) {
            return "ERR Background " + jobs.running() + " already in progress";
        }
        startRewrite(open);
        return null;
    }

    private void startRewrite(boolean openWhenDone) {
        if (loop == null) {
            throw new IllegalStateException("no event loop to finish a rewrite on");
        }
        jobs.tryStart(JOB);
        CatalogImage image = engine.catalog().capture();
        rewriteBuf = Unpooled.directBuffer(INITIAL_BUFFER);
        rewriteCancelled = false;
        openAfterRewrite = openWhenDone && !open;
        Path target = config.appendOnlyPath();
        Path tmp = tempPath(target);
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        rewriteDone = done;
        Thread writer = new Thread(() -> {
            Throwable failure = null;
            try {
                Files.createDirectories(target.toAbsolutePath().getParent());
                try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
                    if (!image.isEmpty()) {
                        SnapshotWriter.write(image, out, "Rewriting append only file " + target);
                    }
                }
                rewriteHook.run();
            } catch (Throwable e) {
                failure = e;
            }
            Throwable f = failure;
            try {
                loop.execute(() -> finishRewrite(image, tmp, target, f, done));
            } catch (RejectedExecutionException stopped) {
                // The server stopped meanwhile: the current file stays as it is.
                deleteQuietly(tmp);
                done.complete(false);
            }
        }, "respsql-aof-rewrite");
        writer.setDaemon(true);
        writer.start();
    }

    /** Back on the event loop: append what was committed meanwhile, then put the new file in place. */
    private void finishRewrite(CatalogImage image, Path tmp, Path target, Throwable failure,
                               CompletableFuture<Boolean> done) {
        image.release();
        jobs.finished();
        ByteBuf meanwhile = rewriteBuf;
        rewriteBuf = null;
        boolean reopen = open || openAfterRewrite;
        openAfterRewrite = false;
        try {
            if (failure != null) {
                throw failure;
            }
            if (rewriteCancelled) {
                deleteQuietly(tmp);
                done.complete(false);
                return;
            }
            if (open) {
                writePending(); // the old file stays complete until the rename
            }
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ByteBuffer nio = meanwhile.nioBuffer();
                long pos = out.size();
                while (nio.hasRemaining()) {
                    pos += out.write(nio, pos);
                }
                out.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            fsyncDirectory(target);
            if (reopen) {
                FileChannel old = channel;
                // Everything pending is in the new file already (the rewrite buffer got it too).
                buf.clear();
                openForAppend(target);
                baseSize = size;
                if (old != null) {
                    old.close();
                }
            }
            lastRewriteOk = true;
            rewrites++;
            LOG.info("Background append only file rewriting finished: {} ({} bytes)", target, Files.size(target));
            done.complete(true);
        } catch (Throwable e) {
            lastRewriteOk = false;
            deleteQuietly(tmp);
            LOG.warn("Background append only file rewriting failed: {}", e.toString());
            done.complete(false);
        } finally {
            meanwhile.release();
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a stale temporary file is overwritten by the next rewrite
        }
    }

    static Path tempPath(Path target) {
        return target.resolveSibling(target.getFileName() + ".rewrite-" + ProcessHandle.current().pid() + ".tmp");
    }

    static void fsyncDirectory(Path file) throws IOException {
        try (FileChannel dir = FileChannel.open(file.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    private void openForAppend(Path p) throws IOException {
        FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.READ);
        synchronized (fsyncLock) {
            channel = ch;
            size = ch.size();
            writtenEnd = size;
            syncedEnd = size;
        }
        unsyncedEnd = 0;
        path = p;
        open = true;
        writeError = null;
        if (fsyncThread == null) {
            fsyncThread = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "respsql-aof-fsync");
                t.setDaemon(true);
                return t;
            });
            fsyncThread.scheduleAtFixedRate(this::backgroundFsync, 1, 1, TimeUnit.SECONDS);
        }
    }

    /** Writes what is pending, fsyncs and closes the file (appendonly no, shutdown). */
    private void closeFile() throws IOException {
        writePending();
        open = false;
        buf.clear();
        writeError = null;
        synchronized (fsyncLock) {
            FileChannel ch = channel;
            channel = null;
            if (ch != null) {
                try {
                    ch.force(false);
                } finally {
                    ch.close();
                }
            }
        }
    }

    // ---- records --------------------------------------------------------------------------------

    @Override
    public void committed(String sql, long changes, boolean postgres) {
        committedText(sql, changes, postgres);
    }

    /** Writes the text's UTF-8 bytes as they are: the record is the same for a String and a view of it. */
    @Override
    public void committedText(CharSequence sql, long changes, boolean postgres) {
        appendedRecords++;
        if (open) {
            int from = buf.writerIndex();
            AofFormat.writeSql(buf, sql, postgres);
            if (rewriteBuf != null) {
                rewriteBuf.writeBytes(buf, from, buf.writerIndex() - from);
            }
        } else if (rewriteBuf != null) {
            AofFormat.writeSql(rewriteBuf, sql, postgres);
        }
    }

    @Override
    public void flushedAll() {
        appendedRecords++;
        if (open) {
            AofFormat.writeFlushAll(buf);
        }
        if (rewriteBuf != null) {
            AofFormat.writeFlushAll(rewriteBuf);
        }
    }

    /** A MULTI/EXEC block's records follow, between MULTI and EXEC records: loaded only if complete. */
    @Override
    public void blockBegun() {
        appendedRecords++;
        if (open) {
            AofFormat.writeMulti(buf);
        }
        if (rewriteBuf != null) {
            AofFormat.writeMulti(rewriteBuf);
        }
    }

    @Override
    public void blockEnded() {
        if (open) {
            AofFormat.writeExec(buf);
        }
        if (rewriteBuf != null) {
            AofFormat.writeExec(rewriteBuf);
        }
    }

    /** Whether records wait to be written: replies must not be flushed before {@link #writePending()}. */
    public boolean hasPending() {
        return buf.isReadable();
    }

    /**
     * Writes the pending records to the file and, with {@code appendfsync always}, fsyncs it.
     * Returns false if that failed: the records stay pending (and writes are refused) until a
     * later call succeeds.
     */
    public boolean writePending() {
        return writePending(true);
    }

    /**
     * {@link #writePending()}; with {@code sync} false and {@code appendfsync always} the records
     * are written but not fsynced: {@link #syncAsync} follows (the group commit's fsync off the
     * event loop).
     */
    private boolean writePending(boolean sync) {
        if (!open || !buf.isReadable()) {
            return writeError == null;
        }
        FsyncPolicy p = config.appendFsync();
        policy = p;
        try {
            if (failWrites != null) {
                throw new IOException(failWrites);
            }
            ByteBuffer nio = buf.nioBuffer();
            long pos = size;
            FileChannel ch = channel;
            while (nio.hasRemaining()) {
                pos += ch.write(nio, pos);
            }
            if (p == FsyncPolicy.ALWAYS && !sync) {
                unsyncedEnd = pos; // syncAsync makes it durable
            } else if (p == FsyncPolicy.ALWAYS) {
                ch.force(false);
                syncedEnd = pos;
                lastFsyncNanos = System.nanoTime();
                observer.fsynced(pos);
            } else if (p == FsyncPolicy.EVERYSEC) {
                long started = fsyncStartedNanos;
                if (started != 0 && System.nanoTime() - started > DELAYED_FSYNC_NANOS) {
                    delayedFsync++; // the disk is slower than the write rate
                }
            }
            size = pos;
            writtenEnd = pos;
        } catch (IOException e) {
            String reason = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            if (writeError == null) {
                LOG.warn("Error writing to the AOF file {}: {}; refusing writes until it succeeds", path, reason);
            }
            writeError = reason;
            return false;
        }
        buf.clear();
        if (buf.capacity() > KEEP_BUFFER) {
            buf.release();
            buf = Unpooled.directBuffer(INITIAL_BUFFER);
        }
        if (writeError != null) {
            LOG.info("AOF write error looks solved, accepting writes again");
            writeError = null;
        }
        return true;
    }

    // ---- prepared: appendfsync always, the fsync off the event loop (group commit) ----

    /** The end of the records written by {@link #writeUnsynced} and not yet fsynced (0: none); event loop. */
    private long unsyncedEnd;
    /** Records made so far (event loop). */
    private long appendedRecords;

    public long appendedRecords() {
        return appendedRecords;
    }

    /** Fsyncs on the event loop what {@link #writeUnsynced} wrote and no fsync made durable yet. */
    public void syncWritten() {
        FileChannel ch = channel;
        if (unsyncedEnd > syncedEnd && ch != null) {
            try {
                synchronized (fsyncLock) {
                    ch.force(false);
                    if (unsyncedEnd > syncedEnd) {
                        syncedEnd = unsyncedEnd;
                    }
                }
            } catch (IOException e) {
                LOG.warn("fsync of the AOF file {} failed: {}", path, e.toString());
                writeError = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            }
        }
    }

    /**
     * Writes the pending records without waiting for their fsync (appendfsync always); true when
     * written records now wait for {@link #syncAsync}. False with {@code failed} set when the
     * write failed (the records stay pending and writes are refused, as with {@link #writePending()}).
     */
    public boolean writeUnsynced(boolean[] failed) {
        failed[0] = !writePending(false);
        return unsyncedEnd > syncedEnd;
    }

    /** Whether the file is open with {@code appendfsync always} and an fsync thread to run it. */
    public boolean syncsAsync() {
        return open && fsyncThread != null && config.appendFsync() == FsyncPolicy.ALWAYS;
    }

    /**
     * Fsyncs the records written so far on the fsync thread, then runs {@code done} on the event
     * loop with whether they are on disk (a rewrite that took the file over put them in its own,
     * fsynced file: true). A failed fsync refuses writes until a later write and fsync succeed.
     */
    public void syncAsync(java.util.function.Consumer<Boolean> done) {
        long end = unsyncedEnd;
        FileChannel ch = channel;
        fsyncThread.execute(() -> {
            String failure = null;
            synchronized (fsyncLock) {
                if (channel == ch && ch != null) {
                    try {
                        ch.force(false);
                        if (end > syncedEnd) {
                            syncedEnd = end;
                        }
                        lastFsyncNanos = System.nanoTime();
                        observer.fsynced(end);
                    } catch (IOException e) {
                        failure = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
                    }
                }
            }
            String why = failure;
            loop.execute(() -> {
                if (why != null) {
                    if (writeError == null) {
                        LOG.warn("fsync of the AOF file {} failed: {}; refusing writes until it succeeds", path, why);
                    }
                    writeError = why;
                } else if (unsyncedEnd <= end) {
                    unsyncedEnd = 0;
                }
                done.accept(why == null);
            });
        });
    }

    /**
     * Called from the server's cron on the event loop: retries a failed write, and writes records
     * no reply flush asked for (their client left before its replies were flushed).
     */
    public void cron() {
        if (open && (writeError != null || buf.isReadable())) {
            writePending();
        }
    }

    private void backgroundFsync() {
        if (policy != FsyncPolicy.EVERYSEC) {
            return;
        }
        synchronized (fsyncLock) {
            FileChannel ch = channel;
            long end = writtenEnd;
            if (ch == null || end <= syncedEnd) {
                return;
            }
            fsyncStartedNanos = System.nanoTime();
            try {
                ch.force(false);
                syncedEnd = end;
                lastFsyncNanos = System.nanoTime();
                observer.fsynced(end);
            } catch (IOException e) {
                LOG.warn("fsync of the AOF file failed: {}", e.toString());
            } finally {
                fsyncStartedNanos = 0;
            }
        }
    }

    @Override
    public String refusal() {
        return writeError == null ? null : "ERR Errors writing to the AOF file: " + writeError;
    }

    // ---- state ------------------------------------------------------------------------------------

    public boolean isOpen() {
        return open;
    }

    public Path path() {
        return path;
    }

    /** Bytes of the file written so far. */
    public long currentSize() {
        return size;
    }

    /** Test seam: told of every fsync, after it returned. */
    public void fsyncObserver(FsyncObserver o) {
        this.observer = o == null ? s -> { } : o;
    }

    /** Completes (true when it succeeded) when the last rewrite started has ended. */
    public CompletableFuture<Boolean> rewriteDone() {
        return rewriteDone;
    }

    /** Test seam: run by the rewrite thread after it wrote the snapshot, before it hands back. */
    public void rewriteHook(Runnable hook) {
        this.rewriteHook = hook == null ? () -> { } : hook;
    }

    /** Test seam: while non-null every write fails with this reason (as a full disk would). */
    public void failWrites(String reason) {
        this.failWrites = reason;
    }

    /** The {@code # Persistence} fields of INFO about the AOF. */
    public void info(StringBuilder sb) {
        field(sb, "aof_enabled", open || openAfterRewrite ? 1 : 0);
        field(sb, "aof_rewrite_in_progress", rewriteBuf != null ? 1 : 0);
        field(sb, "aof_rewrite_scheduled", 0);
        field(sb, "aof_rewrites", rewrites);
        field(sb, "aof_last_bgrewrite_status", lastRewriteOk ? "ok" : "err");
        field(sb, "aof_last_write_status", writeError == null ? "ok" : "err");
        if (open) {
            long lag = writtenEnd > syncedEnd ? (System.nanoTime() - lastFsyncNanos) / 1000 : 0;
            field(sb, "aof_current_size", size);
            field(sb, "aof_base_size", baseSize);
            field(sb, "aof_buffer_length", buf.readableBytes());
            field(sb, "aof_rewrite_buffer_length", rewriteBuf == null ? 0 : rewriteBuf.readableBytes());
            field(sb, "aof_pending_bio_fsync", fsyncStartedNanos != 0 ? 1 : 0);
            field(sb, "aof_delayed_fsync", delayedFsync);
            field(sb, "aof_fsync_lag_usec", lag);
        }
        field(sb, "aof_last_load_truncated_bytes", loadTruncatedBytes);
    }

    private static void field(StringBuilder sb, String name, Object value) {
        sb.append(name).append(':').append(value).append("\r\n");
    }

    /** Writes what is pending, fsyncs and closes the file; call when the event loop has stopped. */
    @Override
    public void close() {
        rewriteCancelled = true;
        try {
            if (open) {
                closeFile();
            }
        } catch (IOException e) {
            LOG.warn("closing the AOF file {} failed: {}", path, e.toString());
        } finally {
            if (fsyncThread != null) {
                fsyncThread.shutdownNow();
            }
            if (buf.refCnt() > 0) {
                buf.release();
            }
        }
    }
}
