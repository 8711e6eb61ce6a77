package io.respsql.config;

/**
 * A configuration problem (bad flag, bad value, unreadable file) or a request for usage text.
 * {@link #exitStatus()} is what the process should exit with when this ends startup: 0 for
 * {@code --help} and {@code --version}, 2 for a usage error.
 */
public final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int exitStatus;

    public ConfigException(String message) {
        this(message, 2);
    }

    public ConfigException(String message, int exitStatus) {
        super(message);
        this.exitStatus = exitStatus;
    }

    public int exitStatus() {
        return exitStatus;
    }
}
