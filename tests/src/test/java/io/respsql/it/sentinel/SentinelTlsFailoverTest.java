package io.respsql.it.sentinel;

import io.respsql.it.RespConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Sentinel over TLS: three Debian Sentinels ({@code tls-replication yes}: they reach the instances
 * and each other over TLS, with a client certificate) monitor a RespSQL master by its TLS port;
 * its two replicas replicate over TLS ({@code tls-replication yes}, which also makes them announce
 * their TLS ports, so Sentinel finds them there). The master is killed; Sentinel promotes a replica
 * at its TLS port, the other one follows it over TLS, and a row written to the new master reaches it.
 * The test itself reads every process over its plain port.
 */
class SentinelTlsFailoverTest {
    private static final int DOWN_AFTER_MS = 2000;
    private static final int FAILOVER_TIMEOUT_MS = 10000;

    @TempDir
    Path tmp;

    private void openssl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(tmp.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "openssl did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
    }

    /** The tls-* lines every process shares: one CA-signed certificate, client certificates required. */
    private List<String> tls(int tlsPort) {
        return List.of("tls-port " + tlsPort, "tls-replication yes",
                "tls-cert-file " + tmp.resolve("node.crt"), "tls-key-file " + tmp.resolve("node.key"),
                "tls-ca-cert-file " + tmp.resolve("ca.crt"), "tls-auth-clients yes");
    }

    private LocalProcess respsql(String name, int tlsPort, String... more) throws Exception {
        List<String> extra = new ArrayList<>(tls(tlsPort));
        extra.addAll(List.of(more));
        return LocalProcess.respsql(tmp, name, LocalProcess.freePort(), extra.toArray(String[]::new)).start();
    }

    private static String info(LocalProcess p, String field) throws Exception {
        try (RespConnection c = p.raw()) {
            for (String line : c.call("INFO", "replication").split("\r\n")) {
                if (line.startsWith(field + ":")) {
                    return line.substring(field.length() + 1);
                }
            }
        }
        return null;
    }

    private static void await(String what, Duration timeout, Check check) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!check.holds()) {
            assertTrue(System.nanoTime() < deadline, "not within " + timeout + ": " + what);
            Thread.sleep(50); // another process's timers: nothing in this JVM to wait on
        }
    }

    @FunctionalInterface
    private interface Check {
        boolean holds() throws Exception;
    }

    @Test
    void sentinelsOverTlsPromoteAReplicaThatReplicatesOverTls() throws Exception {
        assumeTrue(LocalProcess.redisServerInstalled() || System.getenv("CI") != null,
                "redis-server (Debian package redis-server) is not installed");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")) || System.getenv("CI") != null, "openssl not installed");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
                "-subj", "/CN=RespSQL sentinel test CA");
        Files.writeString(tmp.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "node.key", "-out", "node.csr", "-subj", "/CN=node");
        openssl("x509", "-req", "-in", "node.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "node.crt", "-days", "2", "-extfile", "san.ext");

        int masterTls = LocalProcess.freePort();
        int r1Tls = LocalProcess.freePort();
        int r2Tls = LocalProcess.freePort();
        try (LocalProcess master = respsql("master", masterTls)) {
            try (RespConnection c = master.raw()) {
                assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "t", "(id int primary key, v int)"));
                assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (1, 10)"));
            }
            try (LocalProcess r1 = respsql("replica1", r1Tls, "replicaof 127.0.0.1 " + masterTls);
                 LocalProcess r2 = respsql("replica2", r2Tls, "replicaof 127.0.0.1 " + masterTls);
                 LocalProcess s1 = sentinel("s1", masterTls);
                 LocalProcess s2 = sentinel("s2", masterTls);
                 LocalProcess s3 = sentinel("s3", masterTls)) {
                LocalProcess[] sentinels = {s1, s2, s3};
                await("both replicas linked over TLS", Duration.ofSeconds(60),
                        () -> "up".equals(info(r1, "master_link_status")) && "up".equals(info(r2, "master_link_status")));
                SentinelView.await("both replicas (at their TLS ports) and both other sentinels known",
                        Duration.ofSeconds(60), m -> m.get("num-slaves").equals("2")
                                && m.get("num-other-sentinels").equals("2") && m.get("flags").equals("master"), sentinels);

                master.kill9();
                SentinelView.await("a replica promoted", Duration.ofSeconds(60),
                        m -> !m.get("port").equals(Integer.toString(masterTls)), sentinels);
                String newAddr = SentinelView.masterAddress(s1);
                assertTrue(newAddr.equals("127.0.0.1:" + r1Tls) || newAddr.equals("127.0.0.1:" + r2Tls),
                        "Sentinel names a replica's TLS port: " + newAddr);
                LocalProcess promoted = newAddr.endsWith(":" + r1Tls) ? r1 : r2;
                LocalProcess other = promoted == r1 ? r2 : r1;
                await("the promoted replica is a master", Duration.ofSeconds(30), () -> "master".equals(info(promoted, "role")));
                await("the other replica follows it over TLS", Duration.ofSeconds(60),
                        () -> newAddr.endsWith(":" + info(other, "master_port")) && "up".equals(info(other, "master_link_status")));
                try (RespConnection c = promoted.raw()) {
                    assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (2, 20)"));
                }
                await("the new master's row on the other replica", Duration.ofSeconds(30), () -> {
                    try (RespConnection c = other.raw()) {
                        return c.call("SELECT", "v", "FROM", "t", "WHERE", "id", "=", "2").contains("20");
                    }
                });
            }
        }
    }

    private LocalProcess sentinel(String name, int masterTlsPort) throws Exception {
        return LocalProcess.sentinel(tmp, name, LocalProcess.freePort(), masterTlsPort, 2, DOWN_AFTER_MS,
                FAILOVER_TIMEOUT_MS, tls(LocalProcess.freePort())).start();
    }
}
