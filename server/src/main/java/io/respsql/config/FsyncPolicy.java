package io.respsql.config;

import java.util.Locale;

/** {@code appendfsync}: when the append-only file is forced to disk. */
public enum FsyncPolicy {
    /** Before any reply of a write is sent (one fsync per event-loop iteration with writes). */
    ALWAYS,
    /** By a background thread about once a second: at most about a second of writes can be lost. */
    EVERYSEC,
    /** Never explicitly: the operating system writes the pages back when it decides. */
    NO;

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static FsyncPolicy parse(String v) throws ConfigException {
        switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "always":
                return ALWAYS;
            case "everysec":
                return EVERYSEC;
            case "no":
                return NO;
            default:
                throw new ConfigException("argument must be one of 'always', 'everysec', 'no'");
        }
    }
}
