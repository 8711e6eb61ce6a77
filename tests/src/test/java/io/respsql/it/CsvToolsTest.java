package io.respsql.it;

import io.respsql.tools.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * respsql-import and respsql-export (tools/) against a real server over the wire: awkward CSV in
 * and out with exact comparisons, bad lines named by line, column and reason with nothing loaded,
 * a server-side refusal reported line by line, and the progress bar watched in a tmux terminal.
 */
class CsvToolsTest extends ServerTestBase {
    @TempDir
    Path dir;

    private record Run(int status, String out, String err) {
    }

    private Run tool(String stdin, String... args) throws Exception {
        List<String> all = new ArrayList<>(Arrays.asList(args));
        all.add(1, "--port");
        all.add(2, String.valueOf(server.port()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(all.toArray(String[]::new), new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                out, new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Path file(String name, String content) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    private static final String TYPES = "(id INT PRIMARY KEY, big BIGINT, f FLOAT, s TEXT, d DATE, ts TIMESTAMP, ok BOOLEAN)";

    /** Quotes, a quoted LF and CRLF, commas, NULL beside '', Unicode (4-byte too), every column type. */
    private static final String AWKWARD = "id,big,f,s,d,ts,ok\n"
            + "1,-9223372036854775808,1.5,\"comma, \"\"quoted\"\" and\nnewline\",2024-06-01,2024-06-01 12:30:00.123456,true\n"
            + "2,9223372036854775807,-0.0,\"\",,,\n"
            + "3,,1e300,Ünïcødé ✓ 😀 — 'single' \\back,1999-12-31,2000-01-01 00:00:00,f\n"
            + "4,0,0.1,\"crlf\r\ninside\",2024-02-29,2024-02-29T23:59:59,0\r\n"
            + "5,42,  7  ,  spaces kept  ,2024-01-01,2024-01-01,yes\n";

    private static final String EXPORTED = "id,big,f,s,d,ts,ok\n"
            + "1,-9223372036854775808,1.5,\"comma, \"\"quoted\"\" and\nnewline\",2024-06-01,2024-06-01 12:30:00.123456,true\n"
            + "2,9223372036854775807,-0.0,\"\",,,\n"
            + "3,,1.0E300,Ünïcødé ✓ 😀 — 'single' \\back,1999-12-31,2000-01-01 00:00:00,false\n"
            + "4,0,0.1,\"crlf\r\ninside\",2024-02-29,2024-02-29 23:59:59,false\n"
            + "5,42,7,  spaces kept  ,2024-01-01,2024-01-01 00:00:00,true\n";

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    private static final List<List<Object>> STORED = List.of(
            row(1L, Long.MIN_VALUE, 1.5, "comma, \"quoted\" and\nnewline", "2024-06-01", "2024-06-01 12:30:00.123456", 1L),
            row(2L, Long.MAX_VALUE, -0.0, "", null, null, null),
            row(3L, null, 1e300, "Ünïcødé ✓ 😀 — 'single' \\back", "1999-12-31", "2000-01-01 00:00:00", 0L),
            row(4L, 0L, 0.1, "crlf\r\ninside", "2024-02-29", "2024-02-29 23:59:59", 0L),
            row(5L, 42L, 7.0, "  spaces kept  ", "2024-01-01", "2024-01-01 00:00:00", 1L));

    /** The table's typed rows by id; a FLOAT (a RESP3 double to lettuce) as a Double, compared exactly. */
    private List<Object> rows(String table) {
        List<?> reply = (List<?>) server.dispatch("QUERY", "SELECT * FROM " + table + " ORDER BY id");
        List<?> types = (List<?>) reply.get(1);
        List<Object> rows = new ArrayList<>();
        for (Object r : reply.subList(2, reply.size())) {
            List<Object> row = new ArrayList<>((List<?>) r);
            for (int i = 0; i < row.size(); i++) {
                if ("FLOAT".equals(types.get(i)) && row.get(i) != null) {
                    row.set(i, Double.valueOf(String.valueOf(row.get(i))));
                }
            }
            rows.add(row);
        }
        return rows;
    }

    @Test
    void awkwardCsvRoundTripsExactly() throws Exception {
        server.dispatch("SQL", "CREATE TABLE rt " + TYPES);
        server.dispatch("SQL", "CREATE TABLE rt2 " + TYPES);
        server.dispatch("SQL", "CREATE TABLE rt3 " + TYPES);
        Path in = file("in.csv", AWKWARD);

        Run imp = tool("", "import", "--progress", "none", "rt", in.toString());
        assertEquals(0, imp.status(), imp.err());
        assertTrue(imp.err().contains("loaded 5 rows into rt"), imp.err());
        assertEquals(STORED, rows("rt"));

        Path out = dir.resolve("out.csv");
        Run exp = tool("", "export", "--progress", "none", "rt", "-o", out.toString());
        assertEquals(0, exp.status(), exp.err());
        // a table has no order of its own: the file's rows as a set, and a query's rows by id exactly
        Run ordered = tool("", "export", "--progress", "none", "--query", "SELECT * FROM rt ORDER BY id");
        assertEquals(EXPORTED, ordered.out());
        assertEquals(new TreeSet<>(List.of(EXPORTED.split("\n(?=\\d)"))),
                new TreeSet<>(List.of(Files.readString(out).split("\n(?=\\d)"))));

        // the export reads back to the same values, from standard input too
        Run back = tool(ordered.out(), "import", "--progress", "none", "rt2");
        assertEquals(0, back.status(), back.err());
        assertEquals(STORED, rows("rt2"));
        assertEquals(EXPORTED, tool("", "export", "--progress", "none", "--query", "SELECT * FROM rt2 ORDER BY id").out());

        // TSV with a NULL string of its own: '\N' is NULL, text "\N" would be quoted
        Run tsv = tool("", "export", "--progress", "none", "--tsv", "--null", "\\N", "--query", "SELECT * FROM rt ORDER BY id");
        assertTrue(tsv.out().startsWith("id\tbig\tf\ts\td\tts\tok\n1\t-9223372036854775808\t1.5\t"), tsv.out());
        assertTrue(tsv.out().contains("\n2\t9223372036854775807\t-0.0\t\t\\N\t\\N\t\\N\n"), tsv.out());
        Run tsvBack = tool(tsv.out(), "import", "--progress", "none", "--tsv", "--null", "\\N", "rt3", "-");
        assertEquals(0, tsvBack.status(), tsvBack.err());
        assertEquals(STORED, rows("rt3"));
    }

    @Test
    void columnsListAndNoHeaderLeaveTheRestToDefaults() throws Exception {
        server.dispatch("SQL", "CREATE TABLE cl (id INT PRIMARY KEY, n INT DEFAULT 7, s TEXT)");
        Run r = tool("b,2\n'a',1\n", "import", "--progress", "none", "--no-header", "--columns", "s,id", "cl");
        assertEquals(0, r.status(), r.err());
        assertEquals(List.of(row(1L, 7L, "'a'"), row(2L, 7L, "b")), rows("cl"));
    }

    @Test
    void aBadLineIsNamedAndNothingLoads() throws Exception {
        server.dispatch("SQL", "CREATE TABLE bl (id INT PRIMARY KEY, a INT NOT NULL, s TEXT)");
        String good = "id,a,s\n1,10,\"two\nlines\"\n2,20,ok\n";
        Run r = tool("", "import", "--progress", "none", "bl", file("bad1.csv", good + "3,abc,x\n4,1,y\n").toString());
        assertEquals(1, r.status());
        assertEquals("respsql-import: line 5, column 'a' (field 2): 'abc' is not a valid INT; nothing was loaded\n", r.err());

        r = tool("", "import", "--progress", "none", "bl", file("bad2.csv", good + "3,,x\n").toString());
        assertEquals("respsql-import: line 5, column 'a' (field 2): NULL (an empty unquoted field) in a NOT NULL column; nothing was loaded\n", r.err());

        r = tool("", "import", "--progress", "none", "bl", file("bad3.csv", good + "3,30\n").toString());
        assertEquals("respsql-import: line 5: 2 fields, expected 3; nothing was loaded\n", r.err());

        r = tool("", "import", "--progress", "none", "bl", file("bad4.csv", good + "3,99999999999,x\n").toString());
        assertEquals("respsql-import: line 5, column 'a' (field 2): '99999999999' is out of range for INT; nothing was loaded\n", r.err());

        r = tool("", "import", "--progress", "none", "bl", file("bad5.csv", good + "3,3,\"open\n4,4,x\n").toString());
        assertEquals("respsql-import: line 5, field 3: quoted field not closed before the end of the file (it opens on line 5); nothing was loaded\n", r.err());

        r = tool("", "import", "--progress", "none", "bl", file("bad6.csv", good + "3,3,x\"y\n").toString());
        assertTrue(r.err().startsWith("respsql-import: line 5, field 3: a quote inside an unquoted field"), r.err());

        Files.write(dir.resolve("bad7.csv"), new byte[] {'i', 'd', ',', 'a', ',', 's', '\n', '1', ',', '1', ',', (byte) 0xC3, '(', '\n'});
        r = tool("", "import", "--progress", "none", "bl", dir.resolve("bad7.csv").toString());
        assertEquals("respsql-import: line 2, column 's' (field 3): not valid UTF-8 text; nothing was loaded\n", r.err());

        r = tool("", "import", "--progress", "none", "bl", file("bad8.csv", "id,nope,s\n").toString());
        assertEquals("respsql-import: table bl has no column 'nope' (columns: id, a, s); nothing was loaded\n", r.err());

        assertEquals(0L, server.dispatch("SQL", "SELECT COUNT(*) FROM bl"));
    }

    @Test
    void aServerRefusalReportsExactlyTheLinesThatWentIn() throws Exception {
        server.dispatch("SQL", "CREATE TABLE dup (id INT PRIMARY KEY, line INT)");
        // ids by line: line 2 holds id 1 ... line 9 repeats id 2 (a duplicate key only the server sees)
        int[] ids = {1, 2, 3, 4, 5, 6, 7, 2, 9, 10, 11};
        StringBuilder csv = new StringBuilder("id,line\n");
        for (int i = 0; i < ids.length; i++) {
            csv.append(ids[i]).append(',').append(i + 2).append('\n');
        }
        Path f = file("dup.csv", csv.toString());

        Run atomic = tool("", "import", "--progress", "none", "--batch", "3", "--atomic", "dup", f.toString());
        assertEquals(1, atomic.status());
        assertTrue(atomic.err().contains("already has id=2"), atomic.err());
        assertTrue(atomic.err().endsWith("nothing was loaded (--atomic: the transaction was not committed)\n"), atomic.err());
        assertEquals(0L, server.dispatch("SQL", "SELECT COUNT(*) FROM dup"));

        Run r = tool("", "import", "--progress", "none", "--batch", "3", "dup", f.toString());
        assertEquals(1, r.status());
        assertTrue(r.err().startsWith("respsql-import: the server refused the statement holding lines 8-10: ERR "), r.err());
        Matcher m = Pattern.compile("loaded (\\d+) rows, from lines ([0-9, -]+); no other line of the file was loaded").matcher(r.err());
        assertTrue(m.find(), r.err());
        TreeSet<Long> reported = new TreeSet<>();
        for (String range : m.group(2).split(", ")) {
            String[] ab = range.split("-");
            for (long l = Long.parseLong(ab[0]); l <= Long.parseLong(ab[1]); l++) {
                reported.add(l);
            }
        }
        TreeSet<Long> stored = new TreeSet<>();
        for (Object row : rows("dup")) {
            stored.add((Long) ((List<?>) row).get(1));
        }
        assertEquals(reported, stored, r.err());
        assertEquals(Long.parseLong(m.group(1)), stored.size());
        assertTrue(stored.containsAll(List.of(2L, 3L, 4L, 5L, 6L, 7L)) && !stored.contains(8L) && !stored.contains(9L), stored.toString());
    }

    @Test
    void wideRowsMakeStatementsOfAboutOneMegabyte() throws Exception {
        server.dispatch("SQL", "CREATE TABLE wide (id INT PRIMARY KEY, s TEXT)");
        String text = "x'\"".repeat(7_000); // 21 KB of text, quotes to double on the way
        StringBuilder csv = new StringBuilder("id,s\n");
        for (int i = 1; i <= 200; i++) {
            csv.append(i).append(",\"").append(text.replace("\"", "\"\"")).append("\"\n");
        }
        csv.append("1,dup\n"); // line 202 repeats id 1: only the server sees it
        Run r = tool("", "import", "--progress", "none", "wide", file("wide.csv", csv.toString()).toString());
        assertEquals(1, r.status());
        // 200 rows of ~21 KB: statements of ~1 MB (49 rows), not one of 201 rows
        Matcher m = Pattern.compile("refused the statement holding lines (\\d+)-202: .*\nrespsql-import: loaded (\\d+) rows, from lines 2-(\\d+);").matcher(r.err());
        assertTrue(m.find(), r.err());
        long first = Long.parseLong(m.group(1));
        assertTrue(first > 150, r.err());
        assertEquals(first - 2, Long.parseLong(m.group(2)), r.err());
        assertEquals(first - 1, Long.parseLong(m.group(3)), r.err());
        assertEquals(first - 2, server.dispatch("SQL", "SELECT COUNT(*) FROM wide"));
        assertEquals(first - 2, server.dispatch("SQL", "SELECT COUNT(*) FROM wide WHERE s = '" + text.replace("'", "''") + "'"));
    }

    @Test
    void plainProgressLinesWhenNotATerminal() throws Exception {
        server.dispatch("SQL", "CREATE TABLE pl (id INT PRIMARY KEY)");
        StringBuilder csv = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            csv.append(i).append('\n');
        }
        Run r = tool(csv.toString(), "import", "--no-header", "--progress-interval", "0.2", "--max-rate", "20000", "--batch", "500", "pl");
        assertEquals(0, r.status(), r.err());
        List<String> loading = r.err().lines().filter(l -> l.startsWith("respsql-import: loading: ")).toList();
        assertTrue(loading.size() >= 3, r.err());
        assertTrue(loading.get(0).matches("respsql-import: loading: \\d+ rows, \\d+ rows/s, [0-9.]+ MB of [0-9.]+ MB \\(\\d+%\\)(, about 0:\\d\\d left)?"), loading.get(0));
        assertTrue(loading.stream().anyMatch(l -> l.matches(".*\\((\\d\\d?)%\\), about 0:\\d\\d left")), r.err());
        assertTrue(r.err().contains("loading: 20000 rows"), r.err());
        assertEquals(20_000L, server.dispatch("SQL", "SELECT COUNT(*) FROM pl"));
    }

    /**
     * The bar in a real terminal (tmux), drawn by the command users run, scripts/respsql-import (its
     * launcher finds the terminal and its width itself; the jar it runs was packaged by this build's
     * tools module): its percentage moves while rows load, then the command ends well.
     */
    @Test
    void theProgressBarMovesInATerminal() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/tmux")) || System.getenv("CI") != null,
                "tmux not installed (required when CI is set)");
        server.dispatch("SQL", "CREATE TABLE pb (id INT PRIMARY KEY, s TEXT)");
        StringBuilder csv = new StringBuilder("id,s\n");
        for (int i = 0; i < 150_000; i++) {
            csv.append(i).append(",row ").append(i).append('\n');
        }
        Path f = file("pb.csv", csv.toString());
        Path root = Path.of("").toAbsolutePath().getParent();
        Path launcher = root.resolve("scripts/respsql-import");
        assertTrue(Files.isExecutable(launcher), launcher + " missing");
        Path jar = root.resolve("tools/target/respsql-tools-0.1.0-SNAPSHOT-all.jar");
        assertTrue(Files.exists(jar), jar + " missing: build with -am so the tools module is packaged first");
        String java = ProcessHandle.current().info().command().orElse("java");
        // The JVM running the tests first on PATH; never a build from inside the test.
        String cmd = "PATH=" + Path.of(java).getParent() + ":$PATH RESPSQL_TOOLS_NO_BUILD=1 " + launcher + " -p " + server.port()
                + " --max-rate 30000 pb " + f + "; echo EXIT=$?; sleep 60";
        String session = "respsql-csv-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        run("tmux", "-L", session, "new-session", "-d", "-s", session, "-x", "160", "-y", "10", "sh", "-c", cmd);
        try {
            Pattern bar = Pattern.compile("loading +\\[[#.]{24}\\] +(\\d+)% [0-9,]+ rows [0-9.]+[kMG]? rows/s [0-9.]+/[0-9.]+ MB \\d+:\\d\\d left");
            TreeSet<Integer> seen = new TreeSet<>();
            String screen = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline && !screen.contains("EXIT=")) {
                screen = run("tmux", "-L", session, "capture-pane", "-p", "-t", session);
                Matcher m = bar.matcher(screen);
                if (m.find()) {
                    seen.add(Integer.parseInt(m.group(1)));
                }
                Thread.sleep(100);
            }
            assertTrue(screen.contains("EXIT=0"), screen);
            assertTrue(screen.contains("loaded 150000 rows into pb"), screen);
            assertTrue(seen.subSet(1, 100).size() >= 3, "bar percentages seen: " + seen + "\n" + screen);
            // the bar is redrawn in place: one loading line on the screen, not one per update
            assertEquals(1, screen.lines().filter(l -> l.startsWith("loading")).count(), screen);
        } finally {
            run("tmux", "-L", session, "kill-server"); // its own server (-L): no other tmux user is touched
        }
        assertEquals(150_000L, server.dispatch("SQL", "SELECT COUNT(*) FROM pb"));
    }

    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }
}
