package io.respsql.bench.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ChecksTest {

    @Test
    void aMismatchIsLoggedAndFailsTheRun() {
        StringWriter log = new StringWriter();
        Checks c = new Checks(new PrintWriter(log));
        c.equal("count", 3, 3L);
        BenchFailure e = assertThrows(BenchFailure.class, () -> c.equal("SUM(v)", 10, 11));
        assertTrue(e.getMessage().contains("SUM(v): expected 10, got 11"), e.getMessage());
        assertTrue(log.toString().contains("ok   count: expected 3, got 3"), log.toString());
        assertTrue(log.toString().contains("FAIL SUM(v): expected 10, got 11"), log.toString());
        assertEquals(1, c.passed());
    }

    @Test
    void writerLedgerMatchesAModelTableAcrossManyWrites() {
        ModelTarget t = new ModelTarget(false);
        ReadsUnderWrites ruw = new ReadsUnderWrites(null, null, 1234, 1, 1, 1);
        Checks c = new Checks(new PrintWriter(new StringWriter()));
        ruw.rebuild(t, c);
        for (int i = 0; i < 700; i++) {
            ruw.write(t);
        }
        assertEquals(350, ruw.maxId - 1234);
        assertEquals(t.rows.size(), ruw.maxId);
        long sum = 0;
        for (long v : t.rows.values()) {
            sum += v;
        }
        assertEquals(sum, ruw.sum);
    }

    @Test
    void aWriteMatchingTheWrongRowsFails() {
        ModelTarget t = new ModelTarget(true);
        ReadsUnderWrites ruw = new ReadsUnderWrites(null, null, 500, 1, 1, 1);
        ruw.rebuild(t, new Checks(new PrintWriter(new StringWriter())));
        ruw.write(t); // INSERT
        BenchFailure e = assertThrows(BenchFailure.class, () -> ruw.write(t));
        assertTrue(e.getMessage().contains("matched"), e.getMessage());
    }

    /** A table of id -> v with grp = id % 100, understanding only the statements the writer sends. */
    static final class ModelTarget implements Target {
        static final Pattern INSERT = Pattern.compile("INSERT INTO t VALUES \\((\\d+),(\\d+),(\\d+),'x\\d+'\\)");
        static final Pattern UPDATE = Pattern.compile("UPDATE t SET v = v \\+ 1 WHERE grp = (\\d+)");
        final Map<Long, Long> rows = new HashMap<>();
        final boolean miscount;

        ModelTarget(boolean miscount) {
            this.miscount = miscount;
        }

        @Override
        public String name() {
            return "model";
        }

        @Override
        public String key() {
            return "model";
        }

        @Override
        public long exec(String sql) {
            Matcher m = INSERT.matcher(sql);
            if (m.matches()) {
                rows.put(Long.parseLong(m.group(1)), Long.parseLong(m.group(3)));
                return 0;
            }
            m = UPDATE.matcher(sql);
            if (m.matches()) {
                long g = Long.parseLong(m.group(1));
                long n = 0;
                for (Map.Entry<Long, Long> e : rows.entrySet()) {
                    if (e.getKey() % 100 == g) {
                        e.setValue(e.getValue() + 1);
                        n++;
                    }
                }
                return miscount ? n + 1 : n;
            }
            throw new AssertionError("unexpected statement " + sql);
        }

        @Override
        public List<String> query(String sql) {
            if (sql.equals("SELECT COUNT(*) FROM t")) {
                return List.of(Long.toString(rows.size()));
            }
            throw new AssertionError("unexpected query " + sql);
        }

        @Override
        public long lastNanos() {
            return 1;
        }

        @Override
        public void rebuild(long n) {
            rows.clear();
            for (long id = 1; id <= n; id++) {
                rows.put(id, id);
            }
        }

        @Override
        public String rebuildDescription() {
            return "model";
        }

        @Override
        public Target open() {
            return this;
        }

        @Override
        public String describe() {
            return "model";
        }

        @Override
        public void close() {
        }
    }
}
