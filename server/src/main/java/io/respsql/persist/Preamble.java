package io.respsql.persist;

import io.respsql.storage.Catalog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** The snapshot a rewrite puts at the start of an append-only file. */
final class Preamble {
    private Preamble() {
    }

    /** Loads the preamble into {@code catalog}; returns the offset of the first record after it. */
    static long load(FileChannel ch, Catalog catalog, Path file, LoadProgress progress) throws IOException {
        try {
            return SnapshotReader.load(ch, 0, file.toString(), catalog, progress).endOffset();
        } catch (SnapshotException e) {
            throw new AofLoadException("Bad snapshot preamble in AOF " + file + ": " + e.getMessage()
                    + ". The records after it cannot be replayed without it.", e);
        }
    }
}
