package io.respsql.it;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A server bound to every interface still serves loopback clients in protected mode. */
class ProtectedModeTest {
    @Test
    void loopbackClientsAreServedWhenBoundToEveryInterface() throws Exception {
        try (TestServer s = TestServer.start(c -> c.bind("*")); RespConnection c = s.raw()) {
            assertEquals("+PONG\r\n", c.call("PING"));
            assertEquals("*2\r\n$14\r\nprotected-mode\r\n$3\r\nyes\r\n", c.call("CONFIG", "GET", "protected-mode"));
            assertEquals("PONG", s.lettuce().ping());
        }
    }

    @Test
    void protectedModeCanBeSwitchedAtRuntime() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "protected-mode", "no"));
            assertEquals("*2\r\n$14\r\nprotected-mode\r\n$2\r\nno\r\n", c.call("CONFIG", "GET", "protected-mode"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'protected-mode') - argument must be "
                    + "'yes' or 'no'\r\n", c.call("CONFIG", "SET", "protected-mode", "maybe"));
        }
    }
}
