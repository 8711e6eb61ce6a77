package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Array columns (arrays, issue 25/26) survive a restart from a snapshot (column type code 11, the
 * element type's OID as its modifier) and from the append-only file (the statements replayed in
 * PostgreSQL's dialect): the values as written, and the element type, so a later insert is still
 * read as that type (a text that is no integer is refused).
 */
class ArrayPersistenceTest {
    private static final String OK = "+OK\r\n";

    @TempDir
    Path dir;

    private static void fill(RespConnection c) throws Exception {
        assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
        assertEquals(OK, c.call("SQL", "CREATE TABLE arr (id INT PRIMARY KEY, i INT[], t TEXT[], f FLOAT8[], n NUMERIC[], b BOOL[])"));
        assertEquals(OK, c.call("SQL", "INSERT INTO arr VALUES (1, '{1,2,NULL}', ARRAY['a b', 'c,d', NULL], '{1.5}', '{1.50}', '{t}'),"
                + " (2, ARRAY[[1,2],[3,4]], '{}', NULL, NULL, NULL)"));
        assertEquals(":1\r\n", c.call("SQL", "UPDATE arr SET i = i || 7 WHERE id = 1"));
    }

    private static void check(RespConnection c) throws Exception {
        assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
        assertEquals("*2\r\n$50\r\n1,{1,2,NULL,7},{\"a b\",\"c,d\",NULL},{1.5},{1.50},{t}\r\n$21\r\n2,{{1,2},{3,4}},{},,,\r\n",
                c.call("SQL", "SELECT id, i, t, f, n, b FROM arr ORDER BY id"));
        assertEquals("*1\r\n$1\r\n2\r\n", c.call("SQL", "SELECT i[2] FROM arr WHERE id = 1"));
        String bad = c.call("SQL", "INSERT INTO arr (id, i) VALUES (3, '{x}')");
        assertTrue(bad.startsWith("-") && bad.contains("invalid input syntax for type integer"), bad);
        assertEquals(OK, c.call("SQL", "INSERT INTO arr (id, i) VALUES (3, '{ 05 }')"));
        assertEquals("*1\r\n$3\r\n{5}\r\n", c.call("SQL", "SELECT i FROM arr WHERE id = 3"));
    }

    @Test
    void aSnapshotKeepsValuesAndElementTypes() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = s.raw()) {
            fill(c);
            assertEquals(OK, c.call("SAVE"));
        }
        assertTrue(Files.exists(dir.resolve("dump.rsql")));
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = s.raw()) {
            check(c);
        }
    }

    @Test
    void theAppendOnlyFileReplaysThemAlike() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
                RespConnection c = s.raw()) {
            fill(c);
        }
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true)); RespConnection c = s.raw()) {
            check(c);
        }
    }
}
