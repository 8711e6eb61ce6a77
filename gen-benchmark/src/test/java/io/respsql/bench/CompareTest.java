package io.respsql.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class CompareTest {

    static final Path REFERENCE = Path.of("..", "bench", "reference", "redisql-2010.json");

    @TempDir
    Path dir;

    private static String update(long mod, double rps, double p50, double p99, double max) {
        return "{\n  \"requests\": " + mod + ",\n  \"requests_per_second\": " + rps + ",\n  \"ok\": true,\n"
                + "  \"int_reply_min\": 0,\n  \"int_reply_max\": 100,\n  \"p50_ms\": " + p50 + ",\n"
                + "  \"p99_ms\": " + p99 + ",\n  \"max_ms\": " + max + ",\n"
                + "  \"percentiles_us\": [[0, " + (long) (p50 * 500) + ", 1], [50, " + (long) (p50 * 1000)
                + ", 50], [99, " + (long) (p99 * 1000) + ", 99], [100, " + (long) (max * 1000) + ", 100]]\n}\n";
    }

    private static String insert(long rows, double rps) {
        return "{\n  \"requests\": " + rows + ",\n  \"requests_per_second\": " + rps + ",\n  \"ok\": true\n}\n";
    }

    private record Out(int code, String out, String err) {
    }

    private Out compare(String... extra) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = new String[extra.length + 4];
        args[0] = "compare";
        args[1] = dir.toString();
        args[2] = "--reference";
        args[3] = REFERENCE.toString();
        System.arraycopy(extra, 0, args, 4, extra.length);
        int code = GenBenchmark.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Out(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void referenceHoldsBothSetsWithFullHistograms() throws Exception {
        List<Compare.RefSet> sets = Compare.loadReference(REFERENCE);
        assertEquals(2, sets.size());
        Compare.RefSet primary = sets.get(0);
        assertEquals("2010-new", primary.id());
        assertEquals(8, primary.byFkRange().size());
        Compare.RefRun r100 = primary.byFkRange().get(100L);
        assertEquals(2711.86, r100.rps());
        assertEquals(68871.48, r100.insertRps());
        assertEquals(11, r100.cumulative().size());
        assertEquals(0, r100.percentileMs(50));
        assertEquals(1, r100.percentileMs(99));
        assertEquals(12, r100.maxMs());
        Compare.RefRun r100k = primary.byFkRange().get(100_000L);
        assertEquals(4.10, r100k.rps());
        assertEquals(244, r100k.percentileMs(50)); // 243 ms: 45%, 244 ms: 67%
        assertEquals(247, r100k.maxMs());
        assertEquals(8, sets.get(1).byFkRange().size());
        assertEquals(1.40, sets.get(1).byFkRange().get(100_000L).rps());
    }

    @Test
    void putsARunBesideThe2010Figures() throws Exception {
        Files.writeString(dir.resolve("update-100000.json"), update(100000, 5423.72, 0.15, 0.9, 3.2));
        Files.writeString(dir.resolve("insert-100000.json"), insert(10_000_000, 137742.4));
        Files.writeString(dir.resolve("update-100.json"), update(100, 8.2, 120.1, 125.0, 130.5));
        Files.writeString(dir.resolve("insert-100.json"), insert(10_000_000, 146599.2));
        Out o = compare();
        assertEquals(0, o.code(), o.err());
        String table = Files.readString(dir.resolve("compare.txt"));
        assertTrue(o.out().startsWith(table), o.out());
        String[] lines = table.split("\n");
        String row100 = find(lines, "100 100000");
        assertTrue(row100.contains("2,712") && row100.contains("5,424") && row100.contains("2.00x"), row100);
        assertTrue(row100.contains("68,871") && row100.contains("137,742"), row100);
        String row100k = find(lines, "100000 100");
        assertTrue(row100k.contains("4.10") && row100k.contains("8.20") && row100k.contains("2.00x"), row100k);
        assertTrue(row100k.contains("244.0") && row100k.contains("120.1"), row100k);

        List<String> tsv = Files.readAllLines(dir.resolve("compare.tsv"));
        assertEquals(3, tsv.size());
        assertTrue(tsv.get(0).startsWith("fk_range\tmod\trows\tupdate_rps_2010\tupdate_rps_now"), tsv.get(0));
        assertTrue(tsv.get(1).startsWith("100\t100000\t10000000\t2711.86\t5423.72\t"), tsv.get(1));

        Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(dir.resolve("compare.svg").toFile());
        assertEquals("svg", svg.getDocumentElement().getNodeName());
        // Two 2010 curves and two new curves in panel 1, three rate series in panel 2.
        assertEquals(7, svg.getElementsByTagName("polyline").getLength());
    }

    @Test
    void rowsComeFromRunEnvWithoutInsertFilesAndUnmatchedRangesStillShow() throws Exception {
        Files.writeString(dir.resolve("run.env"), "REQ=100000\nMODS=\"10 30\"\n");
        Files.writeString(dir.resolve("update-10.json"), update(10, 50, 18, 19, 20));
        Files.writeString(dir.resolve("update-30.json"), update(30, 150, 6, 7, 8));
        Out o = compare("--out", dir.resolve("out").toString());
        assertEquals(0, o.code(), o.err());
        String table = Files.readString(dir.resolve("out").resolve("compare.txt"));
        assertTrue(find(table.split("\n"), "10000 10").contains("32.08"), table);
        String odd = find(table.split("\n"), "3333 30");
        assertTrue(odd.contains(" - "), odd);
        assertTrue(Files.exists(dir.resolve("out").resolve("compare.svg")));
    }

    @Test
    void anEmptyDirectoryIsAnError() {
        Out o = compare();
        assertEquals(1, o.code());
        assertTrue(o.err().contains("no update-MOD.json"), o.err());
    }

    /** The table line whose first columns are {@code fields} (separated by single spaces here). */
    private static String find(String[] lines, String fields) {
        for (String l : lines) {
            if ((l.trim().replaceAll(" +", " ") + " ").startsWith(fields + " ")) {
                return l;
            }
        }
        throw new AssertionError("no line starting with '" + fields + "' in:\n" + String.join("\n", lines));
    }
}
