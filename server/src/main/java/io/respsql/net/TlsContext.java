package io.respsql.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.ssl.CipherSuiteConverter;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.respsql.config.ConfigException;
import io.respsql.config.ServerConfig;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * TLS as Redis 7's {@code tls-*} keys configure it: builds the server's {@link SslContext} (JDK
 * provider) from PEM files and hands each new connection of the TLS port an {@link SslHandler} in
 * front of the usual pipeline, and each PostgreSQL connection that sends SSLRequest one
 * (pgwire's PgTlsNegotiator); with {@code tls-replication yes} also the client side of a
 * replica's link to its master. {@link #reload()} (CONFIG SET) swaps the contexts for new
 * connections; connections already open keep theirs.
 *
 * <p>The files are parsed here rather than by netty so that a key that does not belong to its
 * certificate is refused when it is loaded (as OpenSSL's check in Redis does), not at each
 * handshake, and so that PKCS#1 RSA keys ({@code openssl genrsa -traditional}) load without
 * BouncyCastle.
 */
final class TlsContext {
    private static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.2", "TLSv1.3");

    private final ServerConfig config;
    /** Whether the server side is in use (tls-port, or pg-port with a certificate). */
    private final boolean serverSide;
    /** The server side's context (null when not in use). */
    private volatile SslContext context;
    /** The client side's (a replica's link to its master, tls-replication yes), or null. */
    private volatile SslContext clientContext;

    private TlsContext(ServerConfig config, boolean serverSide) {
        this.config = config;
        this.serverSide = serverSide;
    }

    /** Loads the configured files; throws naming the file or key that is wrong. */
    static TlsContext load(ServerConfig config) throws ConfigException {
        return load(config, true);
    }

    /**
     * The server side when {@code serverSide} (tls-port, or the PostgreSQL listener with a
     * certificate), and the client side when {@code tls-replication yes}; throws naming the file
     * or key that is wrong.
     */
    static TlsContext load(ServerConfig config, boolean serverSide) throws ConfigException {
        TlsContext tls = new TlsContext(config, serverSide);
        tls.reload();
        return tls;
    }

    /** Loads the files again; on failure the contexts in use stay. */
    void reload() throws ConfigException {
        SslContext server = serverSide ? build(config) : null;
        SslContext client = config.tlsReplication() ? buildClient(config) : null;
        context = server;
        clientContext = client;
    }

    /** Whether new connections of the server side get TLS (the listener or pg-port's SSLRequest). */
    boolean serverSide() {
        return serverSide;
    }

    /** An SslHandler of the server side for {@code ch}, its handshake bounded by tls-handshake-timeout-ms. */
    SslHandler newServerHandler(Channel ch) {
        SslHandler ssl = context.newHandler(ch.alloc());
        // The handshake runs on the event loop; one that never comes must not keep the connection.
        ssl.setHandshakeTimeoutMillis(config.tlsHandshakeTimeoutMs());
        return ssl;
    }

    /**
     * An SslHandler of the client side (a replica connecting to {@code host:port}), or null when
     * tls-replication is off. The master's certificate must chain to tls-ca-cert-file (the JDK's
     * trust store without one); its host name is not checked, as Redis does not check it.
     */
    SslHandler newClientHandler(Channel ch, String host, int port) {
        SslContext c = clientContext;
        if (c == null || !config.tlsReplication()) {
            return null;
        }
        SslHandler ssl = c.newHandler(ch.alloc(), host, port);
        ssl.setHandshakeTimeoutMillis(config.tlsHandshakeTimeoutMs());
        return ssl;
    }

    /** {@code inner} behind an SslHandler made from the context current when the connection arrives. */
    ChannelHandler wrap(ChannelHandler inner) {
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast("tls", newServerHandler(ch));
                ch.pipeline().addLast(inner);
            }
        };
    }

    static SslContext build(ServerConfig config) throws ConfigException {
        if (config.tlsCertFile().isEmpty() || config.tlsKeyFile().isEmpty()) {
            throw new ConfigException("TLS needs tls-cert-file and tls-key-file");
        }
        List<X509Certificate> chain = readCertificates(config.tlsCertFile(), "tls-cert-file");
        PrivateKey key = readKey(Path.of(config.tlsKeyFile()), config.tlsKeyFilePass());
        checkPair(chain.get(0), key, "tls-key-file " + config.tlsKeyFile(), "tls-cert-file " + config.tlsCertFile());
        SslContextBuilder b = SslContextBuilder.forServer(key, chain).sslProvider(SslProvider.JDK);
        ClientAuth auth = switch (config.tlsAuthClients()) {
            case "no" -> ClientAuth.NONE;
            case "optional" -> ClientAuth.OPTIONAL;
            default -> ClientAuth.REQUIRE;
        };
        b.clientAuth(auth);
        if (!config.tlsCaCertFile().isEmpty()) {
            b.trustManager(readCertificates(config.tlsCaCertFile(), "tls-ca-cert-file"));
        } else if (auth != ClientAuth.NONE) {
            throw new ConfigException("tls-auth-clients " + config.tlsAuthClients()
                    + " needs tls-ca-cert-file (the CA that signs client certificates)");
        }
        return finish(b, config);
    }

    /**
     * The replica's side, as Redis's: trusts tls-ca-cert-file (the JDK's trust store without
     * one) and presents tls-client-cert-file/tls-client-key-file, or else tls-cert-file/tls-key-file
     * when those are set (a master with tls-auth-clients yes wants a certificate).
     */
    static SslContext buildClient(ServerConfig config) throws ConfigException {
        SslContextBuilder b = SslContextBuilder.forClient().sslProvider(SslProvider.JDK);
        if (!config.tlsCaCertFile().isEmpty()) {
            b.trustManager(readCertificates(config.tlsCaCertFile(), "tls-ca-cert-file"));
        }
        boolean own = !config.tlsClientCertFile().isEmpty() || !config.tlsClientKeyFile().isEmpty();
        String certKey = own ? "tls-client-cert-file" : "tls-cert-file";
        String keyKey = own ? "tls-client-key-file" : "tls-key-file";
        String cert = own ? config.tlsClientCertFile() : config.tlsCertFile();
        String keyFile = own ? config.tlsClientKeyFile() : config.tlsKeyFile();
        String pass = own ? config.tlsClientKeyFilePass() : config.tlsKeyFilePass();
        if (own && (cert.isEmpty() || keyFile.isEmpty())) {
            throw new ConfigException("tls-client-cert-file and tls-client-key-file go together");
        }
        if (!cert.isEmpty() && !keyFile.isEmpty()) {
            List<X509Certificate> chain = readCertificates(cert, certKey);
            PrivateKey key = readKey(Path.of(keyFile), pass, keyKey);
            checkPair(chain.get(0), key, keyKey + " " + keyFile, certKey + " " + cert);
            b.keyManager(key, chain);
        }
        return finish(b, config);
    }

    private static SslContext finish(SslContextBuilder b, ServerConfig config) throws ConfigException {
        b.protocols(config.tlsProtocols().isEmpty() ? DEFAULT_PROTOCOLS
                : Arrays.asList(config.tlsProtocols().split("\\s+")));
        List<String> ciphers = ciphers(config);
        if (ciphers != null) {
            b.ciphers(ciphers);
        }
        try {
            return b.build();
        } catch (IOException | RuntimeException e) {
            throw new ConfigException("cannot set up TLS: " + e.getMessage());
        }
    }

    /**
     * {@code tls-ciphers} (TLSv1.2) and {@code tls-ciphersuites} (TLSv1.3) as one JDK list, or null
     * for the JDK's defaults. Names may be OpenSSL's ({@code ECDHE-RSA-AES128-GCM-SHA256}) or
     * IANA's; OpenSSL's keywords ({@code DEFAULT}, {@code HIGH}, {@code !aNULL}) have no JDK
     * meaning and are refused rather than guessed.
     */
    private static List<String> ciphers(ServerConfig config) throws ConfigException {
        if (config.tlsCiphers().isEmpty() && config.tlsCiphersuites().isEmpty()) {
            return null;
        }
        SSLParameters defaults;
        Set<String> supported;
        try {
            SSLContext jdk = SSLContext.getDefault();
            defaults = jdk.getDefaultSSLParameters();
            supported = Set.of(jdk.getSupportedSSLParameters().getCipherSuites());
        } catch (GeneralSecurityException e) {
            throw new ConfigException("cannot list the JDK's cipher suites: " + e.getMessage());
        }
        Set<String> out = new LinkedHashSet<>();
        addCiphers(out, config.tlsCiphers(), "tls-ciphers", supported, false, defaults);
        addCiphers(out, config.tlsCiphersuites(), "tls-ciphersuites", supported, true, defaults);
        return new ArrayList<>(out);
    }

    private static void addCiphers(Set<String> out, String list, String key, Set<String> supported, boolean tls13,
                                   SSLParameters defaults) throws ConfigException {
        if (list.isEmpty()) {
            // The other version's list was set: this version keeps the JDK's defaults.
            for (String c : defaults.getCipherSuites()) {
                if (isTls13(c) == tls13) {
                    out.add(c);
                }
            }
            return;
        }
        for (String name : list.split("[:,\\s]+")) {
            if (name.isEmpty()) {
                continue;
            }
            String java = name.startsWith("TLS_") || name.startsWith("SSL_") ? name
                    : CipherSuiteConverter.toJava(name, "TLS");
            if (java == null || !supported.contains(java)) {
                throw new ConfigException(key + ": unknown or unsupported cipher '" + name
                        + "' (give cipher names; OpenSSL keywords such as DEFAULT or !aNULL are not supported)");
            }
            if (isTls13(java) != tls13) {
                throw new ConfigException(key + ": '" + name + "' is a " + (tls13 ? "TLSv1.2" : "TLSv1.3")
                        + " cipher (tls-ciphers is for TLSv1.2, tls-ciphersuites for TLSv1.3)");
            }
            out.add(java);
        }
    }

    private static boolean isTls13(String javaName) {
        return javaName.startsWith("TLS_AES_") || javaName.startsWith("TLS_CHACHA20_");
    }

    static List<X509Certificate> readCertificates(String file, String key) throws ConfigException {
        byte[] bytes = readFile(Path.of(file), key);
        try {
            List<X509Certificate> certs = new ArrayList<>();
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(bytes))) {
                certs.add((X509Certificate) c);
            }
            if (certs.isEmpty()) {
                throw new ConfigException(key + " " + file + " holds no certificate");
            }
            return certs;
        } catch (CertificateException e) {
            throw new ConfigException(key + " " + file + " is not a PEM certificate: " + e.getMessage());
        }
    }

    private static byte[] readFile(Path file, String key) throws ConfigException {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConfigException("cannot read " + key + " " + file + ": " + e);
        }
    }

    /** A PEM private key: PKCS#8 ({@code PRIVATE KEY}), encrypted PKCS#8, or PKCS#1 RSA. */
    static PrivateKey readKey(Path file, String password) throws ConfigException {
        return readKey(file, password, "tls-key-file");
    }

    static PrivateKey readKey(Path file, String password, String option) throws ConfigException {
        String text = new String(readFile(file, option), StandardCharsets.US_ASCII);
        String where = option + " " + file;
        int begin = text.indexOf("-----BEGIN ");
        int typeEnd = begin < 0 ? -1 : text.indexOf("-----", begin + 11);
        if (typeEnd < 0) {
            throw new ConfigException(where + " holds no PEM private key");
        }
        String type = text.substring(begin + 11, typeEnd);
        int end = text.indexOf("-----END " + type + "-----", typeEnd);
        if (end < 0) {
            throw new ConfigException(where + ": PEM block " + type + " has no END line");
        }
        String body = text.substring(typeEnd + 5, end);
        if (body.contains("Proc-Type:")) {
            throw new ConfigException(where + ": encrypted PKCS#1 keys are not supported; convert with "
                    + "openssl pkcs8 -topk8 -in KEY -out KEY8 (and set tls-key-file-pass)");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(body.strip());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + ": bad base64 in the PEM block");
        }
        byte[] pkcs8 = switch (type) {
            case "PRIVATE KEY" -> der;
            case "RSA PRIVATE KEY" -> wrapRsaPkcs1(der);
            case "ENCRYPTED PRIVATE KEY" -> decrypt(der, password, where);
            default -> throw new ConfigException(where + ": unsupported key type '" + type
                    + "' (PKCS#8 PRIVATE KEY, ENCRYPTED PRIVATE KEY or RSA PRIVATE KEY; convert with "
                    + "openssl pkcs8 -topk8 -nocrypt)");
        };
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(pkcs8);
        for (String alg : new String[] {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS", "DSA"}) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(spec);
            } catch (GeneralSecurityException | RuntimeException e) {
                // not this algorithm: try the next
            }
        }
        throw new ConfigException(where + ": not a private key of a known algorithm"
                + (type.equals("ENCRYPTED PRIVATE KEY") ? " (wrong tls-key-file-pass?)" : ""));
    }

    private static byte[] decrypt(byte[] der, String password, String where) throws ConfigException {
        if (password.isEmpty()) {
            throw new ConfigException(where + " is encrypted: set tls-key-file-pass");
        }
        try {
            EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
            String alg = info.getAlgName();
            AlgorithmParameters params = info.getAlgParameters();
            if (alg.equals("1.2.840.113549.1.5.13") || alg.equalsIgnoreCase("PBES2")) {
                alg = params.toString(); // e.g. PBEWithHmacSHA256AndAES_256
            }
            var secret = SecretKeyFactory.getInstance(alg).generateSecret(new PBEKeySpec(password.toCharArray()));
            Cipher cipher = Cipher.getInstance(alg);
            cipher.init(Cipher.DECRYPT_MODE, secret, params);
            return info.getKeySpec(cipher).getEncoded();
        } catch (GeneralSecurityException | IOException e) {
            throw new ConfigException(where + ": cannot decrypt (wrong tls-key-file-pass?): " + e.getMessage());
        }
    }

    /** PKCS#1 RSAPrivateKey inside PKCS#8's PrivateKeyInfo {version 0, rsaEncryption, key}. */
    private static byte[] wrapRsaPkcs1(byte[] pkcs1) {
        byte[] algorithm = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01,
            0x01, 0x05, 0x00};
        byte[] version = {0x02, 0x01, 0x00};
        byte[] octets = der(0x04, pkcs1);
        byte[] content = new byte[version.length + algorithm.length + octets.length];
        System.arraycopy(version, 0, content, 0, version.length);
        System.arraycopy(algorithm, 0, content, version.length, algorithm.length);
        System.arraycopy(octets, 0, content, version.length + algorithm.length, octets.length);
        return der(0x30, content);
    }

    private static byte[] der(int tag, byte[] content) {
        int n = content.length;
        byte[] len = n < 0x80 ? new byte[] {(byte) n}
                : n < 0x100 ? new byte[] {(byte) 0x81, (byte) n}
                : n < 0x10000 ? new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n}
                : new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
        byte[] out = new byte[1 + len.length + n];
        out[0] = (byte) tag;
        System.arraycopy(len, 0, out, 1, len.length);
        System.arraycopy(content, 0, out, 1 + len.length, n);
        return out;
    }

    /** Refuses a key that does not belong to the certificate: it would fail every handshake. */
    private static void checkPair(X509Certificate cert, PrivateKey key, String keyName, String certName)
            throws ConfigException {
        String alg = switch (key.getAlgorithm().toUpperCase(Locale.ROOT)) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "ED25519", "ED448", "EDDSA" -> key.getAlgorithm();
            case "DSA" -> "SHA256withDSA";
            default -> null;
        };
        if (alg == null) {
            return;
        }
        byte[] probe = "respsql tls key check".getBytes(StandardCharsets.US_ASCII);
        boolean matches;
        try {
            Signature sign = Signature.getInstance(alg);
            sign.initSign(key);
            sign.update(probe);
            byte[] sig = sign.sign();
            Signature verify = Signature.getInstance(alg);
            verify.initVerify(cert.getPublicKey());
            verify.update(probe);
            matches = verify.verify(sig);
        } catch (GeneralSecurityException e) {
            matches = false;
        }
        if (!matches) {
            throw new ConfigException(keyName + " is not the key of " + certName);
        }
    }
}
