package io.respsql.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The server's version (from the build) and the Redis version whose protocol it speaks. */
public final class Version {
    /** RespSQL's own version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static final String VERSION = load();

    /**
     * The Redis version reported to clients in {@code HELLO} and {@code INFO} ({@code redis_version}).
     * Clients gate features on it; RespSQL answers the 7.x connection commands they use.
     */
    public static final String REDIS_COMPAT_VERSION = "7.2.0";

    private Version() {
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("/io/respsql/version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isEmpty() && !v.startsWith("${")) {
                    return v;
                }
            }
        } catch (IOException ignored) {
            // fall through to the placeholder below
        }
        return "unknown";
    }
}
