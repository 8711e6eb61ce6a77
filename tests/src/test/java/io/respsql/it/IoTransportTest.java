package io.respsql.it;

import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code io-transport}: which transport serves, what INFO and CLIENT LIST show, and a replica link across transports. */
class IoTransportTest {
    private static final String OK = "+OK\r\n";

    @Test
    void autoIsEpollWhereItLoadsAndInfoSaysSo() throws Exception {
        String expected = Epoll.isAvailable() ? "epoll" : "nio";
        try (TestServer s = TestServer.start()) {
            assertEquals(expected, s.server().transport());
            RespConnection c = s.raw();
            assertEquals(expected, ReplicatedTransactionTest.info(c, "server", "multiplexing_api"));
            assertEquals("*2\r\n$12\r\nio-transport\r\n$4\r\nauto\r\n", c.call("CONFIG", "GET", "io-transport"));
            // fixed at start: not settable live
            assertTrue(c.call("CONFIG", "SET", "io-transport", "nio").startsWith("-ERR"));
        }
    }

    @Test
    void nioServesAndShowsDescriptors() throws Exception {
        try (TestServer s = TestServer.start(c -> c.ioTransport("nio"))) {
            assertEquals("nio", s.server().transport());
            RespConnection c = s.raw();
            assertEquals("nio", ReplicatedTransactionTest.info(c, "server", "multiplexing_api"));
            assertEquals("+PONG\r\n", c.call("PING"));
            assertRealFd(c);
        }
    }

    @Test
    void epollShowsTheChannelsDescriptor() throws Exception {
        assumeTrue(Epoll.isAvailable(), "native epoll is not available here");
        try (TestServer s = TestServer.start(c -> c.ioTransport("epoll"))) {
            assertEquals("epoll", s.server().transport());
            assertRealFd(s.raw());
        }
    }

    /** The replica's link to its master is a channel of the replica's own loop, whichever transports the two use. */
    @Test
    void replicaLinksAcrossTransports() throws Exception {
        assumeTrue(Epoll.isAvailable(), "native epoll is not available here");
        for (String[] pair : new String[][] {{"epoll", "nio"}, {"nio", "epoll"}}) {
            try (TestServer master = TestServer.start(c -> c.ioTransport(pair[0]));
                 TestServer replica = TestServer.start(c -> c.ioTransport(pair[1]))) {
                RespConnection m = master.raw();
                assertEquals(OK, m.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
                assertEquals(OK, m.call("SQL", "INSERT INTO t VALUES (1, 10)"));
                ReplicatedTransactionTest.replicate(master, replica);
                assertEquals(OK, m.call("SQL", "INSERT INTO t VALUES (2, 20)"));
                assertEquals(":1\r\n", m.call("WAIT", "1", "10000"), pair[0] + " master, " + pair[1] + " replica");
                RespConnection r = replica.raw();
                assertEquals(m.call("SQL", "SELECT id, v FROM t ORDER BY id"), r.call("SQL", "SELECT id, v FROM t ORDER BY id"));
                assertTrue(r.call("CLIENT", "LIST").contains("cmd=client|list"));
            }
        }
    }

    /** CLIENT LIST's own line has an fd that is this process's socket (not -1). */
    private static void assertRealFd(RespConnection c) throws Exception {
        assumeTrue(java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/fd")), "no /proc here");
        String list = c.call("CLIENT", "LIST");
        Matcher m = Pattern.compile(" fd=(-?\\d+) .*cmd=client\\|list").matcher(list);
        assertTrue(m.find(), list);
        int fd = Integer.parseInt(m.group(1));
        assertTrue(fd > 2, list);
        String target = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/" + fd)).toString();
        assertTrue(target.startsWith("socket:["), target);
    }
}
