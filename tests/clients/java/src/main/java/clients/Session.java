package clients;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The session every client of the matrix runs (tests/clients/node-common/session.mjs is the same for
 * Node): the statements sent, the rows they must give back, and a runner that prints one line per
 * step, {@code <client>: ok <step>} or {@code <client>: FAIL <step>: <why>}. A failed connect ends
 * the session; any other failure is reported and the session goes on, so one run shows every
 * step that fails.
 */
final class Session {
    static final String HOST = System.getenv().getOrDefault("RESPSQL_HOST", "127.0.0.1");
    static final int PORT = Integer.parseInt(System.getenv().getOrDefault("RESPSQL_PORT", "6379"));

    static final int ROWS = 1000;
    static final String COLUMNS = "(id INT PRIMARY KEY, grp INT, score FLOAT, name TEXT)";

    /** The transaction that must leave nothing behind: its last statement fails (id 1 exists). */
    static final List<String> FAILING_BLOCK = List.of(
            "INSERT INTO people VALUES (1002, 2, 1002.25, 'rolled back')",
            "UPDATE people SET score = 0 WHERE grp = 1",
            "INSERT INTO people VALUES (1, 1, 1.25, 'duplicate key')");

    // The typed-reply step (QUERY): a table of its own, dropped at the end of the step, so that the
    // session's one table stays people.
    static final String TYPED_CREATE = "CREATE TABLE typed_c (id INT PRIMARY KEY, f FLOAT, s TEXT)";
    static final String TYPED_INSERT = "INSERT INTO typed_c VALUES (1, 2.5, 'a, b'), (2, -0.125, 'plain')";
    static final String TYPED_SELECT = "SELECT id, f, s FROM typed_c WHERE id = 1";
    static final String TYPED_NONE = "SELECT MAX(f) FROM typed_c WHERE id = 99";
    static final String TYPED_2010 = "SELECT id,s FROM typed_c WHERE id = 1";

    /** Row i as inserted: the text has a comma and a space, so it must travel quoted. */
    static String insert(int i) {
        return "INSERT INTO people VALUES (" + i + ", " + i % 10 + ", " + i + ".25, 'Smith, John " + i + "')";
    }

    /** Row i as SELECT * returns it: values joined by commas. */
    static String row(int i, String score, String name) {
        return i + "," + i % 10 + "," + score + "," + name;
    }

    static String row(int i) {
        return row(i, i + ".25", "Smith, John " + i);
    }

    static List<String> allRows() {
        List<String> rows = new ArrayList<>(ROWS);
        for (int i = 1; i <= ROWS; i++) {
            rows.add(row(i));
        }
        return rows;
    }

    interface Step {
        void run() throws Exception;
    }

    static final class StepFailure extends RuntimeException {
        StepFailure(String message) {
            super(message);
        }
    }

    static void check(boolean condition, String what) {
        if (!condition) {
            throw new StepFailure(what);
        }
    }

    static void eq(Object actual, Object expected, String what) {
        if (!Objects.equals(actual, expected)) {
            throw new StepFailure(what + ": expected " + show(expected) + ", got " + show(actual));
        }
    }

    /** Compared row by row, so a mismatch names the first wrong row, not 1,000 of them. */
    static void eqRows(List<String> actual, List<String> expected, String what) {
        check(actual != null, what + ": no rows (null)");
        for (int k = 0; k < Math.max(actual.size(), expected.size()); k++) {
            String a = k < actual.size() ? actual.get(k) : null;
            String e = k < expected.size() ? expected.get(k) : null;
            if (!Objects.equals(a, e)) {
                throw new StepFailure(what + ": row " + (k + 1) + " of " + expected.size() + " expected " + show(e)
                        + ", got " + show(a) + " (" + actual.size() + " rows in all)");
            }
        }
    }

    /** The {@code key:value} lines of an INFO reply (neither Java client parses INFO). */
    static Map<String, String> parseInfo(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : text.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    /** One field of a CLIENT INFO line ({@code id=7 addr=... resp=3 ...}). */
    static String clientField(String line, String key) {
        for (String kv : line.trim().split(" ")) {
            if (kv.startsWith(key + "=")) {
                return kv.substring(key.length() + 1);
            }
        }
        return null;
    }

    /** The checks on INFO shared by the Java clients: server, keyspace and tables sections. */
    static void checkInfo(String server, String keyspace, String tables) {
        Map<String, String> s = parseInfo(server);
        check(s.getOrDefault("redis_version", "").matches("\\d+\\.\\d+.*"), "INFO server redis_version: " + s.get("redis_version"));
        check(s.containsKey("respsql_version"), "INFO server has respsql_version");
        String db0 = parseInfo(keyspace).get("db0");
        check(db0 != null && db0.startsWith("keys=1,"), "INFO keyspace db0 counts the one table: " + db0);
        String people = parseInfo(tables).get("table_people");
        check(people != null && people.startsWith("rows=900,"), "INFO tables table_people: " + people);
    }

    /**
     * The checks of the typed-reply step on the decoded QUERY replies: {@code float} is what the
     * client makes of the FLOAT 2.5, a {@code Double} from a RESP3 double, a {@code String} from
     * RESP2's bulk string.
     */
    static void checkTyped(Object reply, Object none, Object float25) {
        eq(reply, List.of(List.of("id", "f", "s"), List.of("INT", "FLOAT", "TEXT"), List.of(1L, float25, "a, b")),
                "QUERY \"" + TYPED_SELECT + "\"");
        eq(none, List.of(List.of("MAX(f)"), List.of("FLOAT"), Arrays.asList((Object) null)), "QUERY \"" + TYPED_NONE + "\"");
    }

    private static String show(Object o) {
        return o instanceof String ? '"' + (String) o + '"' : String.valueOf(o);
    }

    private final String client;
    private final List<Map.Entry<String, Step>> steps = new ArrayList<>();

    Session(String client) {
        this.client = client;
    }

    Session step(String name, Step step) {
        steps.add(Map.entry(name, step));
        return this;
    }

    /** Runs the steps; the number that failed. */
    int run() {
        int failed = 0;
        for (Map.Entry<String, Step> s : steps) {
            try {
                s.getValue().run();
                System.out.println(client + ": ok   " + s.getKey());
            } catch (Exception | AssertionError e) {
                failed++;
                String why = e instanceof StepFailure ? e.getMessage() : e.getClass().getSimpleName() + ": " + e.getMessage();
                System.out.println(client + ": FAIL " + s.getKey() + ": " + why);
                if (s.getKey().equals("connect")) {
                    break;
                }
            }
        }
        System.out.println(client + ": " + (failed == 0 ? "all steps passed" : failed + " step(s) failed"));
        return failed;
    }
}
