package io.respsql.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Invalid UTF-8 anywhere in a statement is refused with PostgreSQL's error naming the bytes and
 * their offset, and nothing of the statement is stored (issue 22). Arguments are written here as
 * Latin-1 strings: each char is one byte on the wire, so the exact bytes are in the test.
 */
class InvalidUtf8Test extends ServerTestBase {
    private static final String DUMP_BEFORE = "*3\r\n$43\r\nCREATE TABLE u (id INT PRIMARY KEY, s TEXT)\r\n"
            + "$32\r\nINSERT INTO u VALUES (1,'caf\u00c3\u00a9')\r\n$32\r\nINSERT INTO u VALUES (2,'plain')\r\n";

    /** One command whose arguments are the Latin-1 bytes of {@code args}. */
    private static byte[] frame(String... args) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String a : args) {
            byte[] bytes = a.getBytes(StandardCharsets.ISO_8859_1);
            b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(bytes);
            b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return b.toByteArray();
    }

    /** Sends the Latin-1 bytes of {@code args}; the reply's bytes as Latin-1 text (exact bytes again). */
    private static String call(RespConnection c, String... args) throws IOException {
        c.send(frame(args));
        return new String(c.readReply().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    private static String err(String bytes, int offset) {
        return "-ERR invalid byte sequence for encoding \"UTF8\": " + bytes + " at offset " + offset + "\r\n";
    }

    /** The table is exactly as {@link #setUp} left it. */
    private static void assertUnchanged(RespConnection c) throws IOException {
        assertEquals(":2\r\n", call(c, "SQL", "SELECT COUNT(*) FROM u"));
        assertEquals(DUMP_BEFORE, call(c, "DUMP", "u"));
    }

    @BeforeEach
    void setUp() throws IOException {
        try (RespConnection c = server.raw()) {
            call(c, "SQL", "DROP TABLE IF EXISTS u");
            assertEquals("+OK\r\n", call(c, "SQL", "CREATE TABLE u (id INT PRIMARY KEY, s TEXT)"));
            // valid UTF-8 (é as C3 A9) is stored and returned byte for byte
            assertEquals("+OK\r\n", call(c, "SQL", "INSERT INTO u VALUES (1, 'caf\u00c3\u00a9'), (2, 'plain')"));
            assertUnchanged(c);
        }
    }

    @Test
    void sqlAndQueryRefuseInvalidBytesAnywhere() throws IOException {
        try (RespConnection c = server.raw()) {
            // a lone 0xFF in a TEXT value: offset 27 in the statement after SQL
            assertEquals(err("0xff", 27), call(c, "SQL", "INSERT INTO u VALUES (3, 'a\u00ffb')"));
            assertEquals(err("0xff", 27), call(c, "QUERY", "INSERT INTO u VALUES (3, 'a\u00ffb')"));
            // a two-byte lead followed by ASCII: both bytes are shown, as PostgreSQL does
            assertEquals(err("0xc3 0x28", 26), call(c, "SQL", "INSERT INTO u VALUES (3, '\u00c3(')"));
            // an encoded surrogate (U+D800), an overlong '/', a code point above U+10FFFF
            assertEquals(err("0xed 0xa0 0x80", 26), call(c, "SQL", "INSERT INTO u VALUES (3, '\u00ed\u00a0\u0080')"));
            assertEquals(err("0xc0 0xaf", 26), call(c, "SQL", "INSERT INTO u VALUES (3, '\u00c0\u00af')"));
            assertEquals(err("0xf4 0x90 0x80 0x80", 26), call(c, "SQL", "INSERT INTO u VALUES (3, '\u00f4\u0090\u0080\u0080')"));
            // truncated at the very end of the statement
            assertEquals(err("0xe2 0x82", 9), call(c, "SQL", "SELECT 'a\u00e2\u0082"));
            // in an identifier and in an UPDATE's SET and WHERE
            assertEquals(err("0xe9", 15), call(c, "SQL", "SELECT * FROM u\u00e9"));
            assertEquals(err("0xfe", 18), call(c, "SQL", "UPDATE u SET s = '\u00fe' WHERE id = 1"));
            assertEquals(err("0x80", 30), call(c, "SQL", "DELETE FROM u WHERE s = 'plain\u0080'"));
            assertUnchanged(c);
            // still a working connection
            assertEquals("+PONG\r\n", call(c, "PING"));
        }
    }

    @Test
    void splitArgumentsCountTheJoiningSpaces() throws IOException {
        try (RespConnection c = server.raw()) {
            // 2010 style: the verb is the first argument; "INSERT INTO u VALUES (3, 'x" is 27 bytes
            assertEquals(err("0xff", 27), call(c, "INSERT", "INTO", "u", "VALUES", "(3, 'x\u00ff')"));
            // a sequence cut by the argument boundary is invalid too (a space joins the arguments)
            assertEquals(err("0xc3 0x20", 10), call(c, "SQL", "SELECT", "'ab\u00c3", "\u00a9'"));
            assertEquals(err("0xff", 16), call(c, "UPDATE", "u", "SET", "s='\u00ff'"));
            assertUnchanged(c);
        }
    }

    @Test
    void prepareAndExecuteRefuseInvalidBytes() throws IOException {
        try (RespConnection c = server.raw()) {
            assertEquals(err("0xff", 39), call(c, "PREPARE", "bad", "INSERT INTO u VALUES (?, 'x\u00ff' || ?)"));
            assertEquals("-ERR prepared statement 'bad' does not exist\r\n", call(c, "EXECUTE", "bad", "3", "y"));
            assertEquals("+OK\r\n", call(c, "PREPARE", "put", "INSERT INTO u VALUES (?, ?)"));
            // "EXECUTE put 3 ok" + the bad byte: the offset counts the command's arguments joined
            assertEquals(err("0xff", 16), call(c, "EXECUTE", "put", "3", "ok\u00ff"));
            assertEquals(err("0xf8", 12), call(c, "EXECUTE", "put", "\u00f8", "ok"));
            assertUnchanged(c);
            // a valid multi-byte value through EXECUTE is stored and read back as sent (U+1F600)
            assertEquals("+OK\r\n", call(c, "EXECUTE", "put", "3", "\u00f0\u009f\u0098\u0080"));
            assertEquals("*1\r\n$4\r\n\u00f0\u009f\u0098\u0080\r\n", call(c, "SQL", "SELECT s FROM u WHERE id = 3"));
            assertEquals(":1\r\n", call(c, "SQL", "DELETE FROM u WHERE id = 3"));
            call(c, "DEALLOCATE", "put");
        }
    }

    @Test
    void multiRefusesAtQueueTimeAndExecAborts() throws IOException {
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", call(c, "MULTI"));
            assertEquals("+QUEUED\r\n", call(c, "SQL", "INSERT INTO u VALUES (3, 'fine')"));
            assertEquals(err("0xff", 27), call(c, "SQL", "INSERT INTO u VALUES (4, 'a\u00ffb')"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", call(c, "EXEC"));
            assertUnchanged(c);
        }
    }

    @Test
    void nonSqlCommandsStayBinarySafe() throws IOException {
        try (RespConnection c = server.raw()) {
            assertEquals("$3\r\n\u00ff\u00fe\u00c3\r\n", new String(echoBytes(c), StandardCharsets.ISO_8859_1));
            assertEquals(":0\r\n", call(c, "PUBLISH", "chan", "\u00ff\u0080"));
        }
    }

    /** The raw reply of ECHO with three invalid bytes (read off the socket, not decoded). */
    private static byte[] echoBytes(RespConnection c) throws IOException {
        c.send(frame("ECHO", "\u00ff\u00fe\u00c3"));
        return c.readReplyBytes();
    }
}
