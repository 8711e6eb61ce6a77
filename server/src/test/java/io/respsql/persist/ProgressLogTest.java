package io.respsql.persist;

import io.respsql.storage.ProgressLog;
import io.respsql.engine.SqlEngine;
import io.respsql.storage.Catalog;
import io.respsql.storage.CatalogImage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Long snapshot writes and loads log how far they are: here with the interval at zero, a line per buffer. */
class ProgressLogTest {
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());

    @TempDir
    Path dir;

    @BeforeEach
    void catchLines() {
        ProgressLog.intervalNanos = 0;
        ProgressLog.sink = lines::add;
    }

    @AfterEach
    void restore() {
        ProgressLog.intervalNanos = ProgressLog.DEFAULT_INTERVAL_NANOS;
        ProgressLog.sink = s -> LoggerHolder.LOG.info(s);
    }

    private static final class LoggerHolder {
        static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ProgressLog.class);
    }

    /** 512k rows, some 15 MB of snapshot: a dozen buffers of 1 MB. */
    private static Catalog bigCatalog() {
        Catalog catalog = new Catalog();
        SqlEngine engine = new SqlEngine(catalog);
        assertEquals("+OK", SnapshotTesting.sql(engine, "CREATE TABLE big (a INT, b BIGINT, s TEXT)"));
        StringBuilder values = new StringBuilder("INSERT INTO big VALUES ");
        for (int i = 0; i < 1000; i++) {
            values.append(i == 0 ? "" : ",").append('(').append(i).append(',').append(i * 1_000_000_007L).append(",'text of row ").append(i).append("')");
        }
        assertEquals("+OK", SnapshotTesting.sql(engine, values.toString()));
        for (int i = 0; i < 9; i++) {
            assertFalse(SnapshotTesting.sql(engine, "INSERT INTO big SELECT a, b, s FROM big").startsWith("-"));
        }
        assertEquals(":512000", SnapshotTesting.sql(engine, "SELECT COUNT(*) FROM big"));
        return catalog;
    }

    private static final Pattern PERCENT = Pattern.compile(": (\\d+)%, [0-9.]+ MB in \\d+ s \\([0-9.]+ MB/s\\)");

    /** The percentages of the lines that start with {@code what}: at least two, never going back, some strictly inside. */
    private List<Integer> percents(String what) {
        List<Integer> p = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith(what)) {
                Matcher m = PERCENT.matcher(l);
                assertTrue(m.find(), l);
                p.add(Integer.parseInt(m.group(1)));
            }
        }
        assertTrue(p.size() >= 2, what + ": " + lines);
        for (int i = 1; i < p.size(); i++) {
            assertTrue(p.get(i) >= p.get(i - 1), p.toString());
        }
        assertTrue(p.stream().anyMatch(x -> x > 0 && x < 100), p.toString());
        return p;
    }

    @Test
    void savingAndLoadingASnapshotFileLogPercentages() throws Exception {
        Catalog catalog = bigCatalog();
        CatalogImage image = catalog.capture();
        SnapshotProgress rows = new SnapshotProgress();
        List<Long> rowsAtLines = new ArrayList<>();
        ProgressLog.sink = line -> {
            lines.add(line);
            rowsAtLines.add(rows.rowsDone()); // what INFO's current_save_keys_processed shows meanwhile
        };
        try {
            SnapshotFile.save(image, dir, "dump.rsql", rows);
        } finally {
            image.release();
        }
        Path file = dir.resolve("dump.rsql");
        percents("Saving snapshot " + file + ": ");
        assertEquals(512_000, rows.rowsTotal());
        assertEquals(512_000, rows.rowsDone());
        assertTrue(rowsAtLines.stream().anyMatch(n -> n > 0 && n < 512_000), rowsAtLines.toString());
        ProgressLog.sink = lines::add;
        lines.clear();

        SnapshotReader.Result r = SnapshotReader.load(file, new Catalog());
        assertEquals(512_000, r.rows());
        List<Integer> p = percents("Loading snapshot " + file + ": ");
        assertTrue(lines.stream().anyMatch(l -> l.contains("s left")), lines.toString());
        assertTrue(p.get(p.size() - 1) >= 90, p.toString());
    }

    /**
     * An append-only file: written from the data at start, rewritten in the background, then
     * replayed into a fresh engine, each with its own lines; the replay tells a {@link LoadProgress}
     * (INFO's loading_*) how far it is, up to the file's size.
     */
    @Test
    void appendOnlyFileWritesRewritesAndReplaysLogPercentages() throws Exception {
        Catalog catalog = bigCatalog();
        io.respsql.config.ServerConfig config = new io.respsql.config.ServerConfig().dir(dir).appendOnly(true);
        java.util.concurrent.ExecutorService loop = java.util.concurrent.Executors.newSingleThreadExecutor();
        AppendOnlyFile aof = new AppendOnlyFile(config, new SqlEngine(catalog), new BackgroundJobs());
        Path file = config.appendOnlyPath();
        try {
            aof.eventLoop(loop);
            loop.submit(aof::start).get();
            percents("Writing append only file " + file + ": ");
            lines.clear();
            assertEquals(null, loop.submit(aof::rewriteInBackground).get());
            java.util.concurrent.CompletableFuture<Boolean> done = loop.submit(aof::rewriteDone).get();
            assertTrue(done.get(60, java.util.concurrent.TimeUnit.SECONDS));
            percents("Rewriting append only file " + file + ": ");
        } finally {
            loop.submit(aof::close).get();
            loop.shutdown();
        }
        lines.clear();
        LoadProgress progress = new LoadProgress();
        long size = java.nio.file.Files.size(file);
        progress.begin(size, false);
        List<Long> loadedAtLines = new ArrayList<>();
        ProgressLog.sink = line -> {
            lines.add(line);
            loadedAtLines.add(progress.loadedBytes());
        };
        Catalog fresh = new Catalog();
        AofLoader.load(file, new SqlEngine(fresh), progress);
        assertEquals(512_000L, fresh.table("big").rowCount());
        percents("Loading snapshot " + file + ": "); // the preamble
        assertEquals(size, progress.loadedBytes());
        assertTrue(loadedAtLines.stream().anyMatch(n -> n > 0 && n < size), loadedAtLines.toString());
        StringBuilder info = new StringBuilder();
        progress.info(info);
        progress.details(info);
        assertTrue(info.toString().startsWith("loading:1\r\nasync_loading:0\r\nloading_start_time:"), info.toString());
        assertTrue(info.toString().contains("loading_total_bytes:" + size + "\r\n"), info.toString());
        assertTrue(info.toString().contains("loading_loaded_perc:100.00\r\n"), info.toString());
        progress.end();
        info.setLength(0);
        progress.info(info);
        progress.details(info);
        assertEquals("loading:0\r\nasync_loading:0\r\n", info.toString());
    }

    @Test
    void aStreamOfUnknownLengthLogsBytes() throws Exception {
        byte[] bytes = SnapshotTesting.snapshot(bigCatalog());
        lines.clear();
        SnapshotTesting.load(bytes);
        assertTrue(lines.size() >= 2, lines.toString());
        for (String l : lines) {
            assertTrue(l.matches("Loading snapshot test: [0-9.]+ MB in \\d+ s \\([0-9.]+ MB/s\\)"), l);
        }
    }

    @Test
    void workShorterThanTheIntervalLogsNothing() throws Exception {
        ProgressLog.intervalNanos = ProgressLog.DEFAULT_INTERVAL_NANOS;
        Catalog small = new Catalog();
        SnapshotTesting.sql(new SqlEngine(small), "CREATE TABLE t (a INT)");
        SnapshotTesting.load(SnapshotTesting.snapshot(small));
        assertEquals(List.of(), lines);
    }

    /** An index built over 1M rows or more logs its percentage of gather, sort and load, rising to 100. */
    @Test
    void aLargeIndexBuildLogsPercentages() throws Exception {
        Catalog catalog = bigCatalog();
        SqlEngine engine = new SqlEngine(catalog);
        assertFalse(SnapshotTesting.sql(engine, "INSERT INTO big SELECT a + 1000, b, s FROM big").startsWith("-"));
        lines.clear();
        assertEquals("+OK", SnapshotTesting.sql(engine, "CREATE INDEX big_b ON big (b)"));
        Pattern line = Pattern.compile("Building index big_b on big: (\\d+)% of 1024000 rows in \\d+ s.*");
        List<Integer> p = new ArrayList<>();
        for (String l : lines) {
            Matcher m = line.matcher(l);
            assertTrue(m.matches(), l);
            p.add(Integer.parseInt(m.group(1)));
        }
        assertTrue(p.size() >= 3, p.toString());
        for (int i = 1; i < p.size(); i++) {
            assertTrue(p.get(i) >= p.get(i - 1), p.toString());
        }
        assertTrue(p.stream().anyMatch(x -> x > 0 && x < 100), p.toString());
        assertEquals(100, p.get(p.size() - 1));
        assertTrue(lines.stream().anyMatch(l -> l.contains("s left")), lines.toString());
    }
}
