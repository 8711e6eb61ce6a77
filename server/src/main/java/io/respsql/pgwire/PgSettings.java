package io.respsql.pgwire;

import io.respsql.sql.Lexer;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A pgwire session's settings: what {@code SET x = y}, {@code RESET x} and {@code SHOW x} read and
 * write, as PostgreSQL answers them. Clients send these at connect (pgjdbc: extra_float_digits,
 * application_name; psycopg: DateStyle; DBeaver: search_path): any setting is accepted and kept,
 * the ones RespSQL acts on are checked (client_encoding must be UTF8; statement_timeout applies
 * to every statement). Settings PostgreSQL reports to the client (GUC_REPORT) are reported
 * again with ParameterStatus when they change.
 */
final class PgSettings {
    /** server_version: a 15.x release (psql 15 of Debian is the client in the tests; pgjdbc and psycopg need >= 9.x). */
    static final String SERVER_VERSION = "15.8";
    static final Set<String> REPORTED = Set.of("application_name", "client_encoding", "datestyle", "integer_datetimes",
            "intervalstyle", "is_superuser", "server_encoding", "server_version", "session_authorization",
            "standard_conforming_strings", "timezone");
    private static final Map<String, String> DEFAULTS = new LinkedHashMap<>();
    /** The names in the case PostgreSQL reports them. */
    private static final Map<String, String> DISPLAY = Map.of("datestyle", "DateStyle", "timezone", "TimeZone",
            "intervalstyle", "IntervalStyle");

    static {
        DEFAULTS.put("server_version", SERVER_VERSION);
        DEFAULTS.put("server_encoding", "UTF8");
        DEFAULTS.put("client_encoding", "UTF8");
        DEFAULTS.put("datestyle", "ISO, MDY");
        DEFAULTS.put("intervalstyle", "postgres");
        DEFAULTS.put("timezone", "UTC");
        DEFAULTS.put("integer_datetimes", "on");
        DEFAULTS.put("standard_conforming_strings", "on");
        DEFAULTS.put("application_name", "");
        DEFAULTS.put("is_superuser", "on");
        DEFAULTS.put("session_authorization", "respsql");
        DEFAULTS.put("search_path", "\"$user\", public");
        DEFAULTS.put("extra_float_digits", "1");
        DEFAULTS.put("statement_timeout", "0");
        DEFAULTS.put("transaction_isolation", "read committed");
        DEFAULTS.put("default_transaction_isolation", "read committed");
        DEFAULTS.put("server_version_num", "150008");
        DEFAULTS.put("max_identifier_length", "63");
        DEFAULTS.put("lc_messages", "C");
        DEFAULTS.put("sql_dialect", "postgresql"); // pgwire sessions start in PostgreSQL's dialect
    }

    private final Map<String, String> values = new LinkedHashMap<>(DEFAULTS);
    private long statementTimeoutMs = -1;

    /** The settings a session starts with, in the names clients expect, for ParameterStatus. */
    Map<String, String> reported() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (REPORTED.contains(e.getKey())) {
                out.put(display(e.getKey()), e.getValue());
            }
        }
        return out;
    }

    static String display(String name) {
        return DISPLAY.getOrDefault(name, name);
    }

    /** The statement timeout to apply (ms; -1: the server's query-timeout-ms). */
    long statementTimeoutMs() {
        return statementTimeoutMs;
    }

    /** Whether statements are read in PostgreSQL's dialect ({@code SET sql_dialect}, default postgresql here). */
    boolean postgresDialect() {
        return values.get("sql_dialect").equals("postgresql");
    }

    String get(String name) {
        String v = values.get(name.toLowerCase(Locale.ROOT));
        if (v == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"" + name + "\"");
        }
        return v;
    }

    /** Sets {@code name}; returns whether a client must be told (ParameterStatus). */
    boolean set(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT);
        switch (key) {
            case "client_encoding" -> {
                String v = value.toUpperCase(Locale.ROOT).replace("-", "");
                if (!v.equals("UTF8") && !v.equals("UNICODE")) {
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                            "client_encoding \"" + value + "\" is not supported: RespSQL speaks UTF8 only");
                }
                value = "UTF8";
            }
            case "statement_timeout" -> statementTimeoutMs = parseMillis(value);
            case "sql_dialect" -> {
                value = value.toLowerCase(Locale.ROOT);
                if (!value.equals("postgresql") && !value.equals("sqlite")) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                            "invalid value for parameter \"sql_dialect\": \"" + value + "\" (use postgresql or sqlite)");
                }
            }
            case "server_version", "server_encoding", "integer_datetimes", "server_version_num", "is_superuser" ->
                    throw new SqlException("55P02", "parameter \"" + key + "\" cannot be changed");
            default -> {
            }
        }
        values.put(key, value);
        return REPORTED.contains(key);
    }

    /** RESET: back to the default (unknown ones are removed). */
    boolean reset(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        String d = DEFAULTS.get(key);
        if (d == null) {
            values.remove(key);
            return false;
        }
        if (key.equals("statement_timeout")) {
            statementTimeoutMs = -1;
        }
        values.put(key, d);
        return REPORTED.contains(key);
    }

    static long parseMillis(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        String[][] units = {{"ms", "1"}, {"min", "60000"}, {"s", "1000"}, {"h", "3600000"}, {"d", "86400000"}};
        for (String[] u : units) {
            if (v.endsWith(u[0])) {
                unit = Long.parseLong(u[1]);
                v = v.substring(0, v.length() - u[0].length()).trim();
                break;
            }
        }
        try {
            long n = Long.parseLong(v);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                    "invalid value for parameter \"statement_timeout\": \"" + value + "\"");
        }
    }

    /**
     * A SET/RESET/SHOW statement of a session setting, parsed: {@code kind} SET, RESET or SHOW;
     * null when the statement is not one (SHOW TABLES and SET sql_dialect are the engine's).
     */
    record Command(String kind, String name, String value) {
    }

    static Command parse(String sql) {
        String s = sql.trim();
        if (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).trim();
        }
        s = s.substring(Lexer.skipBlank(s, 0));
        List<String> words = List.of(s.split("\\s+", 3));
        String first = words.get(0).toUpperCase(Locale.ROOT);
        if (first.equals("SHOW") && words.size() == 2) {
            String name = unquote(words.get(1));
            String up = name.toUpperCase(Locale.ROOT);
            if (up.equals("TABLES") || up.equals("INDEXES")) {
                return null;
            }
            return new Command("SHOW", name.toLowerCase(Locale.ROOT), null);
        }
        if (first.equals("RESET") && words.size() == 2) {
            return new Command("RESET", unquote(words.get(1)).toLowerCase(Locale.ROOT), null);
        }
        if (!first.equals("SET") || words.size() < 2) {
            return null;
        }
        String rest = s.substring(3).trim();
        String upRest = rest.toUpperCase(Locale.ROOT);
        if (upRest.startsWith("SESSION CHARACTERISTICS") || upRest.startsWith("TRANSACTION")) {
            return new Command("SET", "transaction", null); // isolation: accepted, one level today
        }
        if (upRest.startsWith("SESSION ")) {
            rest = rest.substring(8).trim();
        } else if (upRest.startsWith("LOCAL ")) {
            rest = rest.substring(6).trim();
        }
        upRest = rest.toUpperCase(Locale.ROOT);
        if (upRest.startsWith("TIME ZONE ")) {
            return new Command("SET", "timezone", value(rest.substring(10)));
        }
        int i = 0;
        while (i < rest.length() && (Character.isLetterOrDigit(rest.charAt(i)) || rest.charAt(i) == '_' || rest.charAt(i) == '.')) {
            i++;
        }
        String name = rest.substring(0, i).toLowerCase(Locale.ROOT);
        if (name.isEmpty() || name.equals("use_indexes")) {
            return null;
        }
        String after = rest.substring(i).trim();
        if (after.startsWith("=")) {
            after = after.substring(1).trim();
        } else if (after.toUpperCase(Locale.ROOT).startsWith("TO ") || after.equalsIgnoreCase("TO")) {
            after = after.substring(2).trim();
        } else {
            throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error in SET: expected = or TO after " + name);
        }
        if (after.equalsIgnoreCase("DEFAULT")) {
            return new Command("RESET", name, null);
        }
        return new Command("SET", name, value(after));
    }

    /** A value list: each item unquoted, joined with ", " as PostgreSQL shows it. */
    private static String value(String v) {
        String[] parts = v.split(",");
        StringBuilder sb = new StringBuilder();
        for (String p : parts) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(unquote(p.trim()));
        }
        return sb.toString();
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && (v.charAt(0) == '\'' || v.charAt(0) == '"') && v.charAt(v.length() - 1) == v.charAt(0)) {
            String q = String.valueOf(v.charAt(0));
            return v.substring(1, v.length() - 1).replace(q + q, q);
        }
        return v;
    }
}
