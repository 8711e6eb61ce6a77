package io.respsql.tools;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CsvReaderTest {
    /** Hands out 1 to 7 bytes per read: every field and quote lands on a buffer boundary somewhere. */
    private static InputStream trickle(byte[] b, long seed) {
        Random r = new Random(seed);
        return new FilterInputStream(new java.io.ByteArrayInputStream(b)) {
            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                return super.read(buf, off, Math.min(len, 1 + r.nextInt(7)));
            }
        };
    }

    private record Field(String text, boolean quoted) {
    }

    private static List<List<Field>> readAll(InputStream in, byte delim) throws Exception {
        CsvReader r = new CsvReader(in, delim);
        List<List<Field>> rows = new ArrayList<>();
        while (r.next()) {
            List<Field> row = new ArrayList<>();
            for (int i = 0; i < r.fields; i++) {
                row.add(new Field(r.text(i), r.quoted[i]));
            }
            rows.add(row);
        }
        return rows;
    }

    @Test
    void whatExportWritesReadsBackExactly() throws Exception {
        String alphabet = "ab,;\t\"\n\r 'é😀\\x";
        for (long seed = 0; seed < 300; seed++) {
            Random r = new Random(seed);
            byte delim = seed % 2 == 0 ? (byte) ',' : (byte) '\t';
            List<List<String>> rows = new ArrayList<>();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int n = 1 + r.nextInt(20);
            int width = 1 + r.nextInt(4);
            for (int i = 0; i < n; i++) {
                List<String> row = new ArrayList<>();
                for (int c = 0; c < width; c++) {
                    StringBuilder v = new StringBuilder();
                    int len = r.nextInt(10) == 0 ? 20_000 : r.nextInt(12); // some fields span thousands of reads
                    for (int k = 0; k < len; k++) {
                        v.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0, r.nextInt(alphabet.codePointCount(0, alphabet.length())))));
                    }
                    row.add(v.toString());
                    if (c > 0) {
                        out.write(delim);
                    }
                    Exporter.field(v.toString().getBytes(StandardCharsets.UTF_8), out, delim, new byte[0]);
                }
                out.write(r.nextBoolean() ? "\n".getBytes() : "\r\n".getBytes());
                rows.add(row);
            }
            List<List<Field>> read = readAll(trickle(out.toByteArray(), seed), delim);
            assertEquals(rows.size(), read.size(), "seed " + seed);
            for (int i = 0; i < rows.size(); i++) {
                for (int c = 0; c < width; c++) {
                    Field f = read.get(i).get(c);
                    assertEquals(rows.get(i).get(c), f.text(), "seed " + seed + " row " + i + " col " + c);
                    // the empty string is written quoted: never read back as the (empty) NULL string
                    assertTrue(!rows.get(i).get(c).isEmpty() || f.quoted(), "seed " + seed);
                }
            }
        }
    }

    @Test
    void lineNumbersCountLineBreaksInsideQuotes() throws Exception {
        CsvReader r = new CsvReader(trickle("a,\"x\ny\r\nz\"\nb,c\r\n\"\"\"q\",d\n".getBytes(), 1), (byte) ',');
        assertTrue(r.next());
        assertEquals(1, r.recordLine);
        assertEquals(3, r.lineEnd());
        assertEquals("x\ny\r\nz", r.text(1));
        assertTrue(r.next());
        assertEquals(4, r.recordLine);
        assertTrue(r.next());
        assertEquals(5, r.recordLine);
        assertEquals("\"q", r.text(0));
        assertFalse(r.next());
    }

    @Test
    void byteOrderMarkIsSkippedAndALastLineWithoutNewlineCounts() throws Exception {
        byte[] b = "\uFEFFid,n\n1,2".getBytes(StandardCharsets.UTF_8);
        List<List<Field>> rows = readAll(trickle(b, 2), (byte) ',');
        assertEquals("id", rows.get(0).get(0).text());
        assertEquals(List.of(new Field("1", false), new Field("2", false)), rows.get(1));
        assertEquals(2, rows.size());
    }

    @Test
    void brokenQuotingIsNamed() {
        CsvReader.CsvException e = assertThrows(CsvReader.CsvException.class,
                () -> readAll(new java.io.ByteArrayInputStream("a\n\"b\"c\n".getBytes()), (byte) ','));
        assertEquals(2, e.line);
        assertTrue(e.getMessage().contains("after a closing quote"), e.getMessage());
    }
}
