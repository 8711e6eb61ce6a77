package io.respsql.it.conformance;

import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one parsed file over one RESP connection. Every statement is sent as {@code SQL <text>},
 * every query with the command of the reply form decoded ({@code QUERY} for the typed form), and
 * the whole file is pipelined (a writer thread sends while this thread reads): the server runs
 * one connection's commands in order, so the results are those of running them one by one.
 */
final class SltFileRunner {
    /** Failures kept per file for the log (counts are always complete). */
    static final int KEEP_FAILURES = 300;

    /** Counts for one file, and the first failures. */
    static final class FileResult {
        final String name;
        int statementsOk;
        int statementsFailed;
        int queriesCorrect;
        int queriesWrong;
        int queriesError;
        int skipped;
        /** Records not run because the skip list names them. */
        int listedSkips;
        /** Why the run stopped before the last record (no reply, connection lost), or null. */
        String aborted;
        long millis;
        final List<String> failures = new ArrayList<>();
        /** Every error reply's text, positions blanked, with how often it came (for finding what to build first). */
        final java.util.Map<String, Integer> errors = new java.util.HashMap<>();

        FileResult(String name) {
            this.name = name;
        }

        int queries() {
            return queriesCorrect + queriesWrong + queriesError;
        }

        void countError(String text) {
            errors.merge(text.replaceAll("at position \\d+", "at position N"), 1, Integer::sum);
        }

        void fail(SltScript.Record r, String kind, String detail) {
            if (failures.size() < KEEP_FAILURES) {
                failures.add(name + ":" + r.line() + "\t" + kind + "\t" + oneLine(detail) + "\t" + oneLine(r.sql()));
            }
        }
    }

    private final ResultDecoder decoder;
    private final int replyTimeoutMillis;

    SltFileRunner(ResultDecoder decoder, int replyTimeoutMillis) {
        this.decoder = decoder;
        this.replyTimeoutMillis = replyTimeoutMillis;
    }

    FileResult run(SltScript script, String name, String host, int port) throws IOException {
        FileResult result = new FileResult(name);
        result.skipped = script.skipped;
        long t0 = System.nanoTime();
        try (WireClient client = new WireClient(host, port, replyTimeoutMillis).greet()) {
            InputStream in = client.in();
            OutputStream out = new BufferedOutputStream(client.out(), 1 << 16);
            String command = decoder.command();
            Thread writer = new Thread(() -> send(script.records, command, out), "slt-writer-" + name);
            writer.setDaemon(true);
            writer.start();
            int i = 0;
            try {
                for (; i < script.records.size(); i++) {
                    check(script.records.get(i), Reply.read(in), result);
                }
            } catch (SocketTimeoutException e) {
                abort(script, i, result, "no reply within " + replyTimeoutMillis + " ms");
            } catch (EOFException e) {
                abort(script, i, result, "connection closed: " + e.getMessage());
            } catch (IOException e) {
                abort(script, i, result, e.toString());
            }
        }
        result.millis = (System.nanoTime() - t0) / 1_000_000;
        return result;
    }

    /** Queries go as {@code command} (the one of the reply form decoded), statements as {@code SQL}. */
    private static void send(List<SltScript.Record> records, String command, OutputStream out) {
        try {
            for (SltScript.Record r : records) {
                out.write(WireClient.encode(r instanceof SltScript.Query ? command : "SQL", r.sql()));
            }
            out.flush();
        } catch (IOException closed) {
            // the reader sees the closed connection and reports it
        }
    }

    /** Records from {@code from} on count as failed: the server did not answer them. */
    private static void abort(SltScript script, int from, FileResult result, String why) {
        result.aborted = why + " (record at line " + script.records.get(from).line() + ", "
                + (script.records.size() - from) + " records not run)";
        for (int i = from; i < script.records.size(); i++) {
            SltScript.Record r = script.records.get(i);
            if (r instanceof SltScript.Query) {
                result.queriesError++;
            } else {
                result.statementsFailed++;
            }
            if (i == from) {
                result.fail(r, "aborted", why);
            }
        }
    }

    private void check(SltScript.Record record, Object reply, FileResult result) {
        if (record instanceof SltScript.Statement s) {
            boolean error = reply instanceof Reply.Error;
            if (error == s.expectError()) {
                result.statementsOk++;
            } else {
                result.statementsFailed++;
                if (error) {
                    result.countError(((Reply.Error) reply).text());
                }
                result.fail(s, s.expectError() ? "statement succeeded, error expected" : "statement failed",
                        error ? ((Reply.Error) reply).text() : String.valueOf(reply));
            }
            return;
        }
        SltScript.Query q = (SltScript.Query) record;
        ResultDecoder.Decoded d = decoder.decode(reply, q.types().length());
        if (d.failed()) {
            result.queriesError++;
            result.countError(d.error());
            result.fail(q, "query error", d.error());
            return;
        }
        for (List<Object> row : d.rows()) {
            if (row.size() != q.types().length()) {
                result.queriesWrong++;
                result.fail(q, "wrong", "a row of " + row.size() + " values, " + q.types().length() + " columns expected: " + row);
                return;
            }
        }
        List<String> values = SltValues.printed(d.rows(), q.types(), q.sort());
        boolean correct;
        String detail;
        if (q.expected() == null) {
            String hash = SltValues.md5(values);
            correct = values.size() == q.hashCount() && hash.equals(q.hash());
            detail = values.size() + " values hashing to " + hash + ", expected " + q.hashCount() + " hashing to " + q.hash();
        } else {
            correct = values.equals(q.expected());
            detail = "got " + abbreviate(values) + ", expected " + abbreviate(q.expected());
        }
        if (correct) {
            result.queriesCorrect++;
        } else {
            result.queriesWrong++;
            result.fail(q, "wrong", detail);
        }
    }

    private static String abbreviate(List<String> values) {
        String s = values.size() <= 12 ? values.toString() : values.subList(0, 12) + "... (" + values.size() + " values)";
        return s;
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\t', ' ').replace('\r', ' ');
    }
}
