package io.respsql.it.conformance;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sqllogictest runner's own rules: parsing, printing, sorting, hashing, and counting over the wire. */
class SltRunnerTest {
    @Test
    void valuesPrintPerTheirColumnType() {
        assertEquals("NULL", SltValues.format(null, 'I'));
        assertEquals("NULL", SltValues.format(null, 'T'));
        assertEquals("(empty)", SltValues.format("", 'T'));
        assertEquals("a@b@@", SltValues.format("a\tbé", 'T')); // é is two UTF-8 bytes
        assertEquals("7", SltValues.format("007", 'I'));
        assertEquals("-2", SltValues.format("-2.9", 'I')); // toward zero, as SQLite's driver
        assertEquals("12", SltValues.format(12L, 'I'));
        assertEquals("abc", SltValues.format("abc", 'I')); // not a number: cannot match one
        assertEquals("1.500", SltValues.format("1.5", 'R'));
        assertEquals("3.000", SltValues.format(3L, 'R'));
        assertEquals("-0.333", SltValues.format(-1.0 / 3, 'R'));
        assertEquals("2.0", SltValues.format(2.0, 'T'));
    }

    @Test
    void sortModesAndTheHashOfTheCorpus() {
        List<List<Object>> rows = List.of(row("b", "2"), row("a", "10"), row("a", "9"));
        assertEquals(List.of("b", "2", "a", "10", "a", "9"), SltValues.printed(rows, "TI", "nosort"));
        assertEquals(List.of("a", "10", "a", "9", "b", "2"), SltValues.printed(rows, "TI", "rowsort")); // as strings
        assertEquals(List.of("10", "2", "9", "a", "a", "b"), SltValues.printed(rows, "TI", "valuesort"));
        // select1.test line 974, SELECT b-c FROM t1 ORDER BY 1, as SQLite answers it
        List<String> v = new ArrayList<>();
        for (String s : "-4 -4 -3 -3 -2 -2 -2 -2 -2 -1 -1 -1 -1 -1 -1 -1 1 1 1 1 1 1 2 2 2 3 3 3 3 4".split(" ")) {
            v.add(s);
        }
        assertEquals("970be304ddec1d2bede8d8e2f14368c6", SltValues.md5(v));
    }

    @Test
    void parsesRecordsConditionsAndHalt() {
        SltScript s = SltScript.parse(Path.of("x.test"), List.of(
                "hash-threshold 8", "",
                "statement ok", "CREATE TABLE t1(a INTEGER,", " b INTEGER)", "",
                "# a comment", "onlyif mysql # not us", "statement ok", "SELECT 1 DIV 2", "",
                "skipif mysql", "query IT rowsort label-1", "SELECT a, b", "FROM t1", "----", "1", "x", "",
                "query I nosort", "SELECT a FROM t1", "----", "30 values hashing to 970be304ddec1d2bede8d8e2f14368c6", "",
                "onlyif mssql", "halt", "",
                "statement error", "DROP TABLE nope", "",
                "skipif respsql", "statement ok", "SELECT 2", "",
                "halt", "",
                "statement ok", "SELECT 3"));
        assertEquals(4, s.records.size());
        assertEquals(2, s.skipped);
        assertTrue(s.halted);
        SltScript.Statement create = (SltScript.Statement) s.records.get(0);
        assertEquals("CREATE TABLE t1(a INTEGER,\n b INTEGER)", create.sql());
        assertEquals(3, create.line());
        SltScript.Query q = (SltScript.Query) s.records.get(1);
        assertEquals("IT", q.types());
        assertEquals("rowsort", q.sort());
        assertEquals("label-1", q.label());
        assertEquals(List.of("1", "x"), q.expected());
        SltScript.Query h = (SltScript.Query) s.records.get(2);
        assertNull(h.expected());
        assertEquals(30, h.hashCount());
        assertTrue(((SltScript.Statement) s.records.get(3)).expectError());
    }

    @Test
    void decodersOfBothReplyForms() {
        ResultDecoder.Decoded today = new CommaRowsDecoder().decode(List.of("1,x", "2,"), 2);
        assertEquals(List.of(row("1", "x"), row("2", "")), today.rows());
        assertEquals(List.of(List.of(5L)), new CommaRowsDecoder().decode(5L, 1).rows());
        assertEquals("ERR boom", new CommaRowsDecoder().decode(new Reply.Error("ERR boom"), 1).error());
        assertTrue(new CommaRowsDecoder().decode("OK", 1).failed());
        assertEquals("SQL", new CommaRowsDecoder().command());

        // QUERY: names, types, then rows; a FLOAT bulk string (RESP2) becomes a Double, a RESP3 double stays one
        TypedRowsDecoder typed = new TypedRowsDecoder();
        assertEquals("QUERY", typed.command());
        ResultDecoder.Decoded d = typed.decode(List.of(List.of("i", "f", "s"), List.of("INT", "FLOAT", "TEXT"),
                Arrays.asList(1L, "2.5", "a,b"), Arrays.asList(null, 3.0, null)), 3);
        assertEquals(List.of(row(1L, 2.5, "a,b"), row(null, 3.0, null)), d.rows());
        assertEquals(List.of("INT", "FLOAT", "TEXT"), d.types());
        assertTrue(d.typed());
        assertEquals(List.of(), typed.decode(List.of(List.of("i"), List.of("INT")), 1).rows());
        assertEquals("ERR boom", typed.decode(new Reply.Error("ERR boom"), 1).error());
        assertTrue(typed.decode(5L, 1).failed(), "an integer is not a typed result set");
        assertTrue(typed.decode(List.of(row(1L)), 1).failed(), "rows without the two header arrays");
        assertTrue(typed.decode(List.of(List.of("i"), List.of("INT"), row(1L, 2L)), 1).failed(), "a row wider than its header");
        assertTrue(typed.decode(List.of(List.of("f"), List.of("FLOAT"), row("x")), 1).failed(), "a FLOAT that is no number");
        assertTrue(ResultDecoder.named("2010") instanceof CommaRowsDecoder);
        assertTrue(ResultDecoder.named("typed") instanceof TypedRowsDecoder);
    }

    @Test
    void countsEachOutcomeOverTheWire() throws Exception {
        SltScript script = SltScript.parse(Path.of("wire.test"), List.of(
                "statement ok", "CREATE TABLE t (id INT PRIMARY KEY, v INT, s TEXT)", "",
                "statement ok", "INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, '')", "",
                "statement error", "INSERT INTO t VALUES (1, 0, 'dup')", "",
                "statement ok", "INSERT INTO no_such_table VALUES (1)", "",       // fails: counted failed
                "statement error", "SELECT * FROM t", "",                         // succeeds: counted failed
                "query IIT rowsort", "SELECT id, v, s FROM t", "----", "1", "10", "a", "2", "20", "b", "3", "30", "(empty)", "",
                "query I nosort", "SELECT COUNT(*) FROM t", "----", "3", "",
                "query R nosort", "SELECT v FROM t WHERE id = 2", "----", "20.000", "",
                "query I nosort", "SELECT v FROM t WHERE id = 2", "----", "21", "",      // wrong
                "query II nosort", "SELECT v FROM t WHERE id = 2", "----", "20", "20", "", // wrong: one column
                "query I nosort", "SELECT nope FROM t", "----", "1", ""));              // error
        for (ResultDecoder form : List.of(new TypedRowsDecoder(), new CommaRowsDecoder())) {
            try (TestServer server = TestServer.start()) {
                SltFileRunner.FileResult r = new SltFileRunner(form, 30_000)
                        .run(script, "wire.test", TestServer.HOST, server.port());
                String why = form.command() + ":\n" + String.join("\n", r.failures);
                assertNull(r.aborted, why);
                assertEquals(3, r.statementsOk, why);
                assertEquals(2, r.statementsFailed, why);
                assertEquals(3, r.queriesCorrect, why);
                assertEquals(2, r.queriesWrong, why);
                assertEquals(1, r.queriesError, why);
                assertEquals(3, r.failures.stream().filter(f -> f.contains("\twrong\t") || f.contains("\tquery error\t")).count(), why);
            }
        }
    }

    @Test
    void onlyTheTypedFormCarriesACommaInTextAndANull() throws Exception {
        SltScript script = SltScript.parse(Path.of("typed.test"), List.of(
                "statement ok", "CREATE TABLE t (id INT PRIMARY KEY, v INT, s TEXT)", "",
                "statement ok", "INSERT INTO t VALUES (1, 10, 'a,b')", "",
                "query IIT nosort", "SELECT id, v, s FROM t", "----", "1", "10", "a,b", "",
                "query I nosort", "SELECT MAX(v) FROM t WHERE id = 99", "----", "NULL", "",
                "query T nosort", "SELECT s FROM t", "----", "a,b", ""));
        for (ResultDecoder form : List.of(new TypedRowsDecoder(), new CommaRowsDecoder())) {
            try (TestServer server = TestServer.start()) {
                SltFileRunner.FileResult r = new SltFileRunner(form, 30_000)
                        .run(script, "typed.test", TestServer.HOST, server.port());
                String why = form.command() + ":\n" + String.join("\n", r.failures);
                assertEquals(2, r.statementsOk, why);
                assertEquals(form instanceof TypedRowsDecoder ? 3 : 0, r.queriesCorrect, why);
            }
        }
    }

    @Test
    void aServerThatStopsAnsweringCountsTheRestAsFailed() throws Exception {
        SltScript script = SltScript.parse(Path.of("gone.test"), List.of(
                "statement ok", "CREATE TABLE t (a INT)", "",
                "query I nosort", "SELECT a FROM t", "", "statement ok", "DROP TABLE t", "",
                "query I nosort", "SELECT 1", "----", "1"));
        // answers the first command, then closes; a second one answers nothing until the timeout
        for (boolean close : new boolean[] {true, false}) {
            try (java.net.ServerSocket listener = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                Thread fake = new Thread(() -> {
                    try (java.net.Socket s = listener.accept()) {
                        s.getInputStream().read(new byte[64]);
                        s.getOutputStream().write("+OK\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                        if (!close) {
                            Thread.sleep(5_000);
                        }
                    } catch (Exception ignored) {
                        // the test is over
                    }
                });
                fake.setDaemon(true);
                fake.start();
                SltFileRunner.FileResult r = new SltFileRunner(new CommaRowsDecoder(), 500)
                        .run(script, "gone.test", "127.0.0.1", listener.getLocalPort());
                assertEquals(1, r.statementsOk);
                assertEquals(1, r.statementsFailed);
                assertEquals(2, r.queriesError);
                assertTrue(r.aborted.contains(close ? "connection closed" : "no reply within 500 ms"), r.aborted);
                assertTrue(r.aborted.contains("line 4, 3 records not run"), r.aborted);
            }
        }
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
