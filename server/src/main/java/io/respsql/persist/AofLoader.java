package io.respsql.persist;

import io.respsql.storage.ProgressLog;
import io.respsql.engine.CommitListener;
import io.respsql.result.Outcome;
import io.respsql.engine.SqlEngine;
import io.respsql.sql.Dialect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays an append-only file into the engine at startup. A record cut short at the end of the
 * file (a crash in the middle of a write) is dropped and the file truncated before it, so appends
 * continue from a clean end (Redis's {@code aof-load-truncated yes}); any other damage, or a
 * statement that fails on replay, stops the load with an {@link AofLoadException} naming the file
 * and the offset.
 */
final class AofLoader {
    private static final Logger LOG = LoggerFactory.getLogger(AofLoader.class);

    /** What a load found. */
    record Result(long records, long size, long droppedBytes) {
    }

    private AofLoader() {
    }

    static Result load(Path file, SqlEngine engine) {
        return load(file, engine, null);
    }

    /** {@link #load(Path, SqlEngine)} telling {@code progress} (null: nobody) how far it has read. */
    static Result load(Path file, SqlEngine engine, LoadProgress progress) {
        CommitListener listener = engine.commitListener();
        engine.commitListener(CommitListener.NONE); // replaying must not log the records again
        engine.unlimited(true); // a statement that took long once must load: no timeout, no loop bound
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long start = 0;
            if (AofReader.startsWithSnapshot(ch)) {
                start = Preamble.load(ch, engine.catalog(), file, progress);
            }
            ProgressLog log = new ProgressLog("Loading append only file " + file);
            long total = ch.size();
            AofReader reader = new AofReader(ch, start, ch.size());
            long records = 0;
            // The records of an open MULTI group (null: FLUSHALL), applied when its EXEC is read.
            List<Logged> group = null;
            long groupStart = -1;
            while (true) {
                AofReader.Kind kind = reader.next();
                long at = reader.position();
                if (progress != null) {
                    progress.at(at);
                }
                log.at(at, total, at);
                switch (kind) {
                    case END:
                        if (group != null) {
                            // Complete records, but the block's EXEC never reached the file.
                            return dropTail(ch, file, groupStart, records, "a MULTI block without its EXEC");
                        }
                        return new Result(records, reader.size(), 0);
                    case SQL:
                        if (group != null) {
                            group.add(new Logged(reader.sql(), reader.postgres()));
                        } else {
                            apply(engine, reader.sql(), reader.postgres(), file, reader.recordStart());
                        }
                        records++;
                        break;
                    case FLUSHALL:
                        if (group != null) {
                            group.add(null);
                        } else {
                            engine.flushAll();
                        }
                        records++;
                        break;
                    case MULTI:
                        if (group != null) {
                            throw new AofLoadException(badRecord(file, reader.recordStart(),
                                    "MULTI inside the MULTI block opened at offset " + groupStart, true));
                        }
                        group = new ArrayList<>();
                        groupStart = reader.recordStart();
                        break;
                    case EXEC:
                        if (group == null) {
                            throw new AofLoadException(badRecord(file, reader.recordStart(), "EXEC without MULTI", true));
                        }
                        io.respsql.exec.write.DeferredChecks.enter(io.respsql.exec.write.DeferredChecks.replay());
                        try {
                            for (Logged w : group) {
                                if (w == null) {
                                    engine.flushAll();
                                } else {
                                    apply(engine, w.sql(), w.postgres(), file, groupStart);
                                }
                            }
                        } finally {
                            io.respsql.exec.write.DeferredChecks.leave(); // (regress24: deferred keys)
                        }
                        group = null;
                        break;
                    case TRUNCATED:
                        if (group != null) {
                            // A block is loaded whole or not at all: drop all of it.
                            return dropTail(ch, file, groupStart, records - group.size(), "a truncated MULTI block");
                        }
                        return dropTail(ch, file, reader.recordStart(), records, "a truncated record");
                    case CORRUPT:
                    default:
                        throw new AofLoadException(badRecord(file, reader.recordStart(), reader.problem(), true));
                }
            }
        } catch (IOException e) {
            throw new AofLoadException("Cannot read AOF " + file + ": " + e.getMessage(), e);
        } finally {
            engine.unlimited(false);
            engine.commitListener(listener);
        }
    }

    /** A statement of a MULTI group read but not yet applied, with the dialect it ran in. */
    private record Logged(String sql, boolean postgres) {
    }

    /**
     * Replays one statement in the dialect it ran in (a {@code PGSQL} record: PostgreSQL's); its
     * outcome, not a reply, says whether it took effect.
     */
    private static void apply(SqlEngine engine, String sql, boolean postgres, Path file, long offset) {
        Outcome outcome;
        boolean prior = Dialect.set(postgres);
        try {
            outcome = engine.execute(sql);
        } finally {
            Dialect.set(prior);
        }
        if (!outcome.ok()) {
            throw new AofLoadException(badRecord(file, offset, "replaying it failed: " + outcome.error(), false));
        }
    }

    /** Cuts the file at {@code good} (the start of what cannot be loaded), with a WARN. */
    private static Result dropTail(FileChannel ch, Path file, long good, long records, String what) throws IOException {
        long dropped = ch.size() - good;
        ch.truncate(good);
        ch.force(true);
        LOG.warn("AOF {} ends with {} at offset {}: loaded {} records, "
                + "dropped the last {} bytes and truncated the file to {} bytes",
                file, what, good, records, dropped, good);
        return new Result(records, good, dropped);
    }

    /** The message of a load that stops at a bad record. */
    static String badRecord(Path file, long offset, String problem, boolean fixable) {
        String msg = "Bad AOF record at offset " + offset + " in " + file + ": " + problem + ".";
        if (fixable) {
            return msg + " Run scripts/respsql-check-aof --fix " + file + " to truncate it there.";
        }
        return msg + " Truncate the file at that offset (truncate -s " + offset + " " + file
                + ") to drop it and everything after it.";
    }
}
