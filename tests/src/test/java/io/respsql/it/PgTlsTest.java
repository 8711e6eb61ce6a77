package io.respsql.it;

import io.respsql.config.ServerConfig;
import io.respsql.net.RespSqlServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TLS on the PostgreSQL listener over the real wire: SSLRequest answered 'S' and the connection
 * upgraded with the RESP listener's certificate (made here by openssl: a CA, a server certificate
 * for 127.0.0.1 it signs, a client certificate); psql with sslmode=require and verify-full (client
 * certificate under tls-auth-clients yes), pgjdbc with ssl=true&sslmode=verify-full, pg-tls-required,
 * certificate reload by CONFIG SET, the handshake timeout, and a recording TCP proxy between client
 * and server showing that neither the password nor a row crosses in clear over TLS (and that the
 * same proxy does see both without TLS, so the probe can see what it looks for).
 */
class PgTlsTest {
    private static final Path PSQL = Path.of("/usr/lib/postgresql/15/bin/psql");
    private static final String HOST = TestServer.HOST;

    @TempDir
    static Path dir;

    @BeforeAll
    static void certificates() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")) || System.getenv("CI") != null,
                "openssl not installed (required when CI is set)");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
                "-subj", "/CN=RespSQL pg test CA");
        Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        for (String name : List.of("server", "server2", "client")) {
            openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".key", "-out", name + ".csr",
                    "-subj", "/CN=" + name);
            openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", name + ".crt", "-days", "2", "-extfile", "san.ext");
            // libpq refuses a key file others may read
            Files.setPosixFilePermissions(dir.resolve(name + ".key"), PosixFilePermissions.fromString("rw-------"));
        }
        // pgjdbc reads the client key as PKCS#8 DER
        openssl("pkcs8", "-topk8", "-nocrypt", "-in", "client.key", "-outform", "DER", "-out", "client.pk8");
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

    /** pg-port on a free port with the test certificate; client certificates as {@code authClients} says. */
    private static TestServer pgTls(String authClients, Consumer<ServerConfig> more) {
        return TestServer.start(c -> {
            c.pgPort(0).tls("tls-cert-file", path("server.crt")).tls("tls-key-file", path("server.key"))
                    .tls("tls-ca-cert-file", path("ca.crt")).tls("tls-auth-clients", authClients);
            more.accept(c);
        });
    }

    // ---- psql ----------------------------------------------------------------------------------

    private record Run(String out, int exit) {
    }

    private static Run psql(int port, String conninfo, String... commands) throws Exception {
        assumeTrue(Files.isExecutable(PSQL) || System.getenv("CI") != null, "psql (postgresql-client-15) not installed");
        List<String> cmd = new ArrayList<>(List.of(PSQL.toString(), "-X", "-At", "-v", "ON_ERROR_STOP=1",
                "host=" + HOST + " port=" + port + " dbname=respsql user=tester connect_timeout=20 " + conninfo));
        for (String c : commands) {
            cmd.add("-c");
            cmd.add(c);
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("PGPASSWORD", "pg-secret-pw");
        pb.environment().remove("PGSSLMODE");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "psql did not finish");
        return new Run(out, p.exitValue());
    }

    @Test
    void psqlSslmodeRequireAndVerifyFull() throws Exception {
        try (TestServer s = pgTls("optional", c -> { })) {
            s.dispatch("CREATE", "TABLE", "t", "(id INT PRIMARY KEY, v TEXT)");
            s.dispatch("INSERT", "INTO", "t", "VALUES", "(1, 'over-tls')");
            int port = s.server().pgPort();
            Run require = psql(port, "sslmode=require", "SELECT v FROM t WHERE id = 1", "\\conninfo");
            assertEquals(0, require.exit(), require.out());
            assertTrue(require.out().startsWith("over-tls\n"), require.out());
            assertTrue(require.out().contains("SSL connection (protocol: TLSv1."), require.out());

            Run full = psql(port, "sslmode=verify-full sslrootcert=" + path("ca.crt") + " sslcert=" + path("client.crt")
                    + " sslkey=" + path("client.key"), "SELECT v || '!' FROM t", "\\conninfo");
            assertEquals(0, full.exit(), full.out());
            assertTrue(full.out().startsWith("over-tls!\n") && full.out().contains("SSL connection"), full.out());

            // verify-full checks the name: the certificate is for 127.0.0.1 and localhost only
            Run localhost = psql(port, "host=localhost hostaddr=127.0.0.1 sslmode=verify-full sslrootcert="
                    + path("ca.crt"), "SELECT 2");
            assertEquals("2\n", localhost.out());
            Run wrongName = psql(port, "host=wrong.example hostaddr=127.0.0.1 sslmode=verify-full sslrootcert="
                    + path("ca.crt"), "SELECT 1");
            assertTrue(wrongName.exit() != 0 && wrongName.out().contains("does not match host name"), wrongName.out());
            Run otherCa = psql(port, "sslmode=verify-full sslrootcert=" + path("server2.crt"), "SELECT 1");
            assertTrue(otherCa.exit() != 0 && otherCa.out().contains("certificate verify failed"), otherCa.out());

            // plaintext still works while pg-tls-required is no (the default)
            Run plain = psql(port, "sslmode=disable", "SELECT count(*) FROM t");
            assertEquals("1\n", plain.out());
        }
    }

    @Test
    void tlsAuthClientsYesRefusesPsqlWithoutCertificate() throws Exception {
        try (TestServer s = pgTls("yes", c -> { })) {
            int port = s.server().pgPort();
            Run none = psql(port, "sslmode=require", "SELECT 1");
            assertTrue(none.exit() != 0, none.out());
            Run with = psql(port, "sslmode=verify-ca sslrootcert=" + path("ca.crt") + " sslcert=" + path("client.crt")
                    + " sslkey=" + path("client.key"), "SELECT 40 + 2");
            assertEquals(0, with.exit(), with.out());
            assertEquals("42\n", with.out());
        }
    }

    @Test
    void pgTlsRequiredRefusesPlaintextClients() throws Exception {
        try (TestServer s = pgTls("no", c -> c.pgTlsRequired(true))) {
            int port = s.server().pgPort();
            Run plain = psql(port, "sslmode=disable", "SELECT 1");
            assertTrue(plain.exit() != 0 && plain.out().contains("pg-port requires TLS"), plain.out());
            Run prefer = psql(port, "sslmode=prefer", "SELECT 7");
            assertEquals("7\n", prefer.out());
        }
    }

    @Test
    void pgTlsRequiredNeedsACertificate() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RespSqlServer.start(new ServerConfig().bind(HOST).port(0).pgPort(0).save("").pgTlsRequired(true)));
        assertTrue(e.getMessage().contains("pg-tls-required yes needs"), e.getMessage());
    }

    @Test
    void aBadCertificateFileEndsStartupNamingIt() throws Exception {
        Path bad = dir.resolve("not-a-cert.pem");
        Files.writeString(bad, "hello\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RespSqlServer.start(new ServerConfig().bind(HOST).port(0).pgPort(0).save("")
                        .tls("tls-cert-file", bad.toString()).tls("tls-key-file", path("server.key"))
                        .tls("tls-auth-clients", "no")));
        assertTrue(e.getMessage().contains("tls-cert-file") && e.getMessage().contains(bad.toString()), e.getMessage());
    }

    // ---- pgjdbc --------------------------------------------------------------------------------

    private static Connection jdbc(int port, String query, Properties props) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + HOST + ":" + port + "/respsql?" + query, props);
    }

    @Test
    void pgjdbcVerifyFullWithAClientCertificate() throws Exception {
        try (TestServer s = pgTls("yes", c -> { })) {
            s.dispatch("CREATE", "TABLE", "j", "(id INT PRIMARY KEY, name TEXT)");
            Properties p = new Properties();
            p.setProperty("user", "tester");
            String q = "ssl=true&sslmode=verify-full&sslrootcert=" + path("ca.crt") + "&sslcert=" + path("client.crt")
                    + "&sslkey=" + path("client.pk8");
            try (Connection c = jdbc(s.server().pgPort(), q, p); Statement st = c.createStatement()) {
                assertEquals(1, st.executeUpdate("INSERT INTO j VALUES (1, 'jdbc-tls')"));
                try (ResultSet rs = st.executeQuery("SELECT name FROM j WHERE id = 1")) {
                    assertTrue(rs.next());
                    assertEquals("jdbc-tls", rs.getString(1));
                }
            }
            assertTrue(String.valueOf(s.dispatch("SELECT", "name", "FROM", "j", "WHERE", "id", "=", "1")).contains("jdbc-tls"));
            // no client certificate under tls-auth-clients yes: refused
            String noCert = "ssl=true&sslmode=verify-full&sslrootcert=" + path("ca.crt");
            assertThrows(SQLException.class, () -> jdbc(s.server().pgPort(), noCert, p).close());
        }
    }

    // ---- the wire itself -----------------------------------------------------------------------

    /** Sends an SSLRequest (or GSSENCRequest) on {@code socket}; returns the one-byte answer. */
    private static int request(Socket socket, int code) throws IOException {
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeInt(8);
        out.writeInt(code);
        out.flush();
        return socket.getInputStream().read();
    }

    private static SSLContext trusting(String caFile) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(dir.resolve(caFile))) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    /** SSLRequest, 'S', then the TLS handshake on the same socket: the server certificate's subject. */
    private static String upgradedPeer(int port) throws Exception {
        try (Socket raw = new Socket(HOST, port)) {
            raw.setSoTimeout(10_000);
            assertEquals('N', request(raw, 80877104), "GSSENCRequest: no GSS encryption");
            assertEquals('S', request(raw, 80877103), "SSLRequest with TLS configured");
            try (SSLSocket tls = (SSLSocket) trusting("ca.crt").getSocketFactory().createSocket(raw, HOST, port, true)) {
                tls.startHandshake();
                return ((X509Certificate) tls.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
            }
        }
    }

    @Test
    void sslRequestIsAnsweredNWithoutTlsAndSWithIt() throws Exception {
        try (TestServer plain = TestServer.start(c -> c.pgPort(0)); Socket raw = new Socket(HOST, plain.server().pgPort())) {
            raw.setSoTimeout(10_000);
            assertEquals('N', request(raw, 80877103));
        }
        try (TestServer s = pgTls("no", c -> { })) {
            assertEquals("CN=server", upgradedPeer(s.server().pgPort()));
        }
    }

    @Test
    void configSetReloadsTheCertificateForNewPgConnections() throws Exception {
        try (TestServer s = pgTls("no", c -> { })) {
            int port = s.server().pgPort();
            assertEquals("CN=server", upgradedPeer(port));
            assertEquals("OK", s.dispatch("CONFIG", "SET", "tls-cert-file", path("server2.crt"),
                    "tls-key-file", path("server2.key")));
            assertEquals("CN=server2", upgradedPeer(port));
            Run run = psql(port, "sslmode=verify-full sslrootcert=" + path("ca.crt"), "SELECT 'reloaded'");
            assertEquals("reloaded\n", run.out());
        }
    }

    @Test
    void aClientSilentAfterSslRequestIsClosedAtTheHandshakeTimeoutAndHoldsNobody() throws Exception {
        try (TestServer s = pgTls("no", c -> c.tls("tls-handshake-timeout-ms", "500"))) {
            int port = s.server().pgPort();
            try (Socket silent = new Socket(HOST, port)) {
                silent.setSoTimeout(20_000);
                assertEquals('S', request(silent, 80877103));
                // meanwhile others are served
                assertEquals("1\n", psql(port, "sslmode=require", "SELECT 1").out());
                long t0 = System.nanoTime();
                int b;
                try {
                    b = silent.getInputStream().read();
                } catch (IOException reset) {
                    b = -1;
                }
                assertEquals(-1, b, "closed, nothing sent");
                assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(15), "closed by the handshake timeout");
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the silent client was not closed", e);
            }
        }
    }

    // ---- a recording proxy: what crosses the wire -----------------------------------------------

    /** Forwards one connection at a time to {@code target}, recording every byte of both directions. */
    private static final class RecordingProxy implements AutoCloseable {
        private final ServerSocket listen;
        private final ByteArrayOutputStream seen = new ByteArrayOutputStream();
        private final List<Socket> open = new ArrayList<>();
        private final Thread acceptor;

        RecordingProxy(int target) throws IOException {
            listen = new ServerSocket();
            listen.bind(new InetSocketAddress(HOST, 0));
            acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket client = listen.accept();
                        Socket server = new Socket(HOST, target);
                        synchronized (open) {
                            open.add(client);
                            open.add(server);
                        }
                        pump(client, server);
                        pump(server, client);
                    }
                } catch (IOException closed) {
                    // the proxy was closed
                }
            }, "pg-tls-proxy");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        private void pump(Socket from, Socket to) {
            Thread t = new Thread(() -> {
                byte[] buf = new byte[16384];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    int n;
                    while ((n = in.read(buf)) > 0) {
                        synchronized (seen) {
                            seen.write(buf, 0, n);
                        }
                        out.write(buf, 0, n);
                        out.flush();
                    }
                } catch (IOException ended) {
                    // one side closed
                } finally {
                    try {
                        to.shutdownOutput();
                    } catch (IOException ignored) {
                        // already closed
                    }
                }
            }, "pg-tls-pump");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return listen.getLocalPort();
        }

        String seen() {
            synchronized (seen) {
                return seen.toString(StandardCharsets.ISO_8859_1);
            }
        }

        void clear() {
            synchronized (seen) {
                seen.reset();
            }
        }

        @Override
        public void close() throws IOException {
            listen.close();
            synchronized (open) {
                for (Socket s : open) {
                    s.close();
                }
            }
        }
    }

    @Test
    void noPasswordNorRowCrossesInClearOverTls() throws Exception {
        String password = "pg-secret-pw";
        String row = "row-text-7f3a9c";
        try (TestServer s = pgTls("no", c -> c.pgAuth("password"));
             RecordingProxy proxy = new RecordingProxy(s.server().pgPort())) {
            s.dispatch("CREATE", "TABLE", "secret", "(id INT PRIMARY KEY, v TEXT)");
            s.dispatch("INSERT", "INTO", "secret", "VALUES", "(1, '" + row + "')");
            assertEquals("OK", s.dispatch("CONFIG", "SET", "requirepass", password)); // pg clients now send it
            String query = "SELECT v FROM secret WHERE id = 1";

            // the probe sees both in clear without TLS (cleartext password authentication, as configured)
            Run plain = psql(proxy.port(), "sslmode=disable", query);
            assertEquals(row + "\n", plain.out());
            String clear = proxy.seen();
            assertTrue(clear.contains(password) && clear.contains(row), "the probe sees plaintext");
            proxy.clear();

            // psql over TLS, then pgjdbc over TLS: the same password and row never appear
            Run tls = psql(proxy.port(), "sslmode=verify-full sslrootcert=" + path("ca.crt"), query);
            assertEquals(row + "\n", tls.out());
            Properties p = new Properties();
            p.setProperty("user", "tester");
            p.setProperty("password", password);
            try (Connection c = jdbc(proxy.port(), "ssl=true&sslmode=verify-full&sslrootcert=" + path("ca.crt"), p);
                 Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
                assertTrue(rs.next());
                assertEquals(row, rs.getString(1));
            }
            String wire = proxy.seen();
            assertTrue(wire.length() > 2000, "the probe recorded the TLS sessions: " + wire.length() + " bytes");
            assertFalse(wire.contains(password), "the password crossed in clear");
            assertFalse(wire.contains(row), "the row crossed in clear");
            assertFalse(wire.contains("secret WHERE"), "the statement crossed in clear");
        }
    }

    // ---- tcpdump on loopback, where it is installed and may capture --------------------------------

    /** A tcpdump capture of loopback traffic to and from one port, stopped once a marker is in it. */
    private static final class Capture implements AutoCloseable {
        private final Process tcpdump;
        private final Path file;
        private final int port;

        /** Null when tcpdump is missing or may not capture here. */
        static Capture start(int port, String name) throws Exception {
            Path bin = Path.of("/usr/bin/tcpdump");
            if (!Files.isExecutable(bin)) {
                return null;
            }
            Path file = dir.resolve(name + ".pcap");
            Process p = new ProcessBuilder(bin.toString(), "-i", "lo", "-n", "-U", "--immediate-mode", "-s", "0",
                    "-w", file.toString(), "tcp port " + port).redirectErrorStream(true).start();
            // tcpdump says "listening on lo" once it captures; anything else (no permission) ends it
            StringBuilder said = new StringBuilder();
            InputStream err = p.getInputStream();
            int b;
            while (!said.toString().contains("listening on") && (b = err.read()) >= 0) {
                said.append((char) b);
            }
            if (!said.toString().contains("listening on")) {
                p.waitFor(10, TimeUnit.SECONDS);
                return null;
            }
            return new Capture(p, file, port);
        }

        private Capture(Process tcpdump, Path file, int port) {
            this.tcpdump = tcpdump;
            this.file = file;
            this.port = port;
        }

        /** Sends a plaintext marker and waits until the capture holds it: everything before it is in the file. */
        String stop() throws Exception {
            String marker = "END-OF-CAPTURE-" + System.nanoTime();
            try (Socket s = new Socket(HOST, port)) {
                s.getOutputStream().write(marker.getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                s.setSoTimeout(10_000);
                s.getInputStream().read(); // the server answers the garbage with an error and closes
            } catch (IOException closed) {
                // closed by the server: the marker was sent
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            String seen;
            while (!(seen = Files.readString(file, StandardCharsets.ISO_8859_1)).contains(marker)) {
                assertTrue(System.nanoTime() < deadline, "tcpdump did not capture the marker");
                Thread.sleep(20);
            }
            return seen;
        }

        @Override
        public void close() throws Exception {
            tcpdump.destroy();
            tcpdump.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void tcpdumpOnLoopbackSeesNoPasswordNorRowOverTls() throws Exception {
        String password = "pg-secret-pw";
        String row = "captured-row-5d21e";
        try (TestServer s = pgTls("no", c -> c.pgAuth("password"))) {
            int port = s.server().pgPort();
            s.dispatch("CREATE", "TABLE", "cap", "(id INT PRIMARY KEY, v TEXT)");
            s.dispatch("INSERT", "INTO", "cap", "VALUES", "(1, '" + row + "')");
            assertEquals("OK", s.dispatch("CONFIG", "SET", "requirepass", password));
            String query = "SELECT v FROM cap WHERE id = 1";
            String clear;
            try (Capture plain = Capture.start(port, "plain")) {
                assumeTrue(plain != null, "tcpdump is not installed or may not capture on lo (the recording proxy test stands)");
                assertEquals(row + "\n", psql(port, "sslmode=disable", query).out());
                clear = plain.stop();
            }
            assertTrue(clear.contains(password) && clear.contains(row), "tcpdump sees plaintext");
            String wire;
            try (Capture tls = Capture.start(port, "tls")) {
                assertEquals(row + "\n", psql(port, "sslmode=verify-full sslrootcert=" + path("ca.crt"), query).out());
                Properties p = new Properties();
                p.setProperty("user", "tester");
                p.setProperty("password", password);
                try (Connection c = jdbc(port, "ssl=true&sslmode=verify-full&sslrootcert=" + path("ca.crt"), p);
                     Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
                    assertTrue(rs.next());
                    assertEquals(row, rs.getString(1));
                }
                wire = tls.stop();
            }
            assertTrue(wire.length() > 3000, "tcpdump captured the TLS sessions: " + wire.length() + " bytes");
            assertFalse(wire.contains(password), "the password crossed in clear");
            assertFalse(wire.contains(row), "the row crossed in clear");
            assertFalse(wire.contains("FROM cap"), "the statement crossed in clear");
        }
    }
}
