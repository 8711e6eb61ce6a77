package io.respsql.persist;

import io.respsql.config.SaveRules;
import io.respsql.config.ServerConfig;
import io.respsql.engine.CommitListener;
import io.respsql.storage.Catalog;
import io.respsql.storage.CatalogImage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Snapshots (SAVE, BGSAVE, the {@code save} schedule, loading at startup and saving at shutdown)
 * and the one {@link CommitListener} of the SQL engine.
 *
 * <p>The engine has a single commit listener; this class is it and fans each commit out: first
 * to the change counter behind the save rules, then to the append-only log when one is attached
 * ({@link #appendLog}). Everything here runs on the event loop except the writing of a background
 * snapshot, which runs on its own thread and reports back through {@code loop}.
 */
public final class Persistence implements CommitListener {
    private static final Logger LOG = LoggerFactory.getLogger(Persistence.class);
    /** After a failed background save, rules wait this long before trying again (as Redis). */
    private static final long RETRY_DELAY_MILLIS = 5_000;
    /** This job's name in {@link BackgroundJobs} (as in Redis's "Background save already in progress"). */
    static final String JOB = "save";

    /** What {@code SHUTDOWN} was asked to do with the data. */
    public enum ShutdownSave {
        /** Save when save rules are configured (SHUTDOWN with no argument, SIGTERM). */
        DEFAULT,
        SAVE,
        NOSAVE
    }

    private final ServerConfig config;
    private final Catalog catalog;
    private final Executor loop;
    private final BackgroundJobs jobs;
    /**
     * Told of every snapshot capture (event loop); what it returns runs once that snapshot is safely
     * on disk. Replication records the stream position the snapshot stands for this way.
     */
    public interface SnapshotObserver {
        Runnable captured(long createdMillis);
    }

    private SnapshotObserver snapshotObserver = created -> () -> { };
    private CommitListener appendLog = CommitListener.NONE;
    private Consumer<StringBuilder> appendLogInfo = sb -> { };

    /** Rows changed since the last successful save (Redis's {@code dirty}). */
    private long dirty;
    private long lastSaveMillis = System.currentTimeMillis();
    private long saves;
    private boolean lastBgsaveOk = true;
    private long lastBgsaveTryMillis;
    private long lastBgsaveSeconds = -1;
    private long lastCowChunks;
    private long lastCaptureMicros;
    private boolean bgsaveScheduled;

    /** The background save in progress, or null. */
    private BackgroundSave current;
    private final LoadProgress loading = new LoadProgress();

    public Persistence(ServerConfig config, Catalog catalog, Executor loop) {
        this(config, catalog, loop, new BackgroundJobs());
    }

    /** {@code jobs} is shared with the append-only log: its rewrite and a save exclude each other. */
    public Persistence(ServerConfig config, Catalog catalog, Executor loop, BackgroundJobs jobs) {
        this.config = config;
        this.catalog = catalog;
        this.loop = loop;
        this.jobs = jobs;
    }

    /**
     * Attaches the append-only log: it is told of every commit after the change counter, and
     * {@code info} adds its {@code aof_*} fields to {@code INFO persistence}.
     */
    public void appendLog(CommitListener log, Consumer<StringBuilder> info) {
        this.appendLog = log == null ? CommitListener.NONE : log;
        this.appendLogInfo = info == null ? sb -> { } : info;
    }

    public void snapshotObserver(SnapshotObserver o) {
        this.snapshotObserver = o == null ? created -> () -> { } : o;
    }

    // ---- commit listener ---------------------------------------------------------------------

    @Override
    public void committed(String sql, long changes, boolean postgres) {
        committedText(sql, changes, postgres);
    }

    @Override
    public void committedText(CharSequence sql, long changes, boolean postgres) {
        dirty += changes;
        appendLog.committedText(sql, changes, postgres);
    }

    @Override
    public void flushedAll() {
        dirty++;
        appendLog.flushedAll();
    }

    @Override
    public void blockBegun() {
        appendLog.blockBegun();
    }

    @Override
    public void blockEnded() {
        appendLog.blockEnded();
    }

    // ---- startup -------------------------------------------------------------------------------

    /**
     * Loads the data before the server accepts connections: the snapshot file {@code dir/dbfilename}
     * when it exists. (With the append-only log on, the log is loaded here instead.)
     *
     * @throws IOException when the file exists but cannot be loaded; the server must not start
     */
    public void loadAtStartup() throws IOException {
        loadSnapshot(catalog, null);
        dirty = 0;
    }

    /**
     * The snapshot file {@code dir/dbfilename}, when it exists, loaded into {@code into} (a catalog the
     * loop does not serve yet: this may run on a loader thread), telling {@code progress} how far it
     * is. Returns whether there was a file.
     *
     * @throws IOException when the file exists but cannot be loaded; the server must not start
     */
    public boolean loadSnapshot(Catalog into, LoadProgress progress) throws IOException {
        Path file = config.snapshotPath();
        if (!Files.exists(file)) {
            return false;
        }
        long t0 = System.nanoTime();
        SnapshotReader.Result r = SnapshotReader.load(file, into, progress);
        LOG.info("Loaded snapshot {}: {} tables, {} rows in {} ms", file, r.tables(), r.rows(),
                (System.nanoTime() - t0) / 1_000_000);
        return true;
    }

    /** The data loaded at startup is being served now (event loop): nothing is unsaved. */
    public void loaded() {
        dirty = 0;
        loading.end();
    }

    /** The load of the data set at startup (and a replica's load of its master's snapshot). */
    public LoadProgress loading() {
        return loading;
    }

    // ---- saving --------------------------------------------------------------------------------

    public boolean backgroundSaveInProgress() {
        return current != null;
    }

    /** Unix seconds of the last successful save (the start time before the first). */
    public long lastSaveSeconds() {
        return lastSaveMillis / 1000;
    }

    public long changesSinceLastSave() {
        return dirty;
    }

    /**
     * SAVE: captures and writes the snapshot on the calling (event-loop) thread.
     *
     * @throws IllegalStateException when a background save is in progress
     * @throws IOException when the file cannot be written (the old file is left as it was)
     */
    public void save() throws IOException {
        if (current != null) {
            throw new IllegalStateException("Background save already in progress");
        }
        if (jobs.running() != null) {
            throw new IllegalStateException("Background " + jobs.running() + " already in progress");
        }
        long t0 = System.nanoTime();
        CatalogImage image = capture();
        try {
            write(image, t0);
        } finally {
            image.release();
        }
    }

    /** mend: SHUTDOWN's save of an image captured earlier (a transaction's committed image; its owner releases it). */
    private void save(CatalogImage image) throws IOException {
        if (current != null || jobs.running() != null) {
            throw new IllegalStateException("Background save already in progress");
        }
        write(image, System.nanoTime());
    }

    private void write(CatalogImage image, long t0) throws IOException {
        long dirtyBefore = dirty;
        Runnable onSaved = snapshotObserver.captured(image.createdMillis());
        long bytes = SnapshotFile.save(image, config.dir(), config.dbFilename());
        saved(dirtyBefore);
        onSaved.run();
        LOG.info("DB saved on disk: {} bytes, {} rows in {} ms", bytes, image.rowCount(),
                (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * BGSAVE: captures on the event loop, then writes on a thread of its own while the loop keeps
     * serving. The outcome is applied back on the loop.
     *
     * @throws IllegalStateException when a background save is already in progress
     */
    public void startBackgroundSave() {
        if (current != null) {
            throw new IllegalStateException("Background save already in progress");
        }
        if (!jobs.tryStart(JOB)) {
            throw new IllegalStateException("Background " + jobs.running() + " already in progress");
        }
        bgsaveScheduled = false;
        lastBgsaveTryMillis = System.currentTimeMillis();
        CatalogImage image = capture();
        current = new BackgroundSave(dirty, image, config.dir(), config.dbFilename());
        current.onSaved = snapshotObserver.captured(image.createdMillis());
        LOG.info("Background saving started");
        // Thread.start is the happens-before edge that hands the image to the writing thread.
        current.thread.start();
    }

    /** BGSAVE SCHEDULE while a save runs: start another once it ends. */
    public void scheduleBackgroundSave() {
        bgsaveScheduled = true;
    }

    private CatalogImage capture() {
        long t0 = System.nanoTime();
        CatalogImage image = catalog.capture();
        lastCaptureMicros = (System.nanoTime() - t0) / 1000;
        return image;
    }

    private void saved(long dirtyAtCapture) {
        dirty -= dirtyAtCapture;
        lastSaveMillis = System.currentTimeMillis();
        saves++;
    }

    /** One background save: its thread, image and outcome (set by the thread, read on the loop). */
    private final class BackgroundSave {
        final long dirtyAtCapture;
        final CatalogImage image;
        final long startMillis = System.currentTimeMillis();
        final Thread thread;
        Runnable onSaved = () -> { };
        /** Written by the save thread before it posts completion; read on the loop after join or the post. */
        volatile boolean done;
        volatile IOException failure;
        volatile long bytes;
        final SnapshotProgress progress = new SnapshotProgress();

        BackgroundSave(long dirtyAtCapture, CatalogImage image, Path dir, String fileName) {
            this.dirtyAtCapture = dirtyAtCapture;
            this.image = image;
            this.thread = new Thread(() -> {
                try {
                    bytes = SnapshotFile.save(image, dir, fileName, progress);
                } catch (IOException e) {
                    failure = e;
                } catch (RuntimeException | Error e) {
                    failure = new IOException(e.toString(), e);
                }
                done = true;
                try {
                    loop.execute(Persistence.this::backgroundSaveDone);
                } catch (RejectedExecutionException e) {
                    // the server is stopping; shutdown joins this thread and finishes the save itself
                }
            }, "respsql-bgsave");
        }
    }

    /** Applies a finished background save's outcome (event loop). Idempotent. */
    private void backgroundSaveDone() {
        BackgroundSave bg = current;
        if (bg == null || !bg.done) {
            return;
        }
        current = null;
        jobs.finished();
        bg.image.release();
        lastCowChunks = bg.image.copiedChunks();
        long millis = System.currentTimeMillis() - bg.startMillis;
        lastBgsaveSeconds = millis / 1000;
        if (bg.failure == null) {
            lastBgsaveOk = true;
            saved(bg.dirtyAtCapture);
            bg.onSaved.run();
            LOG.info("Background saving terminated with success: {} bytes, {} rows in {} ms, capture {} µs, "
                    + "{} chunks copied on write", bg.bytes, bg.image.rowCount(), millis, lastCaptureMicros, lastCowChunks);
        } else {
            lastBgsaveOk = false;
            LOG.error("Background saving failed: {}", bg.failure.getMessage());
        }
    }

    /** Waits for a background save to end and applies its outcome (event loop; used before shutdown). */
    private void awaitBackgroundSave() {
        BackgroundSave bg = current;
        if (bg == null) {
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                bg.thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        backgroundSaveDone();
    }

    /** The 100 ms timer (serverCron): starts a scheduled save or one the save rules ask for. */
    public void cron(long nowMillis) {
        if (current != null || jobs.running() != null || loading.refusing() || catalog.hasUncommitted()) {
            return; // a log rewrite holds the one capture (or a transaction's writes are uncommitted); checked again after it
        }
        if (bgsaveScheduled) {
            startBackgroundSave();
            return;
        }
        SaveRules rules = config.saveRules();
        if (rules.isEmpty()) {
            return;
        }
        SaveRules.Rule due = rules.due(dirty, nowMillis - lastSaveMillis);
        if (due != null && (lastBgsaveOk || nowMillis - lastBgsaveTryMillis > RETRY_DELAY_MILLIS)) {
            LOG.info("{} changes in {} seconds. Saving...", due.changes(), due.seconds());
            startBackgroundSave();
        }
    }

    /**
     * Saves what SHUTDOWN (or SIGTERM) asks to save, after letting a running background save end.
     * Returns null when the server may stop, else why not (the save failed).
     */
    public String prepareShutdown(ShutdownSave mode) {
        awaitBackgroundSave();
        if (loading.refusing()) {
            // As Redis: stopping while the data set loads saves nothing, which would replace the
            // file being loaded by the part of it loaded so far.
            loading.cancel();
            LOG.info("Stopping while loading the data set: no snapshot is saved");
            return null;
        }
        boolean save = mode == ShutdownSave.SAVE || (mode == ShutdownSave.DEFAULT && !config.saveRules().isEmpty());
        if (!save) {
            return null;
        }
        // mend: an open transaction's uncommitted writes are not saved: the snapshot is its committed
        // image (the data as before its first write), and the transaction stays as it is, so a failed
        // save leaves the server running with it intact, and the statements parked behind its write
        // token stay parked (never run, never acknowledged, after the save).
        io.respsql.storage.ReadView committed = catalog.hasUncommitted() ? catalog.committedImage() : null;
        if (committed == null) {
            catalog.rollbackUncommitted(); // no committed image (none expected): its writes are not saved
        }
        LOG.info("Saving the final snapshot before exiting");
        try {
            if (committed != null) {
                save(committed.image());
            } else {
                save();
            }
            return null;
        } catch (IOException | RuntimeException e) {
            LOG.error("Error trying to save the DB, can't exit: {}", e.getMessage());
            return "Errors trying to SHUTDOWN: saving the snapshot failed: " + e.getMessage();
        } finally {
            if (committed != null) {
                committed.release();
            }
        }
    }

    // ---- INFO ----------------------------------------------------------------------------------

    /** The fields of {@code INFO persistence}. */
    public void info(StringBuilder sb) {
        long now = System.currentTimeMillis();
        loading.info(sb);
        field(sb, "current_save_keys_processed", current == null ? 0 : current.progress.rowsDone());
        field(sb, "current_save_keys_total", current == null ? 0 : current.progress.rowsTotal());
        field(sb, "rdb_changes_since_last_save", dirty);
        field(sb, "rdb_bgsave_in_progress", current != null ? 1 : 0);
        field(sb, "rdb_last_save_time", lastSaveMillis / 1000);
        field(sb, "rdb_saves", saves);
        field(sb, "rdb_last_bgsave_status", lastBgsaveOk ? "ok" : "err");
        field(sb, "rdb_last_bgsave_time_sec", lastBgsaveSeconds);
        field(sb, "rdb_current_bgsave_time_sec", current == null ? -1 : (now - current.startMillis) / 1000);
        field(sb, "rdb_last_cow_chunks", current == null ? lastCowChunks : current.image.copiedChunks());
        field(sb, "rdb_last_capture_usec", lastCaptureMicros);
        appendLogInfo.accept(sb);
        loading.details(sb);
    }

    private static void field(StringBuilder sb, String name, Object value) {
        sb.append(name).append(':').append(value).append("\r\n");
    }
}
