package io.respsql.replication;

import io.respsql.config.ServerConfig;
import io.respsql.persist.SnapshotReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The stream position a snapshot file stands for, {@code dir/<dbfilename>.repl}: one line
 * {@code <replid> <offset> <capture millis>} (what Redis keeps in the RDB's aux fields). It is
 * written after the snapshot is in place and read only when its capture time is the snapshot's,
 * so a crash between the two renames leaves a position that is ignored, never a wrong one.
 */
final class PositionFile {
    private static final Logger LOG = LoggerFactory.getLogger(PositionFile.class);

    record Position(String replid, long offset) {
    }

    private PositionFile() {
    }

    private static Path path(ServerConfig config) {
        return config.dir().resolve(config.dbFilename() + ".repl");
    }

    /** The position saved with the current snapshot file, or null (none, another snapshot's, unreadable). */
    static Position read(ServerConfig config) {
        Path state = path(config);
        Path snap = config.snapshotPath();
        try {
            if (!Files.exists(state) || !Files.exists(snap)) {
                return null;
            }
            String[] w = Files.readString(state, StandardCharsets.US_ASCII).trim().split("\\s+");
            if (w.length != 3 || w[0].length() != 40) {
                LOG.warn("ignoring malformed replication state file {}", state);
                return null;
            }
            long off = Long.parseLong(w[1]);
            long created = Long.parseLong(w[2]);
            if (SnapshotReader.createdMillis(snap) != created) {
                LOG.info("replication state {} belongs to another snapshot: ignored", state);
                return null;
            }
            return new Position(w[0], off);
        } catch (IOException | NumberFormatException e) {
            LOG.warn("cannot read replication state {}: {}", state, e.toString());
            return null;
        }
    }

    /** Saves the position of the snapshot captured at {@code createdMillis} (write, then rename). */
    static void write(ServerConfig config, String replid, long offset, long createdMillis) {
        Path state = path(config);
        Path tmp = state.resolveSibling(state.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, replid + " " + offset + " " + createdMillis + "\n", StandardCharsets.US_ASCII);
            Files.move(tmp, state, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            LOG.warn("cannot write replication state {}: {}", state, e.toString());
        }
    }
}
