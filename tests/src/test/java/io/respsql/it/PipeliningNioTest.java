package io.respsql.it;

import org.junit.jupiter.api.BeforeAll;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link PipeliningTest} again on a server with {@code io-transport nio}: the transport used where
 * native epoll is unavailable must keep answering pipelines in order, across split reads.
 */
class PipeliningNioTest extends PipeliningTest {
    /** Hides {@link ServerTestBase}'s: this class's server is a NIO one. */
    @BeforeAll
    static void startServer() {
        server = TestServer.start(c -> c.ioTransport("nio"));
        assertEquals("nio", server.server().transport());
    }
}
