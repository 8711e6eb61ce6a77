package io.respsql.it;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClientKillTest extends ServerTestBase {
    private static long id(RespConnection c) throws Exception {
        String r = c.call("CLIENT", "ID");
        return Long.parseLong(r.substring(1).trim());
    }

    private static String addr(RespConnection c) throws Exception {
        return c.call("CLIENT", "INFO").replaceAll("(?s).* addr=(\\S+) .*", "$1");
    }

    private static String laddr(RespConnection c) throws Exception {
        return c.call("CLIENT", "INFO").replaceAll("(?s).* laddr=(\\S+) .*", "$1");
    }

    @Test
    void killById() throws Exception {
        try (RespConnection admin = server.raw(); RespConnection victim = server.raw()) {
            long id = id(victim);
            assertEquals(":1\r\n", admin.call("CLIENT", "KILL", "ID", Long.toString(id)));
            assertTrue(victim.awaitClosedByServer(10_000));
            assertFalse(admin.call("CLIENT", "LIST").contains("id=" + id + " "));
            assertEquals(":0\r\n", admin.call("CLIENT", "KILL", "ID", Long.toString(id)));
        }
    }

    @Test
    void killByAddressOldForm() throws Exception {
        try (RespConnection admin = server.raw(); RespConnection victim = server.raw()) {
            String addr = addr(victim);
            assertEquals("+OK\r\n", admin.call("CLIENT", "KILL", addr));
            assertTrue(victim.awaitClosedByServer(10_000));
            assertFalse(admin.call("CLIENT", "LIST").contains("addr=" + addr + " "));
            assertEquals("-ERR No such client\r\n", admin.call("CLIENT", "KILL", addr));
        }
    }

    @Test
    void filters() throws Exception {
        try (RespConnection admin = server.raw(); RespConnection a = server.raw(); RespConnection b = server.raw()) {
            assertEquals(":1\r\n", admin.call("CLIENT", "KILL", "ADDR", addr(a), "USER", "default"));
            assertTrue(a.awaitClosedByServer(10_000));
            assertEquals("+PONG\r\n", b.call("PING"));
            assertEquals(":0\r\n", admin.call("CLIENT", "KILL", "ADDR", "10.0.0.1:1"));
            assertEquals("-ERR No such user 'bob'\r\n", admin.call("CLIENT", "KILL", "USER", "bob"));
            assertEquals("-ERR syntax error\r\n", admin.call("CLIENT", "KILL", "ID", "1", "SKIPME"));
            assertEquals("-ERR syntax error\r\n", admin.call("CLIENT", "KILL", "COLOR", "red"));
            assertEquals("-ERR client-id should be greater than 0\r\n", admin.call("CLIENT", "KILL", "ID", "x"));
            // LADDR matches every client of this listener; SKIPME yes (the default) spares the caller.
            assertEquals(":1\r\n", admin.call("CLIENT", "KILL", "LADDR", laddr(admin), "ID", Long.toString(id(b))));
            assertTrue(b.awaitClosedByServer(10_000));
            assertEquals("+PONG\r\n", admin.call("PING"));
        }
    }

    @Test
    void killingItselfClosesAfterTheReply() throws Exception {
        try (RespConnection self = server.raw()) {
            long id = id(self);
            assertEquals(":0\r\n", self.call("CLIENT", "KILL", "ID", Long.toString(id)));
            assertEquals(":1\r\n", self.call("CLIENT", "KILL", "ID", Long.toString(id), "SKIPME", "no"));
            assertTrue(self.awaitClosedByServer(10_000));
        }
        try (RespConnection self = server.raw()) {
            assertEquals("+OK\r\n", self.call("CLIENT", "KILL", addr(self)));
            assertTrue(self.awaitClosedByServer(10_000));
        }
    }
}
