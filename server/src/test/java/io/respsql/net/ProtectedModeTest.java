package io.respsql.net;

import io.respsql.config.ServerConfig;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProtectedModeTest {
    private static final SocketAddress REMOTE = new InetSocketAddress("192.0.2.10", 50000);
    private static final SocketAddress REMOTE6 = new InetSocketAddress("2001:db8::1", 50000);
    private static final SocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 50000);
    private static final SocketAddress LOOPBACK_OTHER = new InetSocketAddress("127.0.0.5", 50000);
    private static final SocketAddress LOOPBACK6 = new InetSocketAddress("::1", 50000);

    @Test
    void remoteClientOfAnOpenServerOnEveryInterfaceIsDenied() {
        for (String bind : new String[] {"*", "0.0.0.0", "::", "192.0.2.1"}) {
            assertTrue(ProtectedMode.denies(REMOTE, bind, true, false), bind);
            assertTrue(ProtectedMode.denies(REMOTE6, bind, true, false), bind);
        }
    }

    @Test
    void loopbackClientsAreAlwaysAccepted() {
        for (SocketAddress local : new SocketAddress[] {LOOPBACK, LOOPBACK_OTHER, LOOPBACK6}) {
            assertFalse(ProtectedMode.denies(local, "*", true, false));
            assertFalse(ProtectedMode.denies(local, "0.0.0.0", true, false));
        }
    }

    @Test
    void aPasswordOrProtectedModeOffLetsRemoteClientsIn() {
        assertFalse(ProtectedMode.denies(REMOTE, "*", true, true));
        assertFalse(ProtectedMode.denies(REMOTE, "*", false, false));
        assertFalse(ProtectedMode.denies(REMOTE, "0.0.0.0", false, true));
    }

    @Test
    void loopbackBindIsNotAffected() {
        assertFalse(ProtectedMode.denies(REMOTE, "127.0.0.1", true, false));
        assertFalse(ProtectedMode.denies(REMOTE, "::1", true, false));
        assertFalse(ProtectedMode.denies(REMOTE, "localhost", true, false));
    }

    @Test
    void decisionFollowsTheConfiguration() {
        ServerConfig config = new ServerConfig().bind("*");
        assertTrue(ProtectedMode.denies(REMOTE, config));
        config.requirePass("pw");
        assertFalse(ProtectedMode.denies(REMOTE, config));
        config.requirePass("").protectedMode(false);
        assertFalse(ProtectedMode.denies(REMOTE, config));
        assertFalse(ProtectedMode.denies(REMOTE, new ServerConfig()));
    }

    @Test
    void deniedMessageIsOneErrorLine() {
        assertTrue(ProtectedMode.DENIED.startsWith("-DENIED RespSQL is running in protected mode"));
        assertTrue(ProtectedMode.DENIED.endsWith("\r\n"));
        assertFalse(ProtectedMode.DENIED.substring(0, ProtectedMode.DENIED.length() - 2).contains("\n"));
    }
}
