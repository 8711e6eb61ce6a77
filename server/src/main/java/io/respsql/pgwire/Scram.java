package io.respsql.pgwire;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The server side of SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL runs it: the user name of
 * the client-first message is ignored (the startup packet's counts), no channel binding
 * ({@code n,,} or {@code y,,}), 4096 iterations. The verifier (salt, StoredKey, ServerKey) is
 * derived once per password, as PostgreSQL stores it, so a login costs two HMACs on the event
 * loop, not the 4096 of the key derivation.
 */
final class Scram {
    static final String MECHANISM = "SCRAM-SHA-256";
    private static final int ITERATIONS = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Derived from one password: what PostgreSQL keeps in pg_authid. */
    record Verifier(String password, byte[] salt, byte[] storedKey, byte[] serverKey) {
        static Verifier of(String password) {
            byte[] salt = new byte[16];
            RANDOM.nextBytes(salt);
            return of(password, salt);
        }

        /** A stored verifier (an ACL user's, acl/ScramVerifier): no password known. */
        static Verifier of(io.respsql.acl.ScramVerifier v) {
            return new Verifier(null, v.salt(), v.storedKey(), v.serverKey());
        }

        static Verifier of(String password, byte[] salt) {
            byte[] salted = hi(password.getBytes(StandardCharsets.UTF_8), salt, ITERATIONS);
            byte[] clientKey = hmac(salted, "Client Key".getBytes(StandardCharsets.US_ASCII));
            return new Verifier(password, salt, sha256(clientKey),
                    hmac(salted, "Server Key".getBytes(StandardCharsets.US_ASCII)));
        }
    }

    private final Verifier verifier;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;
    private String gs2Header;

    /** The server's part of the nonce (random; fixed only by tests). */
    private final String serverNonce;

    Scram(Verifier verifier) {
        this(verifier, null);
    }

    Scram(Verifier verifier, String serverNonce) {
        this.verifier = verifier;
        if (serverNonce == null) {
            byte[] own = new byte[18];
            RANDOM.nextBytes(own);
            serverNonce = Base64.getEncoder().encodeToString(own);
        }
        this.serverNonce = serverNonce;
    }

    /** The client-first message: returns the server-first message; null when it is malformed. */
    String clientFirst(String message) {
        // gs2-header: "n,," or "y,," (no channel binding), then client-first-message-bare
        if (!(message.startsWith("n,") || message.startsWith("y,"))) {
            return null;
        }
        int second = message.indexOf(',', 2);
        if (second < 0) {
            return null;
        }
        gs2Header = message.substring(0, second + 1);
        clientFirstBare = message.substring(second + 1);
        String clientNonce = attribute(clientFirstBare, 'r');
        if (clientNonce == null || clientNonce.isEmpty()) {
            return null;
        }
        nonce = clientNonce + serverNonce;
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(verifier.salt()) + ",i=" + ITERATIONS;
        return serverFirst;
    }

    /** The client-final message: returns the server-final message ({@code v=...}); null when the proof is wrong. */
    String clientFinal(String message) {
        int p = message.lastIndexOf(",p=");
        if (p < 0) {
            return null;
        }
        String withoutProof = message.substring(0, p);
        String binding = attribute(message, 'c');
        String r = attribute(message, 'r');
        if (binding == null || r == null || !r.equals(nonce)
                || !binding.equals(Base64.getEncoder().encodeToString(gs2Header.getBytes(StandardCharsets.US_ASCII)))) {
            return null;
        }
        byte[] proof;
        try {
            proof = Base64.getDecoder().decode(message.substring(p + 3));
        } catch (IllegalArgumentException e) {
            return null;
        }
        byte[] auth = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] signature = hmac(verifier.storedKey(), auth);
        if (proof.length != signature.length) {
            return null;
        }
        byte[] clientKey = new byte[proof.length];
        for (int i = 0; i < proof.length; i++) {
            clientKey[i] = (byte) (proof[i] ^ signature[i]);
        }
        if (!MessageDigest.isEqual(sha256(clientKey), verifier.storedKey())) {
            return null;
        }
        return "v=" + Base64.getEncoder().encodeToString(hmac(verifier.serverKey(), auth));
    }

    /** The value of {@code name=} in a comma-separated SCRAM message, or null. */
    private static String attribute(String message, char name) {
        for (String part : message.split(",")) {
            if (part.length() >= 2 && part.charAt(0) == name && part.charAt(1) == '=') {
                return part.substring(2);
            }
        }
        return null;
    }

    private static byte[] hi(byte[] password, byte[] salt, int iterations) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(password, "HmacSHA256"));
            mac.update(salt);
            byte[] u = mac.doFinal(new byte[] {0, 0, 0, 1});
            byte[] out = u.clone();
            for (int i = 1; i < iterations; i++) {
                u = mac.doFinal(u);
                for (int k = 0; k < out.length; k++) {
                    out[k] ^= u[k];
                }
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
