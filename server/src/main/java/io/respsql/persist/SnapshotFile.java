package io.respsql.persist;

import io.respsql.storage.CatalogImage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Saving a snapshot file so that a crash at any moment leaves either the old file or the new one. */
public final class SnapshotFile {
    private SnapshotFile() {
    }

    /**
     * Writes the image to {@code <dir>/<fileName>.tmp-<pid>}, forces it to disk, renames it over
     * {@code <dir>/<fileName>} atomically and forces the directory, so the rename itself is durable.
     * The temporary file is removed when anything fails. Returns the file's size in bytes.
     */
    public static long save(CatalogImage image, Path dir, String fileName) throws IOException {
        return save(image, dir, fileName, new SnapshotProgress());
    }

    /** As above, keeping {@code rows} up to date as the rows are written. */
    public static long save(CatalogImage image, Path dir, String fileName, SnapshotProgress rows) throws IOException {
        Path target = dir.resolve(fileName);
        Path tmp = dir.resolve(fileName + ".tmp-" + ProcessHandle.current().pid());
        long size;
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                size = SnapshotWriter.write(image, ch, "Saving snapshot " + target, rows);
                ch.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        syncDirectory(dir);
        return size;
    }

    /** Forces a directory's entries (a rename) to disk. */
    static void syncDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }
}
