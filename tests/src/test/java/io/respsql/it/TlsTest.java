package io.respsql.it;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.respsql.config.ServerConfig;
import io.respsql.net.RespSqlServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TLS on the RESP listener over the real wire: certificates made by openssl (a CA, a server
 * certificate it signs, a client certificate), then redis-cli --tls, jedis and lettuce over TLS,
 * client certificates, both listeners on one data set, certificate reload by CONFIG SET, and a
 * TLS port that neither speaks plaintext nor waits forever for a handshake. Skipped where openssl
 * is missing unless CI is set (then it fails, as the redis-cli tests do).
 */
class TlsTest {
    @TempDir
    static Path dir;
    private static Path ca;

    @BeforeAll
    static void certificates() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")) || System.getenv("CI") != null,
                "openssl not installed (required when CI is set)");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
                "-subj", "/CN=RespSQL test CA");
        Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        for (String name : List.of("server", "server2", "client")) {
            openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".key", "-out", name + ".csr",
                    "-subj", "/CN=" + name);
            openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", name + ".crt", "-days", "2", "-extfile", "san.ext");
        }
        ca = dir.resolve("ca.crt");
    }

    private static void openssl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "openssl did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
    }

    /** A server with a plain and a TLS listener, both on free ports, client certificates required. */
    private static TestServer tlsServer(Consumer<ServerConfig> more) {
        return TestServer.start(c -> {
            c.port(ServerConfig.ANY_PORT).tlsPort(ServerConfig.ANY_PORT)
                    .tls("tls-cert-file", path("server.crt")).tls("tls-key-file", path("server.key"))
                    .tls("tls-ca-cert-file", path("ca.crt"));
            more.accept(c);
        });
    }

    private static String path(String name) {
        return dir.resolve(name).toString();
    }

    // ---- clients -------------------------------------------------------------------------------

    /** A socket factory trusting the test CA, presenting {@code clientCert} (or none when null). */
    private static SSLSocketFactory factory(String clientCert) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", readCert(ca));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (clientCert != null) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("client", readKey(dir.resolve(clientCert + ".key")), new char[0],
                    new Certificate[] {readCert(dir.resolve(clientCert + ".crt"))});
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, new char[0]);
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ctx.getSocketFactory();
    }

    private static X509Certificate readCert(Path file) throws Exception {
        try (InputStream in = Files.newInputStream(file)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    /** What {@code openssl req -nodes} writes: PKCS#8 PEM. */
    private static PrivateKey readKey(Path file) throws Exception {
        String pem = Files.readString(file);
        assertTrue(pem.contains("-----BEGIN PRIVATE KEY-----"), "openssl wrote PKCS#8: " + file);
        String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
    }

    /** Sends one RESP command over TLS and returns the first reply line, or throws if TLS fails. */
    private static String tlsCall(TestServer s, String clientCert, String... command) throws Exception {
        try (SSLSocket socket = (SSLSocket) factory(clientCert).createSocket(TestServer.HOST, s.server().tlsPort())) {
            socket.setSoTimeout(10_000);
            return call(socket, command);
        }
    }

    private static String call(Socket socket, String... command) throws IOException {
        OutputStream out = socket.getOutputStream();
        StringBuilder req = new StringBuilder("*").append(command.length).append("\r\n");
        for (String word : command) {
            req.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(word).append("\r\n");
        }
        out.write(req.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            line.append((char) b);
        }
        if (b < 0) {
            throw new IOException("connection closed after '" + line + "'");
        }
        return line.toString().strip();
    }

    private static String peerName(TestServer s) throws Exception {
        try (SSLSocket socket = (SSLSocket) factory("client").createSocket(TestServer.HOST, s.server().tlsPort())) {
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
        }
    }

    private static RedisCli.Result cli(TestServer s, String... args) throws Exception {
        RedisCli.assumeAvailable();
        List<String> cmd = new ArrayList<>(List.of(RedisCli.PATH.toString(), "--tls", "--cacert", ca.toString(),
                "--cert", path("client.crt"), "--key", path("client.key"),
                "-h", TestServer.HOST, "-p", Integer.toString(s.server().tlsPort())));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "redis-cli did not finish");
        return new RedisCli.Result(out, p.exitValue());
    }

    // ---- tests ---------------------------------------------------------------------------------

    @Test
    void redisCliRoundTripOverTls() throws Exception {
        try (TestServer s = tlsServer(c -> { })) {
            assertTrue(s.server().tlsPort() > 0 && s.server().tlsPort() != s.port());
            assertEquals("OK\n", cli(s, "SQL", "CREATE TABLE tls_t (id INT PRIMARY KEY, name TEXT)").output());
            assertEquals("OK\n", cli(s, "SQL", "INSERT INTO tls_t VALUES (1, 'over tls')").output());
            RedisCli.Result r = cli(s, "SQL", "SELECT id, name FROM tls_t");
            assertEquals(0, r.exitCode(), r.output());
            assertEquals("1,over tls\n", r.output());
            // The plain port serves the same table.
            assertEquals(List.of("1,over tls"), s.dispatch("SQL", "SELECT id, name FROM tls_t"));
        }
    }

    @Test
    void jedisAndLettuceOverTlsSeeThePlainPortsTables() throws Exception {
        try (TestServer s = tlsServer(c -> { })) {
            s.dispatch("SQL", "CREATE TABLE shared (id INT PRIMARY KEY, v INT)");
            s.dispatch("SQL", "INSERT INTO shared VALUES (1, 10)");
            try (Jedis jedis = new Jedis(new HostAndPort(TestServer.HOST, s.server().tlsPort()),
                    DefaultJedisClientConfig.builder().ssl(true).sslSocketFactory(factory("client")).build())) {
                assertEquals("PONG", jedis.ping());
                jedis.sendCommand(() -> "SQL".getBytes(StandardCharsets.UTF_8),
                        "INSERT INTO shared VALUES (2, 20)");
            }
            RedisURI uri = RedisURI.builder().withHost("127.0.0.1").withPort(s.server().tlsPort()).withSsl(true)
                    .withTimeout(Duration.ofSeconds(30)).build();
            RedisClient client = RedisClient.create(uri);
            client.setOptions(ClientOptions.builder().sslOptions(SslOptions.builder().jdkSslProvider()
                    .trustManager(ca.toFile())
                    .keyManager(dir.resolve("client.crt").toFile(), dir.resolve("client.key").toFile(), null)
                    .build()).build());
            try (StatefulRedisConnection<String, String> c = client.connect()) {
                assertEquals("PONG", c.sync().ping());
                Object rows = TestServer.dispatch(c.sync(), "SQL", "SELECT id, v FROM shared ORDER BY id");
                assertEquals(List.of("1,10", "2,20"), rows);
            } finally {
                client.shutdown();
            }
            // And the plain port sees jedis's row.
            assertEquals(List.of("2"), s.dispatch("SQL", "SELECT id FROM shared WHERE v = 20"));
        }
    }

    @Test
    void tlsAuthClientsYesRefusesAClientWithoutCertificate() throws Exception {
        try (TestServer s = tlsServer(c -> { })) {
            assertEquals("+PONG", tlsCall(s, "client", "PING"));
            assertThrows(IOException.class, () -> tlsCall(s, null, "PING"));
        }
        try (TestServer s = tlsServer(c -> c.tls("tls-auth-clients", "optional"))) {
            assertEquals("+PONG", tlsCall(s, null, "PING"));
            assertEquals("+PONG", tlsCall(s, "client", "PING"));
        }
        try (TestServer s = tlsServer(c -> c.tls("tls-auth-clients", "no").tls("tls-ca-cert-file", ""))) {
            assertEquals("+PONG", tlsCall(s, null, "PING"));
        }
    }

    @Test
    void tlsPortDoesNotSpeakPlaintext() throws Exception {
        try (TestServer s = tlsServer(c -> { });
             Socket plain = new Socket(TestServer.HOST, s.server().tlsPort())) {
            plain.setSoTimeout(10_000);
            plain.getOutputStream().write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            plain.getOutputStream().flush();
            byte[] got = plain.getInputStream().readAllBytes(); // the server closes the connection
            assertFalse(new String(got, StandardCharsets.ISO_8859_1).contains("PONG"));
            // The plain port does, and the server is unharmed.
            assertEquals("PONG", s.jedis().ping());
            assertEquals("+PONG", tlsCall(s, "client", "PING"));
        }
    }

    @Test
    void aClientThatNeverHandshakesNeitherBlocksOthersNorStays() throws Exception {
        try (TestServer s = tlsServer(c -> c.tls("tls-handshake-timeout-ms", "500"));
             Socket silent = new Socket(TestServer.HOST, s.server().tlsPort())) {
            long start = System.nanoTime();
            assertEquals("+PONG", tlsCall(s, "client", "PING"));
            silent.setSoTimeout(10_000);
            // Awaited, not slept: read() returns -1 when the server closes the silent connection.
            assertEquals(-1, silent.getInputStream().read());
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(ms >= 400 && ms < 9_000, "closed after " + ms + " ms");
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the silent connection was not closed", e);
        }
    }

    @Test
    void configSetReloadsTheCertificateForNewConnections() throws Exception {
        try (TestServer s = tlsServer(c -> { });
             SSLSocket old = (SSLSocket) factory("client").createSocket(TestServer.HOST, s.server().tlsPort())) {
            old.setSoTimeout(10_000);
            assertEquals("+PONG", call(old, "PING"));
            assertEquals("CN=server", peerName(s));
            assertEquals("OK", s.lettuce().configSet(java.util.Map.of("tls-cert-file", path("server2.crt"),
                    "tls-key-file", path("server2.key"))));
            assertEquals("CN=server2", peerName(s));
            assertEquals("+PONG", call(old, "PING")); // the open connection keeps its session
            // A key that is not the certificate's: refused, nothing changes.
            String err = call(new Socket(TestServer.HOST, s.port()), "CONFIG", "SET", "tls-key-file", path("server.key"));
            assertTrue(err.startsWith("-ERR CONFIG SET failed") && err.contains("is not the key of tls-cert-file"), err);
            assertEquals(path("server2.key"), s.lettuce().configGet("tls-key-file").get("tls-key-file"));
            err = call(new Socket(TestServer.HOST, s.port()), "CONFIG", "SET", "tls-cert-file", path("missing.crt"));
            assertTrue(err.contains("cannot read tls-cert-file " + path("missing.crt")), err);
            assertEquals("CN=server2", peerName(s));
            assertEquals("+PONG", tlsCall(s, "client", "PING"));
        }
    }

    @Test
    void portZeroMeansTlsOnly() throws Exception {
        try (TestServer s = tlsServer(c -> c.port(0))) {
            assertEquals(s.server().tlsPort(), s.port());
            assertEquals("+PONG", tlsCall(s, "client", "PING"));
            try (SSLSocket socket = (SSLSocket) factory("client").createSocket(TestServer.HOST, s.server().tlsPort())) {
                assertEquals("*2", call(socket, "CONFIG", "GET", "port"));
            }
        }
    }

    @Test
    void badFilesEndStartupNamingTheFile() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        for (String[] bad : new String[][] {
            {"tls-cert-file", path("nope.crt"), "cannot read tls-cert-file " + path("nope.crt")},
            {"tls-key-file", path("server2.key"), "tls-key-file " + path("server2.key") + " is not the key of"},
            {"tls-cert-file", path("server.key"), "tls-cert-file " + path("server.key") + " is not a PEM certificate"},
            {"tls-ca-cert-file", "", "tls-auth-clients yes needs tls-ca-cert-file"},
        }) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RespSqlServer.start(
                    new ServerConfig().bind(TestServer.HOST).port(port).save("").dir(dir).tlsPort(ServerConfig.ANY_PORT)
                            .tls("tls-cert-file", path("server.crt")).tls("tls-key-file", path("server.key"))
                            .tls("tls-ca-cert-file", path("ca.crt")).tls(bad[0], bad[1])));
            assertTrue(e.getMessage().contains(bad[2]), e.getMessage());
            // Nothing was left listening.
            try (ServerSocket again = new ServerSocket(port, 1, java.net.InetAddress.getByName(TestServer.HOST))) {
                assertEquals(port, again.getLocalPort());
            }
        }
    }

    @Test
    void keyFormats() throws Exception {
        // PKCS#1 (openssl genrsa -traditional) and encrypted PKCS#8 (with tls-key-file-pass) load too.
        openssl("rsa", "-in", "server.key", "-traditional", "-out", "server-pkcs1.key");
        assertTrue(Files.readString(dir.resolve("server-pkcs1.key")).contains("BEGIN RSA PRIVATE KEY"));
        openssl("pkcs8", "-topk8", "-in", "server.key", "-out", "server-enc.key", "-passout", "pass:s3cret");
        assertTrue(Files.readString(dir.resolve("server-enc.key")).contains("BEGIN ENCRYPTED PRIVATE KEY"));
        try (TestServer s = tlsServer(c -> c.tls("tls-key-file", path("server-pkcs1.key")))) {
            assertEquals("+PONG", tlsCall(s, "client", "PING"));
        }
        try (TestServer s = tlsServer(c -> c.tls("tls-key-file", path("server-enc.key"))
                .tls("tls-key-file-pass", "s3cret"))) {
            assertEquals("+PONG", tlsCall(s, "client", "PING"));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tlsServer(c ->
                c.tls("tls-key-file", path("server-enc.key")).tls("tls-key-file-pass", "wrong")));
        assertTrue(e.getMessage().contains("wrong tls-key-file-pass"), e.getMessage());
    }

    @Test
    void protocolsAndCiphersAsConfigured() throws Exception {
        try (TestServer s = tlsServer(c -> c.tls("tls-protocols", "TLSv1.2")
                .tls("tls-ciphers", "ECDHE-RSA-AES128-GCM-SHA256"))) {
            try (SSLSocket socket = (SSLSocket) factory("client").createSocket(TestServer.HOST, s.server().tlsPort())) {
                socket.setSoTimeout(10_000);
                assertEquals("+PONG", call(socket, "PING"));
                assertEquals("TLSv1.2", socket.getSession().getProtocol());
                assertEquals("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", socket.getSession().getCipherSuite());
            }
            try (SSLSocket socket = (SSLSocket) factory("client").createSocket(TestServer.HOST, s.server().tlsPort())) {
                socket.setEnabledProtocols(new String[] {"TLSv1.3"});
                assertThrows(IOException.class, socket::startHandshake);
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> tlsServer(c -> c.tls("tls-ciphers", "DEFAULT:!MEDIUM")));
        assertTrue(e.getMessage().contains("tls-ciphers: unknown or unsupported cipher 'DEFAULT'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> tlsServer(c -> c.tls("tls-ciphersuites", "ECDHE-RSA-AES128-GCM-SHA256")));
        assertTrue(e.getMessage().contains("is a TLSv1.2 cipher"), e.getMessage());
    }

    @Test
    void largeRepliesAndProtocolErrorsOverTls() throws Exception {
        try (TestServer s = tlsServer(c -> { })) {
            s.dispatch("SQL", "CREATE TABLE big (id INT PRIMARY KEY, pad TEXT)");
            StringBuilder insert = new StringBuilder("INSERT INTO big VALUES ");
            String pad = "x".repeat(100);
            for (int i = 0; i < 20_000; i++) {
                insert.append(i == 0 ? "" : ", ").append('(').append(i).append(", '").append(pad).append("')");
            }
            s.dispatch("SQL", insert.toString());
            // About 2.5 MB of reply: many 64 KiB chunks through the SslHandler, in order.
            try (Jedis jedis = new Jedis(new HostAndPort(TestServer.HOST, s.server().tlsPort()),
                    DefaultJedisClientConfig.builder().ssl(true).sslSocketFactory(factory("client")).build())) {
                Object rows = jedis.sendCommand(() -> "SQL".getBytes(StandardCharsets.UTF_8),
                        "SELECT id, pad FROM big ORDER BY id");
                List<?> list = (List<?>) rows;
                assertEquals(20_000, list.size());
                assertEquals("19999," + pad, new String((byte[]) list.get(19_999), StandardCharsets.UTF_8));
            }
            // A protocol error's reply arrives before the connection ends, as on the plain port.
            try (SSLSocket socket = (SSLSocket) factory("client").createSocket(TestServer.HOST, s.server().tlsPort())) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write("*1\r\n$abc\r\n".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                String reply = new String(socket.getInputStream().readNBytes(20), StandardCharsets.US_ASCII);
                assertTrue(reply.startsWith("-ERR Protocol error"), reply);
            }
        }
    }
}
