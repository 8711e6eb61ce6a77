package io.respsql.bench.write;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The result directory: every raw file of the run goes here. */
final class Out {

    final Path dir;

    Out(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    PrintWriter writer(String name) {
        try {
            return new PrintWriter(Files.newBufferedWriter(dir.resolve(name), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Appending writer, for files several sections add to. */
    PrintWriter appender(String name) {
        try {
            return new PrintWriter(Files.newBufferedWriter(dir.resolve(name), StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void write(String name, String text) {
        try {
            Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every sample in nanoseconds, one per line, after a comment header. */
    void samples(String name, String header, long[] nanos) {
        try (PrintWriter w = writer(name)) {
            w.println("# " + header);
            w.println("# one client round trip per line, nanoseconds, in the order measured");
            for (long n : nanos) {
                w.println(n);
            }
        }
    }
}
