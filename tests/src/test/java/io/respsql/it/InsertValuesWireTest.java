package io.respsql.it;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What an INSERT's VALUES may hold beyond literals, over RESP in both dialects: a scalar subquery
 * reading a table (it failed with an internal error: the entry was bound without the catalog and
 * evaluated with one relation slot), and {@code DEFAULT} alone, which the 2010 dialect stored as the
 * text "DEFAULT" instead of the column's default (and UPDATE's {@code SET c = DEFAULT} likewise).
 */
class InsertValuesWireTest {
    private static void check(RespConnection c) throws Exception {
        assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE it (a INT, b INT NOT NULL, c TEXT DEFAULT 'testing')"));
        assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE vv (i INT)"));
        assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO vv VALUES (3)"));
        assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO it VALUES (1, (SELECT max(i) FROM vv), 'x')"));
        assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO vv VALUES (9)"));
        // the same text again (a plan cache must not keep the first answer)
        assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO it VALUES (1, (SELECT max(i) FROM vv), 'x')"));
        assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO it VALUES (10, 20, '40'), (-1, 2, DEFAULT), "
                + "((SELECT 2), (SELECT column1 FROM (VALUES (3)) AS foo), 'fun')"));
        assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO it VALUES (11, 6, 'DEFAULT')"));
        assertEquals(":1\r\n", c.call("SQL", "UPDATE it SET c = DEFAULT WHERE a = 10"));
        assertEquals(rows("-1,2,testing", "1,3,x", "1,9,x", "2,3,fun", "10,20,testing", "11,6,DEFAULT"),
                c.call("SQL", "SELECT a, b, c FROM it ORDER BY a, b"));
        assertEquals(true, c.call("SQL", "INSERT INTO it VALUES (1, (SELECT i FROM vv), 'x')")
                .contains("more than one row"));
    }

    /** The 2010 reply of rows: an array of one bulk string per row. */
    private static String rows(String... rows) {
        StringBuilder b = new StringBuilder("*").append(rows.length).append("\r\n");
        for (String r : rows) {
            b.append('$').append(r.length()).append("\r\n").append(r).append("\r\n");
        }
        return b.toString();
    }

    @Test
    void subqueriesAndDefaultInTheDefaultDialect() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            check(c);
        }
    }

    @Test
    void subqueriesAndDefaultInPostgresqlsDialect() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "SET sql_dialect TO postgresql"));
            check(c);
        }
    }

    @Test
    void aWholeRowReferenceInReturningIsRefusedAndChangesNothing() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "SET sql_dialect TO postgresql"));
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE rw (a INT)"));
            // it failed with an internal error (a NullPointerException) after binding
            String refused = c.call("SQL", "INSERT INTO rw VALUES (1) RETURNING rw");
            assertEquals(true, refused.startsWith("-") && refused.contains("whole-row"), refused);
            assertEquals(rows(), c.call("SQL", "SELECT a FROM rw"));
        }
    }
}
