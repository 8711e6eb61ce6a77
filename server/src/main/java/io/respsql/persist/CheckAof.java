package io.respsql.persist;

import io.respsql.storage.Catalog;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code respsql-check-aof [--fix] <file>}: checks the framing of every record of an append-only
 * file (statements are not run). Exit status 0 when valid; 1 when damaged (or fixed), 2 on a usage
 * error. {@code --fix} truncates the file to the end of the last good record.
 */
public final class CheckAof {
    private CheckAof() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        boolean fix = false;
        Path file = null;
        for (String a : args) {
            if (a.equals("--fix")) {
                fix = true;
            } else if (a.startsWith("-") || file != null) {
                err.println("Usage: respsql-check-aof [--fix] <file.aof>");
                return 2;
            } else {
                file = Path.of(a);
            }
        }
        if (file == null) {
            err.println("Usage: respsql-check-aof [--fix] <file.aof>");
            return 2;
        }
        if (!Files.isRegularFile(file)) {
            err.println("Cannot open " + file + ": no such file");
            return 2;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ,
                fix ? StandardOpenOption.WRITE : StandardOpenOption.READ)) {
            long start = 0;
            if (AofReader.startsWithSnapshot(ch)) {
                start = Preamble.load(ch, new Catalog(), file, null);
            }
            AofReader reader = new AofReader(ch, start, ch.size());
            long records = 0;
            long groupStart = -1;
            long groupRecords = 0;
            while (true) {
                AofReader.Kind kind = reader.next();
                if (kind == AofReader.Kind.SQL || kind == AofReader.Kind.FLUSHALL) {
                    records++;
                    groupRecords++;
                    continue;
                }
                if (kind == AofReader.Kind.MULTI && groupStart < 0) {
                    groupStart = reader.recordStart();
                    groupRecords = 0;
                    continue;
                }
                if (kind == AofReader.Kind.EXEC && groupStart >= 0) {
                    groupStart = -1;
                    continue;
                }
                if (kind == AofReader.Kind.END && groupStart < 0) {
                    out.println("AOF is valid: " + records + " records, " + ch.size() + " bytes");
                    return 0;
                }
                long good = reader.recordStart();
                String why;
                if (kind == AofReader.Kind.MULTI) {
                    why = "MULTI inside the MULTI block opened at offset " + groupStart;
                } else if (kind == AofReader.Kind.EXEC) {
                    why = "EXEC without MULTI";
                } else if (groupStart >= 0 && (kind == AofReader.Kind.END || kind == AofReader.Kind.TRUNCATED)) {
                    // A block is loaded whole or not at all: the good part ends where it begins.
                    why = kind == AofReader.Kind.END ? "the last MULTI block has no EXEC" : "the last MULTI block is cut short";
                    good = groupStart;
                    records -= groupRecords;
                } else {
                    why = kind == AofReader.Kind.TRUNCATED ? "the last record is cut short" : reader.problem();
                }
                long dropped = ch.size() - good;
                out.println("AOF is damaged at offset " + good + " (" + why + "): " + dropped
                        + " bytes after the last good record (" + records + " good records)");
                if (fix) {
                    ch.truncate(good);
                    ch.force(true);
                    out.println("Fixed: truncated " + file + " to " + good + " bytes (" + dropped + " bytes removed)");
                }
                return 1;
            }
        } catch (IOException | AofLoadException e) {
            err.println("Cannot check " + file + ": " + e.getMessage());
            return 2;
        }
    }
}
