package io.respsql.acl;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * A SCRAM-SHA-256 verifier as PostgreSQL stores one ({@code SCRAM-SHA-256$4096:salt$StoredKey:ServerKey},
 * base64): derived when a password is given in clear, so PostgreSQL clients can log in as the user
 * without the server keeping the password.
 */
public record ScramVerifier(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
    private static final int ITERATIONS = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();

    public static String derive(String password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return of(password, salt).text();
    }

    public static ScramVerifier of(String password, byte[] salt) {
        byte[] salted = hi(password.getBytes(StandardCharsets.UTF_8), salt, ITERATIONS);
        byte[] clientKey = hmac(salted, "Client Key".getBytes(StandardCharsets.US_ASCII));
        return new ScramVerifier(ITERATIONS, salt, sha256(clientKey), hmac(salted, "Server Key".getBytes(StandardCharsets.US_ASCII)));
    }

    public String text() {
        Base64.Encoder b = Base64.getEncoder();
        return "SCRAM-SHA-256$" + iterations + ":" + b.encodeToString(salt) + "$" + b.encodeToString(storedKey) + ":"
                + b.encodeToString(serverKey);
    }

    /** The verifier written as {@link #text()}, or null when it is not one. */
    public static ScramVerifier parse(String s) {
        try {
            if (!s.startsWith("SCRAM-SHA-256$")) {
                return null;
            }
            String rest = s.substring(14);
            int colon = rest.indexOf(':');
            int dollar = rest.indexOf('$', colon);
            int colon2 = rest.indexOf(':', dollar);
            if (colon < 0 || dollar < 0 || colon2 < 0) {
                return null;
            }
            Base64.Decoder d = Base64.getDecoder();
            return new ScramVerifier(Integer.parseInt(rest.substring(0, colon)), d.decode(rest.substring(colon + 1, dollar)),
                    d.decode(rest.substring(dollar + 1, colon2)), d.decode(rest.substring(colon2 + 1)));
        } catch (RuntimeException e) {
            return null;
        }
    }

    static byte[] hi(byte[] password, byte[] salt, int iterations) {
        byte[] block = new byte[salt.length + 4];
        System.arraycopy(salt, 0, block, 0, salt.length);
        block[block.length - 1] = 1;
        byte[] u = hmac(password, block);
        byte[] out = u.clone();
        for (int i = 1; i < iterations; i++) {
            u = hmac(password, u);
            for (int k = 0; k < out.length; k++) {
                out[k] ^= u[k];
            }
        }
        return out;
    }

    static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
