package io.respsql.it;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import io.respsql.config.ServerConfig;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code tls-replication yes}: a replica's link to a TLS-only master (port 0, client certificates
 * required) over TLS: the full sync (a snapshot of several 64 KB chunks, which over TLS is sent as
 * buffers rather than sendfile's file region) and then the stream of writes; a replica without
 * tls-replication never gets a link to it.
 */
class TlsReplicationTest {
    private static final Duration LINK = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    @BeforeAll
    static void certificates() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")) || System.getenv("CI") != null,
                "openssl not installed (required when CI is set)");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
                "-subj", "/CN=RespSQL replication test CA");
        Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        for (String name : List.of("master", "replica")) {
            openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".key", "-out", name + ".csr",
                    "-subj", "/CN=" + name);
            openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", name + ".crt", "-days", "2", "-extfile", "san.ext");
        }
    }

    private static void openssl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "openssl did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
    }

    private static String path(String name) {
        return dir.resolve(name).toString();
    }

    /** A TLS-only server (port 0), client certificates signed by the test CA required. */
    private static TestServer tlsOnlyMaster() {
        return TestServer.start(c -> c.port(0).tlsPort(ServerConfig.ANY_PORT)
                .tls("tls-cert-file", path("master.crt")).tls("tls-key-file", path("master.key"))
                .tls("tls-ca-cert-file", path("ca.crt")));
    }

    /** jedis over TLS to {@code s}'s TLS port, presenting the replica's certificate (any CA-signed one will do). */
    private static Jedis tlsClient(TestServer s) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        Certificate caCert;
        try (InputStream in = Files.newInputStream(dir.resolve("ca.crt"))) {
            caCert = CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        trust.setCertificateEntry("ca", caCert);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        Certificate mine;
        try (InputStream in = Files.newInputStream(dir.resolve("replica.crt"))) {
            mine = CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        String pem = Files.readString(dir.resolve("replica.key"));
        byte[] der = Base64.getDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", ""));
        keys.setKeyEntry("me", KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der)), new char[0],
                new Certificate[] {mine});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        SSLSocketFactory factory = ctx.getSocketFactory();
        return new Jedis(new HostAndPort(TestServer.HOST, s.server().tlsPort()),
                DefaultJedisClientConfig.builder().ssl(true).sslSocketFactory(factory).socketTimeoutMillis(30_000).build());
    }

    private static Object sql(Jedis j, String statement) {
        Object reply = j.sendCommand(() -> "SQL".getBytes(StandardCharsets.UTF_8), statement);
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : reply;
    }

    private static String info(TestServer s, String field) {
        return field(String.valueOf(s.dispatch("INFO", "replication")), field);
    }

    private static String field(String info, String field) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).strip();
            }
        }
        return null;
    }

    /** A one-value SELECT's reply (a scalar or a one-element list) as text. */
    private static String one(Object reply) {
        return String.valueOf(reply instanceof List<?> l && l.size() == 1 ? l.get(0) : reply);
    }

    private static void await(String what, Supplier<Boolean> condition) throws InterruptedException {
        long deadline = System.nanoTime() + LINK.toNanos();
        while (!condition.get()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
            Thread.sleep(20);
        }
    }

    @Test
    void aReplicaSyncsAndStreamsFromATlsOnlyMaster() throws Exception {
        String pad = "x".repeat(400);
        try (TestServer master = tlsOnlyMaster();
             TestServer replica = TestServer.start(c -> c.tls("tls-replication", "yes")
                     .tls("tls-ca-cert-file", path("ca.crt"))
                     .tls("tls-client-cert-file", path("replica.crt")).tls("tls-client-key-file", path("replica.key")));
             Jedis m = tlsClient(master)) {
            assertEquals(0, master.server().port() == master.server().tlsPort() ? 0 : 1, "the master is TLS only");
            assertEquals("OK", sql(m, "CREATE TABLE t (id INT PRIMARY KEY, v TEXT)"));
            // about 800 KB: the snapshot goes over TLS in several 64 KB chunks
            for (int batch = 0; batch < 20; batch++) {
                StringBuilder insert = new StringBuilder("INSERT INTO t VALUES ");
                for (int i = 0; i < 100; i++) {
                    int id = batch * 100 + i;
                    insert.append(i == 0 ? "" : ", ").append('(').append(id).append(", '").append(pad).append(id).append("')");
                }
                sql(m, insert.toString());
            }
            assertEquals("OK", replica.dispatch("REPLICAOF", TestServer.HOST, Integer.toString(master.server().tlsPort())));
            await("the replica's link over TLS", () -> "up".equals(info(replica, "master_link_status")));
            assertEquals("2000", one(replica.dispatch("SQL", "SELECT count(*) FROM t")));
            assertEquals("1999", one(replica.dispatch("SQL", "SELECT max(id) FROM t WHERE v = '" + pad + "1999'")));

            // the stream: writes after the sync arrive over the same TLS link
            sql(m, "INSERT INTO t VALUES (5000, 'streamed')");
            sql(m, "UPDATE t SET v = 'changed' WHERE id = 7");
            sql(m, "DELETE FROM t WHERE id < 5");
            await("the streamed writes", () -> "1996".equals(one(replica.dispatch("SQL", "SELECT count(*) FROM t"))));
            assertEquals("streamed", one(replica.dispatch("SQL", "SELECT v FROM t WHERE id = 5000")));
            assertEquals("changed", one(replica.dispatch("SQL", "SELECT v FROM t WHERE id = 7")));
            assertEquals("1", field(m.info("replication"), "connected_slaves"));
        }
    }

    @Test
    void aReplicaWithoutTlsReplicationGetsNoLinkToATlsOnlyMaster() throws Exception {
        try (TestServer master = tlsOnlyMaster(); TestServer plain = TestServer.start();
             TestServer tls = TestServer.start(c -> c.tls("tls-replication", "yes").tls("tls-ca-cert-file", path("ca.crt"))
                     .tls("tls-client-cert-file", path("replica.crt")).tls("tls-client-key-file", path("replica.key")));
             Jedis m = tlsClient(master)) {
            sql(m, "CREATE TABLE t (id INT PRIMARY KEY)");
            String port = Integer.toString(master.server().tlsPort());
            assertEquals("OK", plain.dispatch("REPLICAOF", TestServer.HOST, port));
            assertEquals("OK", tls.dispatch("REPLICAOF", TestServer.HOST, port));
            // the TLS replica's link comes up; by then the plaintext one has tried (and retried) too
            await("the TLS replica's link", () -> "up".equals(info(tls, "master_link_status")));
            await("the plaintext replica's failed attempts", () -> !"-1".equals(info(plain, "master_link_down_since_seconds"))
                    && Integer.parseInt(info(plain, "master_link_down_since_seconds")) >= 2);
            assertEquals("down", info(plain, "master_link_status"));
            assertEquals("1", field(m.info("replication"), "connected_slaves"));
        }
    }
}
