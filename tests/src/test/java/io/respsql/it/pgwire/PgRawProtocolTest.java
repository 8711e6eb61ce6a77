package io.respsql.it.pgwire;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The protocol byte for byte, where clients never go: malformed and unusual messages. */
class PgRawProtocolTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(c -> c.pgPort(0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** One backend message: its type and body. */
    record Msg(char type, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    static final class Wire implements AutoCloseable {
        final Socket socket;
        final DataInputStream in;
        final DataOutputStream out;

        Wire() throws IOException {
            socket = new Socket(server.host(), server.server().pgPort());
            socket.setSoTimeout(30_000);
            in = new DataInputStream(socket.getInputStream());
            out = new DataOutputStream(socket.getOutputStream());
        }

        void startup() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            DataOutputStream d = new DataOutputStream(b);
            d.writeInt(196608);
            d.write("user\0raw\0database\0respsql\0\0".getBytes(StandardCharsets.US_ASCII));
            out.writeInt(b.size() + 4);
            out.write(b.toByteArray());
            out.flush();
        }

        void send(char type, byte[] body) throws IOException {
            out.writeByte(type);
            out.writeInt(body.length + 4);
            out.write(body);
            out.flush();
        }

        Msg read() throws IOException {
            char type = (char) in.readUnsignedByte();
            byte[] body = new byte[in.readInt() - 4];
            in.readFully(body);
            return new Msg(type, body);
        }

        /** Messages up to and including ReadyForQuery. */
        List<Msg> untilReady() throws IOException {
            List<Msg> all = new ArrayList<>();
            Msg m;
            do {
                m = read();
                all.add(m);
            } while (m.type() != 'Z');
            return all;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    static String types(List<Msg> msgs) {
        StringBuilder sb = new StringBuilder();
        for (Msg m : msgs) {
            sb.append(m.type());
        }
        return sb.toString();
    }

    @Test
    void sslRequestIsRefusedThenStartupGoesOnInTheClear() throws IOException {
        try (Wire w = new Wire()) {
            w.out.writeInt(8);
            w.out.writeInt(80877103);
            w.out.flush();
            assertEquals('N', w.in.readUnsignedByte());
            w.startup();
            List<Msg> m = w.untilReady();
            // AuthenticationOk, ParameterStatus..., BackendKeyData, ReadyForQuery(I)
            assertEquals('R', m.get(0).type());
            assertTrue(types(m).matches("RS+KZ"), types(m));
            assertEquals("I", new String(m.get(m.size() - 1).body(), StandardCharsets.US_ASCII));
            assertTrue(m.stream().anyMatch(x -> x.text().equals("server_version\u000015.8\u0000")));
        }
    }

    @Test
    void simpleQueryMessages() throws IOException {
        try (Wire w = new Wire()) {
            w.startup();
            w.untilReady();
            w.send('Q', "SELECT 1 AS one; ;SELECT 'a;b' AS t\0".getBytes(StandardCharsets.UTF_8));
            List<Msg> two = w.untilReady();
            assertEquals("TDCTDCZ", types(two), two.get(0).text());
            w.send('Q', " -- nothing\n\0".getBytes(StandardCharsets.UTF_8));
            assertEquals("IZ", types(w.untilReady()), "EmptyQueryResponse");
            w.send('Q', "SELECT 1; SELEC 2; SELECT 3\0".getBytes(StandardCharsets.UTF_8));
            List<Msg> m = w.untilReady();
            assertEquals("TDCEZ", types(m), "the statements after an error are not run");
            String error = m.get(3).text();
            assertTrue(error.contains("SERROR\0") && error.contains("C42601\0"), error);
            // a Query whose string has no terminating zero: an error, and the session goes on
            w.send('Q', "SELECT 1".getBytes(StandardCharsets.UTF_8));
            assertEquals("EZ", types(w.untilReady()));
            w.send('Q', "SELECT 2\0".getBytes(StandardCharsets.UTF_8));
            assertEquals("TDCZ", types(w.untilReady()));
            // invalid UTF-8 is refused (22021), never read as U+FFFD
            w.send('Q', new byte[] {'S', 'E', 'L', 'E', 'C', 'T', ' ', '\'', (byte) 0xc3, 0x28, '\'', 0});
            List<Msg> bad = w.untilReady();
            assertEquals("EZ", types(bad));
            assertTrue(bad.get(0).text().contains("C22021\0"), bad.get(0).text());
        }
    }

    /** A Query of several statements is one implicit transaction, as in PostgreSQL: all of it or none. */
    @Test
    void aMultiStatementQueryIsAllOrNothing() throws IOException {
        try (Wire w = new Wire()) {
            w.startup();
            w.untilReady();
            w.send('Q', "CREATE TABLE r9 (id INT PRIMARY KEY, name TEXT)\0".getBytes(StandardCharsets.UTF_8));
            assertEquals("CZ", types(w.untilReady()));
            w.send('Q', "INSERT INTO r9 VALUES (1, 'a'); UPDATE r9 SET name = 'b'; INSERT INTO r9 VALUES (1, 'dup')\0"
                    .getBytes(StandardCharsets.UTF_8));
            List<Msg> failed = w.untilReady();
            assertEquals("CCEZ", types(failed));
            assertTrue(failed.get(2).text().contains("C23505\0"), failed.get(2).text());
            assertEquals("I", failed.get(3).text());
            w.send('Q', "SELECT count(*) FROM r9\0".getBytes(StandardCharsets.UTF_8));
            List<Msg> none = w.untilReady();
            assertEquals("TDCZ", types(none));
            assertTrue(none.get(1).text().endsWith("0"), "the first INSERT was taken back: " + none.get(1).text());
            // reads inside the block see its own writes; all parts kept when all succeed
            w.send('Q', "INSERT INTO r9 VALUES (2, 'x'); SELECT name FROM r9 WHERE id = 2; UPDATE r9 SET name = 'y'\0"
                    .getBytes(StandardCharsets.UTF_8));
            List<Msg> ok = w.untilReady();
            assertEquals("CTDCCZ", types(ok));
            assertTrue(ok.get(2).text().endsWith("x"), ok.get(2).text());
            w.send('Q', "SELECT name FROM r9\0".getBytes(StandardCharsets.UTF_8));
            List<Msg> kept = w.untilReady();
            assertEquals("TDCZ", types(kept));
            assertTrue(kept.get(1).text().endsWith("y"), kept.get(1).text());
            w.send('Q', "DROP TABLE r9\0".getBytes(StandardCharsets.UTF_8));
            assertEquals("CZ", types(w.untilReady()));
        }
    }

    @Test
    void extendedProtocolSkipsToSyncAfterAnError() throws IOException {
        try (Wire w = new Wire()) {
            w.startup();
            w.untilReady();
            w.send('P', "\0SELECT $1 + 1\0\0\0".getBytes(StandardCharsets.UTF_8)); // unnamed, one param of unspecified type
            // Bind with 2 values for 1 parameter: an error; Execute is skipped until Sync
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            DataOutputStream d = new DataOutputStream(b);
            d.write("\0\0".getBytes(StandardCharsets.US_ASCII));
            d.writeShort(0);
            d.writeShort(2);
            d.writeInt(1);
            d.write('1');
            d.writeInt(1);
            d.write('2');
            d.writeShort(0);
            w.send('B', b.toByteArray());
            w.send('E', "\0\0\0\0\0".getBytes(StandardCharsets.US_ASCII));
            w.send('S', new byte[0]);
            List<Msg> m = w.untilReady();
            assertEquals("1EZ", types(m));
            assertTrue(m.get(1).text().contains("C08P01\0"), m.get(1).text());
        }
    }

    @Test
    void anUnknownMessageTypeEndsTheSession() throws IOException {
        try (Wire w = new Wire()) {
            w.startup();
            w.untilReady();
            w.send('W', new byte[] {1, 2, 3});
            Msg m = w.read();
            assertEquals('E', m.type());
            assertTrue(m.text().contains("SFATAL\0") && m.text().contains("C08P01\0"), m.text());
            assertThrows(EOFException.class, w::read);
        }
    }
}
