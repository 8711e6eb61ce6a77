package io.respsql.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ACL matrix over the wire: for each command category and table-pattern kind, a user allowed
 * and a user denied, on SELECT/INSERT/UPDATE/DELETE/CREATE/DROP/ALTER/TRUNCATE, joins, subqueries,
 * CTEs, views, INSERT ... SELECT, UPDATE ... FROM, DELETE ... USING and a foreign key's table.
 * Every denial is checked to have changed nothing.
 */
class AclMatrixTest {
    private static final String NOPERM_KEY = "-NOPERM No permissions to access a key\r\n";

    private static TestServer server;
    private static final Map<String, RespConnection> conns = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws IOException {
        server = TestServer.start(c -> c
            // everything but schema changes, on tables ord* (read and write)
            .addUserLine("app on >app-pw +@all -@dangerous ~ord*")
            // reads only, of ord* and reports (read-only pattern)
            .addUserLine("ro on >ro-pw +@read %R~ord* %R~reports")
            // writes only, of ord* (write-only pattern); no reads
            .addUserLine("wo on >wo-pw +@write %W~ord*")
            // every command, tables ord* only: schema changes allowed on ord*, denied elsewhere
            .addUserLine("ddl on >ddl-pw +@all ~ord*")
            // reads of views v_* only
            .addUserLine("viewer on >viewer-pw +@read %R~v_*")
            // every command, no table
            .addUserLine("none on >none-pw +@all resetkeys")
            // read and write, %RW~ form
            .addUserLine("rw on >rw-pw +@read +@write %RW~ord*"));
        RespConnection admin = server.raw();
        conns.put("default", admin);
        for (String t : new String[] {"orders (id int primary key, amount int)",
                "ord_items (id int primary key, order_id int, qty int)", "secret (id int primary key, s text)",
                "reports (id int primary key, r text)"}) {
            assertEquals("+OK\r\n", admin.call("SQL", "CREATE TABLE " + t));
        }
        assertEquals("+OK\r\n", admin.call("SQL", "INSERT INTO orders VALUES (1, 10), (2, 20)"));
        assertEquals("+OK\r\n", admin.call("SQL", "INSERT INTO ord_items VALUES (1, 1, 5)"));
        assertEquals("+OK\r\n", admin.call("SQL", "INSERT INTO secret VALUES (1, 'x')"));
        assertEquals("+OK\r\n", admin.call("SQL", "INSERT INTO reports VALUES (1, 'r')"));
        assertEquals("+OK\r\n", admin.call("SQL", "CREATE VIEW v_orders AS SELECT id, amount FROM orders"));
        for (String u : new String[] {"app", "ro", "wo", "ddl", "viewer", "none", "rw"}) {
            RespConnection c = server.raw();
            assertEquals("+OK\r\n", c.call("AUTH", u, u + "-pw"));
            conns.put(u, c);
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String sql(String user, String statement) throws IOException {
        return conns.get(user).call("SQL", statement);
    }

    private static String bulk(String s) {
        return "$" + s.length() + "\r\n" + s + "\r\n";
    }

    private static String cmdDenied(String user, String cmd) {
        return "-NOPERM User " + user + " has no permissions to run the '" + cmd + "' command\r\n";
    }

    private static void allowed(String user, String statement) throws IOException {
        String r = sql(user, statement);
        assertTrue(!r.startsWith("-"), user + " should run " + statement + " but got " + r);
    }

    private static void deniedKey(String user, String statement) throws IOException {
        assertEquals(NOPERM_KEY, sql(user, statement), user + ": " + statement);
    }

    private static long count(String table) throws IOException {
        String r = conns.get("default").call("QUERY", "SELECT count(*) FROM " + table);
        // typed reply: *3 names types rows; the count is the last integer
        int i = r.lastIndexOf(':');
        return Long.parseLong(r.substring(i + 1, r.indexOf('\r', i)));
    }

    @Test
    void selectByPatternKind() throws IOException {
        allowed("app", "SELECT * FROM orders");
        allowed("ro", "SELECT * FROM orders");
        allowed("rw", "SELECT * FROM orders");
        allowed("ro", "SELECT * FROM reports");
        deniedKey("app", "SELECT * FROM secret");
        deniedKey("none", "SELECT * FROM orders");
        deniedKey("ro", "SELECT * FROM secret");
        // the RESP verb form is checked the same way
        assertTrue(conns.get("app").call("SELECT", "*", "FROM", "orders").startsWith("*"));
        assertEquals(NOPERM_KEY, conns.get("app").call("SELECT", "*", "FROM", "secret"));
        // names are matched as the catalog finds them: any case, public. prefix
        deniedKey("app", "SELECT * FROM SECRET");
        deniedKey("app", "SELECT * FROM public.secret");
        allowed("app", "SELECT * FROM ORDERS");
    }

    @Test
    void writeOnlyUserMayNotSelect() throws IOException {
        // +@write does not include the select verb: a command denial before any table
        assertEquals(cmdDenied("wo", "select"), sql("wo", "SELECT * FROM orders"));
        assertEquals(cmdDenied("wo", "select"), conns.get("wo").call("SELECT", "*", "FROM", "orders"));
    }

    @Test
    void insertUpdateDelete() throws IOException {
        long before = count("orders");
        allowed("app", "INSERT INTO orders VALUES (100, 1)");
        allowed("wo", "INSERT INTO orders VALUES (101, 1)");
        allowed("rw", "INSERT INTO orders VALUES (102, 1)");
        assertEquals(cmdDenied("ro", "insert"), sql("ro", "INSERT INTO orders VALUES (103, 1)"));
        deniedKey("none", "INSERT INTO orders VALUES (104, 1)");
        deniedKey("app", "INSERT INTO secret VALUES (9, 'y')");
        assertEquals(before + 3, count("orders"));
        assertEquals(1, count("secret"));

        allowed("app", "UPDATE orders SET amount = amount + 1 WHERE id = 100");
        allowed("wo", "UPDATE orders SET amount = 5 WHERE id = 101"); // W alone: the WHERE is part of the write
        assertEquals(cmdDenied("ro", "update"), sql("ro", "UPDATE orders SET amount = 0"));
        deniedKey("app", "UPDATE secret SET s = 'z'");
        deniedKey("none", "UPDATE orders SET amount = 0");

        allowed("app", "DELETE FROM orders WHERE id = 100");
        allowed("wo", "DELETE FROM orders WHERE id = 101");
        allowed("rw", "DELETE FROM orders WHERE id = 102");
        assertEquals(cmdDenied("ro", "delete"), sql("ro", "DELETE FROM orders"));
        deniedKey("app", "DELETE FROM secret");
        assertEquals(before, count("orders"));
        assertEquals(1, count("secret"));
    }

    @Test
    void returningNeedsRead() throws IOException {
        conns.get("wo").call("SQL", "SET sql_dialect TO postgresql");
        conns.get("rw").call("SQL", "SET sql_dialect TO postgresql");
        try {
            deniedKey("wo", "INSERT INTO orders VALUES (200, 1) RETURNING id");
            deniedKey("wo", "UPDATE orders SET amount = 1 WHERE id = 1 RETURNING amount");
            allowed("rw", "INSERT INTO orders VALUES (200, 1) RETURNING id");
            allowed("rw", "DELETE FROM orders WHERE id = 200 RETURNING id");
        } finally {
            conns.get("wo").call("SQL", "SET sql_dialect TO sqlite");
            conns.get("rw").call("SQL", "SET sql_dialect TO sqlite");
        }
    }

    @Test
    void schemaChangesAreDangerous() throws IOException {
        // app: +@all -@dangerous: CREATE/DROP/ALTER/TRUNCATE are @admin @dangerous
        assertEquals(cmdDenied("app", "create"), sql("app", "CREATE TABLE ord_new (id int primary key)"));
        assertEquals(cmdDenied("app", "create"), conns.get("app").call("CREATE", "TABLE", "ord_new", "(id int primary key)"));
        assertEquals(cmdDenied("app", "drop"), sql("app", "DROP TABLE orders"));
        assertEquals(cmdDenied("app", "alter"), sql("app", "ALTER TABLE orders ADD COLUMN note text"));
        assertEquals(cmdDenied("app", "truncate"), sql("app", "TRUNCATE orders"));
        assertEquals(cmdDenied("ro", "create"), sql("ro", "CREATE INDEX i_amount ON orders (amount)"));
        // ddl: every command, tables ord* only
        allowed("ddl", "CREATE TABLE ord_new (id int primary key, v int)");
        allowed("ddl", "ALTER TABLE ord_new ADD COLUMN note text");
        allowed("ddl", "CREATE INDEX i_ord_new ON ord_new (v)");
        allowed("ddl", "DROP INDEX i_ord_new");
        allowed("ddl", "TRUNCATE ord_new");
        allowed("ddl", "DROP TABLE ord_new");
        deniedKey("ddl", "CREATE TABLE other (id int primary key)");
        deniedKey("ddl", "DROP TABLE secret");
        deniedKey("ddl", "ALTER TABLE secret ADD COLUMN x int");
        deniedKey("ddl", "ALTER TABLE ord_items RENAME TO stolen"); // the new name must match too
        deniedKey("ddl", "TRUNCATE secret");
        deniedKey("ddl", "CREATE INDEX i_s ON secret (s)");
        conns.get("ddl").call("SQL", "SET sql_dialect TO postgresql");
        deniedKey("ddl", "CREATE TABLE ord_t AS SELECT * FROM secret");
        conns.get("ddl").call("SQL", "SET sql_dialect TO sqlite");
        // a foreign key's referenced table is read (PostgreSQL's REFERENCES privilege)
        deniedKey("ddl", "CREATE TABLE ord_child (id int primary key, sid int REFERENCES secret (id))");
        assertEquals(1, count("secret"));
        assertTrue(conns.get("default").call("SQL", "SELECT * FROM other").startsWith("-ERR"), "other was not created");
    }

    @Test
    void joinsSubqueriesAndInsertSelect() throws IOException {
        allowed("app", "SELECT * FROM orders o JOIN ord_items i ON i.order_id = o.id");
        deniedKey("app", "SELECT * FROM orders o JOIN secret s ON s.id = o.id");
        deniedKey("app", "SELECT * FROM orders o LEFT JOIN (SELECT * FROM secret) s ON s.id = o.id");
        deniedKey("app", "SELECT * FROM orders, secret");
        deniedKey("app", "SELECT * FROM orders WHERE id IN (SELECT id FROM secret)");
        deniedKey("app", "SELECT * FROM orders WHERE EXISTS (SELECT 1 FROM secret WHERE secret.id = orders.id)");
        deniedKey("app", "SELECT (SELECT max(id) FROM secret), id FROM orders");
        deniedKey("app", "SELECT id FROM orders UNION SELECT id FROM secret");
        allowed("app", "SELECT id FROM orders UNION SELECT id FROM ord_items");
        long before = count("orders");
        deniedKey("app", "INSERT INTO orders SELECT id + 1000, 0 FROM secret");
        allowed("app", "INSERT INTO orders SELECT id + 1000, qty FROM ord_items");
        deniedKey("rw", "INSERT INTO orders SELECT id + 2000, 0 FROM reports"); // %RW~ord*: reports is not readable
        assertEquals(cmdDenied("ro", "insert"), sql("ro", "INSERT INTO orders SELECT id + 2000, 0 FROM reports"));
        assertEquals(before + 1, count("orders"));
        allowed("app", "DELETE FROM orders WHERE id >= 1000");
        // the read-only user may read through joins of what it may read
        allowed("ro", "SELECT * FROM orders JOIN reports ON reports.id = orders.id");
        deniedKey("ro", "SELECT * FROM orders JOIN secret ON secret.id = orders.id");
    }

    @Test
    void postgresFormsAndCtes() throws IOException {
        RespConnection app = conns.get("app");
        app.call("SQL", "SET sql_dialect TO postgresql");
        try {
            deniedKey("app", "WITH s AS (SELECT * FROM secret) SELECT * FROM s");
            allowed("app", "WITH secret AS (SELECT 1 AS id) SELECT * FROM secret"); // the CTE, not the table
            allowed("app", "WITH x AS (SELECT id FROM orders) SELECT * FROM x");
            deniedKey("app", "UPDATE orders SET amount = 0 FROM secret WHERE secret.id = orders.id");
            allowed("app", "UPDATE orders SET amount = ord_items.qty FROM ord_items WHERE ord_items.order_id = orders.id");
            deniedKey("app", "DELETE FROM orders USING secret WHERE secret.id = orders.id");
            deniedKey("app", "EXPLAIN SELECT * FROM secret");
            allowed("app", "EXPLAIN SELECT * FROM orders");
            // PostgreSQL's catalogs are readable by everyone, as in PostgreSQL
            allowed("app", "SELECT relname FROM pg_catalog.pg_class");
        } finally {
            app.call("SQL", "SET sql_dialect TO sqlite");
        }
        assertEquals(1, count("secret"));
    }

    @Test
    void viewsAreCheckedByTheirOwnName() throws IOException {
        // viewer may read v_* only: the view, not the table under it (PostgreSQL: checked as the view's owner)
        allowed("viewer", "SELECT * FROM v_orders");
        deniedKey("viewer", "SELECT * FROM orders");
        // app may read ord*, not the view v_orders
        deniedKey("app", "SELECT * FROM v_orders");
        // creating a view needs read access to every table of its query
        deniedKey("ddl", "CREATE VIEW ord_v AS SELECT * FROM secret");
        allowed("ddl", "CREATE VIEW ord_v2 AS SELECT * FROM orders");
        allowed("ddl", "DROP VIEW ord_v2");
        assertEquals(cmdDenied("viewer", "drop"), sql("viewer", "DROP VIEW v_orders"));
    }

    @Test
    void describeDumpAndCommandCategories() throws IOException {
        RespConnection ro = conns.get("ro");
        assertTrue(ro.call("DESC", "orders").startsWith("*"));
        assertEquals(NOPERM_KEY, ro.call("DESC", "secret"));
        assertEquals(NOPERM_KEY, ro.call("DUMP", "secret"));
        // @read has no admin or connection commands
        assertEquals(cmdDenied("ro", "config|set"), ro.call("CONFIG", "SET", "maxclients", "5"));
        assertEquals(cmdDenied("ro", "flushall"), ro.call("FLUSHALL"));
        assertEquals(cmdDenied("app", "flushall"), conns.get("app").call("FLUSHALL"));
        assertEquals(cmdDenied("app", "acl|setuser"), conns.get("app").call("ACL", "SETUSER", "app", "+@all"));
        // none: every command, no table
        assertEquals("+PONG\r\n", conns.get("none").call("PING"));
        assertTrue(conns.get("none").call("SQL", "SELECT 1").startsWith("*"), "a query of no table needs no pattern");
        assertTrue(conns.get("none").call("CONFIG", "GET", "maxclients").startsWith("*"));
    }

    @Test
    void multiExecIsCheckedAsItRuns() throws IOException {
        RespConnection app = conns.get("app");
        assertEquals("+OK\r\n", app.call("MULTI"));
        assertEquals("+QUEUED\r\n", app.call("SQL", "INSERT INTO orders VALUES (300, 3)"));
        assertEquals("+QUEUED\r\n", app.call("SQL", "DELETE FROM secret"));
        String r = app.call("EXEC");
        assertTrue(r.contains("NOPERM No permissions to access a key"), r);
        assertEquals(1, count("secret"));
        // a denied command is refused when queued, and EXEC then fails, as Redis
        assertEquals("+OK\r\n", app.call("MULTI"));
        assertEquals(cmdDenied("app", "flushall"), app.call("FLUSHALL"));
        assertTrue(app.call("EXEC").startsWith("-EXECABORT"));
        conns.get("default").call("SQL", "DELETE FROM orders WHERE id = 300");
    }

    @Test
    void aclLogRecordsDenialsAndDryrunAgrees() throws IOException {
        RespConnection admin = conns.get("default");
        assertEquals("+OK\r\n", admin.call("ACL", "LOG", "RESET"));
        deniedKey("app", "SELECT * FROM secret");
        deniedKey("app", "SELECT * FROM secret");
        assertEquals(cmdDenied("app", "flushall"), conns.get("app").call("FLUSHALL"));
        String log = admin.call("ACL", "LOG");
        assertTrue(log.startsWith("*2\r\n"), log);
        // newest first: the command, then the key (counted twice on one entry)
        int flush = log.indexOf("flushall");
        int secret = log.indexOf("secret");
        assertTrue(flush > 0 && secret > flush, log);
        assertTrue(log.contains("$6\r\nreason\r\n$3\r\nkey\r\n"), log);
        assertTrue(log.contains("$5\r\ncount\r\n:2\r\n"), log);
        assertTrue(log.contains("$8\r\nusername\r\n$3\r\napp\r\n"), log);
        assertTrue(log.contains("user=app"), log);
        assertEquals("+OK\r\n", admin.call("ACL", "DRYRUN", "app", "SQL", "SELECT * FROM orders"));
        assertEquals(bulk("User app has no permissions to access the 'secret' key"),
                admin.call("ACL", "DRYRUN", "app", "SQL", "SELECT * FROM orders JOIN secret ON secret.id = orders.id"));
        assertEquals(bulk("User app has no permissions to run the 'flushall' command"),
                admin.call("ACL", "DRYRUN", "app", "FLUSHALL"));
        assertEquals(bulk("User ro has no permissions to run the 'insert' command"),
                admin.call("ACL", "DRYRUN", "ro", "INSERT", "INTO", "orders", "VALUES", "(5,", "5)"));
    }

    @Test
    void defaultUserIsUnrestricted() throws IOException {
        RespConnection admin = conns.get("default");
        assertEquals("$7\r\ndefault\r\n", admin.call("ACL", "WHOAMI"));
        assertTrue(admin.call("SQL", "SELECT * FROM secret").startsWith("*"));
        assertEquals("$3\r\napp\r\n", conns.get("app").call("ACL", "WHOAMI"));
    }
}
