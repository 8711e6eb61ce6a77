package io.respsql.it.process;

import io.respsql.config.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged files against the real process: an append-only file cut in the middle of its last
 * record loads what comes before the cut with a warning; a damaged byte in the middle of an
 * append-only file or a snapshot stops the start with status 1 and a message naming the file (and
 * for the log the offset, for the snapshot the checksums).
 */
class DamagedFilesTest {
    private static final String[] AOF = {"--save", "", "--appendonly", "yes", "--appendfsync", "always"};
    private static final int ROWS = 20;

    @TempDir
    Path dir;

    /** Writes table d with rows 1..ROWS, one statement each, then kills the server; returns the AOF. */
    private Path writeAofAndKill() {
        try (ServerProcess server = ServerProcess.start(dir, AOF)) {
            List<String> st = new ArrayList<>();
            st.add("CREATE TABLE d (id INT PRIMARY KEY, s TEXT)");
            for (int i = 1; i <= ROWS; i++) {
                st.add("INSERT INTO d VALUES (" + i + ", 'row " + i + "')");
            }
            Fixture.run(server, st);
            server.kill9();
        }
        Path aof = dir.resolve("appendonly.aof");
        assertTrue(Files.exists(aof), "no appendonly.aof in " + dir);
        return aof;
    }

    /** Start offsets of the RESP multibulk records of an append-only file (and its size last). */
    private static List<Long> recordOffsets(byte[] b) {
        List<Long> starts = new ArrayList<>();
        int pos = 0;
        while (pos < b.length) {
            starts.add((long) pos);
            assertEquals('*', (char) b[pos], "record start at " + pos);
            int eol = indexOfCrlf(b, pos);
            int n = Integer.parseInt(new String(b, pos + 1, eol - pos - 1, StandardCharsets.US_ASCII));
            pos = eol + 2;
            for (int i = 0; i < n; i++) {
                eol = indexOfCrlf(b, pos);
                int len = Integer.parseInt(new String(b, pos + 1, eol - pos - 1, StandardCharsets.US_ASCII));
                pos = eol + 2 + len + 2;
            }
        }
        starts.add((long) b.length);
        return starts;
    }

    private static int indexOfCrlf(byte[] b, int from) {
        for (int i = from; i + 1 < b.length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n') {
                return i;
            }
        }
        throw new AssertionError("no CRLF after " + from);
    }

    private static List<String> ids(ServerProcess server) {
        List<String> out = new ArrayList<>();
        Object reply = server.jedis().sendCommand(WriteLoad.SQL, "SELECT id FROM d ORDER BY id");
        for (Object o : (List<?>) reply) {
            out.add(new String((byte[]) o, StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void aofCutInTheLastRecordLoadsTheRecordsBeforeItWithAWarning() throws IOException {
        Path aof = writeAofAndKill();
        List<Long> offsets = recordOffsets(Files.readAllBytes(aof));
        int records = offsets.size() - 1; // CREATE TABLE and ROWS inserts
        assertEquals(1 + ROWS, records, "records in " + aof);
        long last = offsets.get(records - 1);
        long cut = last + (offsets.get(records) - last) / 2;
        try (FileChannel ch = FileChannel.open(aof, StandardOpenOption.WRITE)) {
            ch.truncate(cut);
        }
        try (ServerProcess server = ServerProcess.start(dir, AOF)) {
            String warning = "AOF " + aof + " ends with a truncated record at offset " + last + ": loaded "
                    + (records - 1) + " records, dropped the last " + (cut - last)
                    + " bytes and truncated the file to " + last + " bytes";
            assertTrue(server.output().stream().anyMatch(l -> l.endsWith("[WARN] AofLoader - " + warning)),
                    () -> "no line '" + warning + "' in:\n" + server.outputText());
            List<String> expected = new ArrayList<>();
            for (int i = 1; i < ROWS; i++) {
                expected.add(Integer.toString(i));
            }
            assertEquals(expected, ids(server));
            assertEquals(last, Files.size(aof), "the file is truncated to its last whole record");
        }
    }

    @Test
    void aofWithADamagedByteInTheMiddleStopsTheStartWithStatusOne() throws IOException {
        Path aof = writeAofAndKill();
        byte[] bytes = Files.readAllBytes(aof);
        List<Long> offsets = recordOffsets(bytes);
        long middle = offsets.get(offsets.size() / 2);
        bytes[(int) middle] = 'X'; // a record's leading '*'
        Files.write(aof, bytes);
        ServerProcess server = ServerProcess.launch(dir, AOF);
        try (server) {
            assertEquals(1, server.awaitExit(Duration.ofSeconds(60)), server::outputText);
            String message = "Bad AOF record at offset " + middle + " in " + aof + ": expected '*', found 'X'."
                    + " Run scripts/respsql-check-aof --fix " + aof + " to truncate it there.";
            assertTrue(server.outputText().contains(message), () -> "no '" + message + "' in:\n" + server.outputText());
        }
    }

    @Test
    void snapshotWithADamagedByteStopsTheStartWithStatusOne() throws IOException {
        String[] options = {"--save", "", "--appendonly", "no"};
        String text = "A".repeat(2000);
        try (ServerProcess server = ServerProcess.start(dir, options)) {
            Fixture.run(server, List.of("CREATE TABLE s (id INT PRIMARY KEY, t TEXT)",
                    "INSERT INTO s VALUES (1, 'before'), (2, '" + text + "'), (3, 'after')"));
            assertEquals("+OK\r\n", Fixture.call(server.raw(), "SAVE"));
            server.kill9();
        }
        Path dump = dir.resolve("dump.rsql");
        byte[] bytes = Files.readAllBytes(dump);
        // Damage a byte inside the long text value, where only the checksum can notice it.
        int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf(text) + text.length() / 2;
        assertTrue(at > text.length() / 2, "the text value is not stored as is in " + dump);
        bytes[at] = 'B';
        Files.write(dump, bytes);
        // The file ends with the CRC32C of everything before it (little-endian) and "RSQL_END".
        int crcAt = bytes.length - 8 - 4;
        int stored = (bytes[crcAt] & 0xff) | (bytes[crcAt + 1] & 0xff) << 8 | (bytes[crcAt + 2] & 0xff) << 16
                | (bytes[crcAt + 3] & 0xff) << 24;
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, crcAt);
        ServerProcess server = ServerProcess.launch(dir, options);
        try (server) {
            assertEquals(1, server.awaitExit(Duration.ofSeconds(60)), server::outputText);
            String message = String.format(Locale.ROOT, "RespSQL %s failed to start: Bad snapshot checksum in %s: expected %08x, found %08x",
                    Version.VERSION, dump, stored, (int) crc.getValue());
            assertTrue(server.output().stream().anyMatch(l -> l.endsWith(message)),
                    () -> "no line ending '" + message + "' in:\n" + server.outputText());
        }
    }
}
