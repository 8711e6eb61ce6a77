package io.respsql.it;

import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The FK-range update benchmark at 1,000,000 rows: message_list holds (n, n % 100, 4) with an
 * index on fk; UPDATEs by fk each change 10,000 rows; then every row is read back by primary-key
 * ranges and compared with the test's own bookkeeping.
 */
class LargeFkUpdateTest extends ServerTestBase {
    private static final int ROWS = 1_000_000;
    private static final int MOD = 100;
    private static final int ROWS_PER_INSERT = 1_000;
    private static final int CHUNK = 50_000;


    private static String padded(long n) {
        return String.format("%012d", n); // gen-benchmark's key format
    }

    @Test
    void updatesByForeignKeyOverAMillionRows() {
        StatefulRedisConnection<String, String> connection = server.newLettuceConnection();
        assertEquals("OK", server.dispatch("CREATE", "TABLE", "message_list", "(id int primary key, fk int, count INT)"));
        assertEquals("OK", server.dispatch("CREATE", "INDEX", "message_list:fk:index", "ON", "message_list", "(fk)"));

        List<String[]> inserts = new ArrayList<>(ROWS / ROWS_PER_INSERT);
        for (int from = 1; from <= ROWS; from += ROWS_PER_INSERT) {
            String statement = SqlText.insert("message_list", from, from + ROWS_PER_INSERT - 1, n -> n + "," + n % MOD + ",4");
            inserts.add(new String[] {"SQL", statement});
        }
        for (Object reply : Pipeline.run(connection, inserts)) {
            assertEquals("OK", reply);
        }
        assertEquals((long) ROWS, server.dispatch("SELECT", "COUNT(*)", "FROM", "message_list"));

        // fk -> the count it must end with; fk 7 is updated twice (the second wins), fk 3 by an expression
        int[] expectedCount = new int[MOD];
        Arrays.fill(expectedCount, 4);
        Map<Integer, Integer> updates = new TreeMap<>();
        for (int fk : new int[] {0, 1, 7, 13, 42, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 98, 99}) {
            updates.put(fk, 1000 + fk);
        }
        List<String[]> statements = new ArrayList<>();
        statements.add(new String[] {"UPDATE", "message_list", "SET", "count=5", "WHERE", "fk=" + padded(7)});
        for (Map.Entry<Integer, Integer> u : updates.entrySet()) {
            statements.add(new String[] {"UPDATE", "message_list", "SET", "count=" + u.getValue(), "WHERE", "fk=" + padded(u.getKey())});
            expectedCount[u.getKey()] = u.getValue();
        }
        statements.add(new String[] {"UPDATE", "message_list", "SET", "count=count+1", "WHERE", "fk=" + padded(3)});
        expectedCount[3] = 5;
        statements.add(new String[] {"SQL", "UPDATE message_list SET count=count*3 WHERE fk = 13"});
        expectedCount[13] *= 3;
        for (String[] statement : statements) {
            assertEquals((long) ROWS / MOD, server.dispatch(statement), String.join(" ", statement));
        }
        assertEquals(0L, server.dispatch("UPDATE", "message_list", "SET", "count=100", "WHERE", "fk=" + padded(MOD)));
        assertEquals(List.of("index probe on message_list using message_list:fk:index (fk=000000000042)"),
                server.dispatch("EXPLAIN", "UPDATE", "message_list", "SET", "count=1", "WHERE", "fk=000000000042"));

        // every row, by primary-key ranges
        for (int from = 1; from <= ROWS; from += CHUNK) {
            int to = from + CHUNK - 1;
            Object reply = server.dispatch("SELECT", "id,fk,count", "FROM", "message_list", "WHERE",
                    "id BETWEEN " + from + " AND " + to + " ORDER BY id");
            List<?> rows = (List<?>) reply;
            assertEquals(CHUNK, rows.size(), "rows " + from + ".." + to);
            for (int i = 0; i < CHUNK; i++) {
                int id = from + i;
                int fk = id % MOD;
                String expected = id + "," + fk + "," + expectedCount[fk];
                if (!expected.equals(rows.get(i))) {
                    assertEquals(expected, rows.get(i), "row " + id);
                }
            }
        }
        // and by the index
        for (int fk = 0; fk < MOD; fk++) {
            assertEquals((long) ROWS / MOD, server.dispatch("SELECT", "COUNT(*)", "FROM", "message_list", "WHERE", "fk=" + fk));
        }
        for (int fk : new int[] {0, 3, 7, 13, 60}) {
            assertEquals(List.of(Long.toString((long) ROWS / MOD * expectedCount[fk])),
                    server.dispatch("SQL", "SELECT SUM(count) FROM message_list WHERE fk = " + fk), "fk " + fk);
        }
        assertEquals(3L, server.dispatch("DROP", "TABLE", "message_list"));
    }
}
