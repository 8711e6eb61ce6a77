package io.respsql.config;

import java.util.Locale;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One configuration key: its name, how to read and validate it, and whether {@code CONFIG SET} may
 * change it while the server runs. The same definition serves the command line ({@code --name
 * value}), the configuration file ({@code name value}) and {@code CONFIG GET/SET}.
 */
public final class ConfigOption {
    @FunctionalInterface
    interface Setter {
        void set(String value) throws ConfigException;
    }

    private final String name;
    private final String valueHint;
    private final String description;
    private final boolean mutable;
    private final Supplier<String> getter;
    private final Setter setter;

    private ConfigOption(String name, String valueHint, String description, boolean mutable,
                         Supplier<String> getter, Setter setter) {
        this.name = name;
        this.valueHint = valueHint;
        this.description = description;
        this.mutable = mutable;
        this.getter = getter;
        this.setter = setter;
    }

    static ConfigOption ofInt(String name, String description, boolean mutable, int min, int max,
                              IntSupplier getter, IntConsumer setter) {
        return ofLong(name, description, mutable, min, max, getter::getAsInt, v -> setter.accept((int) v));
    }

    static ConfigOption ofLong(String name, String description, boolean mutable, long min, long max,
                               LongSupplier getter, LongConsumer setter) {
        return new ConfigOption(name, "<n>", description, mutable, () -> Long.toString(getter.getAsLong()), v -> {
            long parsed;
            try {
                parsed = Long.parseLong(v.trim());
            } catch (NumberFormatException e) {
                throw new ConfigException("argument couldn't be parsed into an integer");
            }
            if (parsed < min || parsed > max) {
                throw new ConfigException("argument must be between " + min + " and " + max + " inclusive");
            }
            setter.accept(parsed);
        });
    }

    /**
     * A size in bytes written as Redis does: a plain number, or with a unit {@code k kb m mb g gb}
     * (case-insensitive; {@code k} is 1000, {@code kb} 1024, and so on). CONFIG GET shows bytes.
     */
    static ConfigOption ofBytes(String name, String description, boolean mutable, long min, long max,
                                LongSupplier getter, LongConsumer setter) {
        return new ConfigOption(name, "<bytes>", description, mutable, () -> Long.toString(getter.getAsLong()), v -> {
            long parsed = parseBytes(v);
            if (parsed < min || parsed > max) {
                throw new ConfigException("argument must be between " + min + " and " + max + " inclusive");
            }
            setter.accept(parsed);
        });
    }

    /** Parses {@code 1024}, {@code 64mb}, {@code 1g}, ... into bytes (Redis's memtoll units). */
    public static long parseBytes(String value) throws ConfigException {
        String v = value.trim().toLowerCase(Locale.ROOT);
        int end = v.length();
        while (end > 0 && Character.isLetter(v.charAt(end - 1))) {
            end--;
        }
        long unit;
        switch (v.substring(end)) {
            case "", "b" -> unit = 1;
            case "k" -> unit = 1000L;
            case "kb" -> unit = 1024L;
            case "m" -> unit = 1000L * 1000;
            case "mb" -> unit = 1024L * 1024;
            case "g" -> unit = 1000L * 1000 * 1000;
            case "gb" -> unit = 1024L * 1024 * 1024;
            default -> throw new ConfigException("argument must be a memory value");
        }
        long n;
        try {
            n = Long.parseLong(v.substring(0, end));
        } catch (NumberFormatException e) {
            throw new ConfigException("argument must be a memory value");
        }
        if (n < 0 || n > Long.MAX_VALUE / unit) {
            throw new ConfigException("argument must be a memory value");
        }
        return n * unit;
    }

    static ConfigOption ofString(String name, String valueHint, String description, boolean mutable,
                                 Supplier<String> getter, Setter setter) {
        return new ConfigOption(name, valueHint, description, mutable, getter, setter);
    }

    /**
     * A key whose value is fixed by what the server implements today; setting it to that value is
     * accepted (so configuration files written for it keep working), anything else is refused.
     */
    static ConfigOption fixed(String name, String value, String description) {
        return new ConfigOption(name, null, description, false, () -> value, v -> {
            if (!v.equals(value)) {
                throw new ConfigException("unsupported value '" + v + "' (this server supports only '" + value + "')");
            }
        });
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    /** Placeholder shown in usage text, or {@code null} for keys that cannot be set. */
    public String valueHint() {
        return valueHint;
    }

    /** Whether {@code CONFIG SET} may change the key while the server runs. */
    public boolean mutable() {
        return mutable;
    }

    public String get() {
        return getter.get();
    }

    public void set(String value) throws ConfigException {
        setter.set(value);
    }

    static String normalize(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
