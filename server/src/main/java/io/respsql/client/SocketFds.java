package io.respsql.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the file descriptor of each client's socket, for the {@code fd=} of {@code CLIENT LIST}.
 * Native (epoll) channels know it ({@link Session} takes it from the channel); Java's NIO channels
 * do not expose it, so on Linux it is looked up once per connection:
 * {@code /proc/net/tcp} and {@code tcp6} give the socket inode of the connection from the
 * client's port to the server's, and {@code /proc/self/fd} the descriptor that links to that
 * inode. Where this cannot be found (another OS, a socket already closed) the fd is {@code -1}.
 */
final class SocketFds {
    private static final Path PROC_FD = Path.of("/proc/self/fd");
    private static final List<Path> PROC_TCP = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

    private SocketFds() {
    }

    /** Sets the fd of every session in {@code sessions} that has none yet (one pass over /proc). */
    static void resolve(Collection<Session> sessions) {
        boolean any = false;
        for (Session s : sessions) {
            any |= s.fdUnknown();
        }
        if (!any) {
            return;
        }
        Map<Long, Long> inodeByPorts = socketInodes();
        Map<Long, Integer> fdByInode = inodeFds();
        for (Session s : sessions) {
            if (!s.fdUnknown()) {
                continue;
            }
            int fd = -1;
            if (s.localAddress() instanceof InetSocketAddress local && s.remoteAddress() instanceof InetSocketAddress remote) {
                Long inode = inodeByPorts.get(ports(local.getPort(), remote.getPort()));
                Integer found = inode == null ? null : fdByInode.get(inode);
                fd = found == null ? -1 : found;
            }
            s.fd(fd);
        }
    }

    private static long ports(int local, int remote) {
        return ((long) local << 16) | remote;
    }

    /** Socket inode by (local port, remote port) of every TCP connection in this network namespace. */
    private static Map<Long, Long> socketInodes() {
        Map<Long, Long> out = new HashMap<>();
        for (Path p : PROC_TCP) {
            try {
                List<String> lines = Files.readAllLines(p);
                for (int i = 1; i < lines.size(); i++) {
                    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
                    String[] f = lines.get(i).trim().split("\\s+");
                    if (f.length < 10) {
                        continue;
                    }
                    int local = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16);
                    int remote = Integer.parseInt(f[2].substring(f[2].indexOf(':') + 1), 16);
                    long inode = Long.parseLong(f[9]);
                    if (inode != 0) {
                        out.putIfAbsent(ports(local, remote), inode);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not Linux, or not readable: those clients keep fd=-1
            }
        }
        return out;
    }

    /** This process's descriptors that are sockets, by socket inode. */
    private static Map<Long, Integer> inodeFds() {
        Map<Long, Integer> out = new HashMap<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(PROC_FD)) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[") && target.endsWith("]")) {
                        out.put(Long.parseLong(target.substring(8, target.length() - 1)),
                                Integer.parseInt(fd.getFileName().toString()));
                    }
                } catch (IOException | RuntimeException e) {
                    // closed while listing
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return out;
    }
}
