package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-connection settings sent as SQL through {@code SQL} or {@code QUERY}:
 * {@code SET use_indexes = off|on} (also {@code TO}, {@code true|false}, {@code DEFAULT}) and
 * {@code SHOW use_indexes}. With indexes off the connection's statements are planned with full
 * scans only ({@link io.respsql.plan.IndexUse}): the reference side of plan-equivalence tests.
 * {@code SET sql_dialect TO postgresql|sqlite} (also {@code =}, {@code DEFAULT}: sqlite) and
 * {@code SHOW sql_dialect}: where SQLite's corpus and PostgreSQL 15 disagree, which one this
 * connection's statements follow ({@link io.respsql.sql.Dialect}).
 * Any other SET or SHOW goes on to the SQL engine.
 */
final class SessionSettings {
    private static final Pattern SET = Pattern.compile(
            "\\s*SET\\s+use_indexes\\s*(?:=|\\s+TO\\s+|\\s)\\s*'?([A-Za-z0-9]+)'?\\s*;?\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern SHOW = Pattern.compile("\\s*SHOW\\s+use_indexes\\s*;?\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern SET_DIALECT = Pattern.compile(
            "\\s*SET\\s+(?:SESSION\\s+)?sql_dialect\\s*(?:=|\\s+TO\\s+|\\s)\\s*'?([A-Za-z0-9_]+)'?\\s*;?\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern RESET_DIALECT = Pattern.compile("\\s*RESET\\s+sql_dialect\\s*;?\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern SHOW_DIALECT = Pattern.compile("\\s*SHOW\\s+sql_dialect\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    private SessionSettings() {
    }

    /**
     * The dialect {@code statement} sets when it is a valid {@code SET}/{@code RESET sql_dialect}
     * (true: PostgreSQL's), or null: it is not one (MULTI checks the statements queued after it in
     * the dialect they will run in).
     */
    static Boolean dialectSet(CharSequence statement) {
        if (!SettingText.startsWithWord(statement, "SET") && !SettingText.startsWithWord(statement, "RESET")) {
            return null;
        }
        String text = SettingText.withoutComments(statement);
        if (text.length() > 200) {
            return null;
        }
        Matcher m = SET_DIALECT.matcher(text);
        if (m.matches()) {
            return switch (m.group(1).toLowerCase(java.util.Locale.ROOT)) {
                case "postgresql", "postgres" -> Boolean.TRUE;
                case "sqlite", "default" -> Boolean.FALSE;
                default -> null;
            };
        }
        return RESET_DIALECT.matcher(text).matches() ? Boolean.FALSE : null;
    }

    /** Runs {@code statement} when it is a setting of this class and returns true; false: not one. */
    static boolean handle(Session s, CharSequence statement, RespWriter out) {
        if (!SettingText.startsWithWord(statement, "SET") && !SettingText.startsWithWord(statement, "SHOW")
                && !SettingText.startsWithWord(statement, "RESET")) {
            return false; // the common case: one look at the first word
        }
        String text = SettingText.withoutComments(statement);
        if (text.length() > 200) {
            return false; // longer than any of these settings: some other SET or SHOW
        }
        Matcher m = SET.matcher(text);
        if (m.matches()) {
            String v = m.group(1).toLowerCase(java.util.Locale.ROOT);
            switch (v) {
                case "on", "true", "1", "yes", "default" -> s.useIndexes(true);
                case "off", "false", "0", "no" -> s.useIndexes(false);
                default -> {
                    out.error("ERR invalid value '" + m.group(1) + "' for setting 'use_indexes': use on or off");
                    return true;
                }
            }
            out.ok();
            return true;
        }
        if (SHOW.matcher(text).matches()) {
            out.bulk(s.useIndexes() ? "on" : "off");
            return true;
        }
        m = SET_DIALECT.matcher(text);
        if (m.matches()) {
            switch (m.group(1).toLowerCase(java.util.Locale.ROOT)) {
                case "postgresql", "postgres" -> s.postgresDialect(true);
                case "sqlite", "default" -> s.postgresDialect(false);
                default -> {
                    out.error("ERR invalid value '" + m.group(1) + "' for setting 'sql_dialect': use postgresql or sqlite");
                    return true;
                }
            }
            out.ok();
            return true;
        }
        if (RESET_DIALECT.matcher(text).matches()) {
            s.postgresDialect(false);
            out.ok();
            return true;
        }
        if (SHOW_DIALECT.matcher(text).matches()) {
            out.bulk(s.postgresDialect() ? "postgresql" : "sqlite");
            return true;
        }
        return s.postgresDialect() && pgSetting(s, text, out);
    }

    // ---- regress25 ----
    // PostgreSQL settings a RESP session in PostgreSQL's dialect may SET, RESET and SHOW: the values
    // RespSQL's answers already follow are accepted (and kept for SHOW); a value RespSQL would not
    // follow is refused (0A000), never accepted and then ignored.
    private static final Pattern PG_SET = Pattern.compile(
            "\\s*SET\\s+(?:SESSION\\s+|LOCAL\\s+)?(datestyle|intervalstyle|standard_conforming_strings|escape_string_warning"
                    + "|bytea_output|extra_float_digits)\\s*(?:=|\\s+TO\\s+|\\s)\\s*(.+?)\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern PG_RESET = Pattern.compile(
            "\\s*(RESET|SHOW)\\s+(datestyle|intervalstyle|standard_conforming_strings|escape_string_warning"
                    + "|bytea_output|extra_float_digits)\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    private static String pgDefault(String name) {
        return switch (name) {
            case "datestyle" -> "ISO, MDY";
            case "intervalstyle" -> "postgres";
            case "standard_conforming_strings", "escape_string_warning" -> "on";
            case "bytea_output" -> "hex";
            default -> "1"; // extra_float_digits
        };
    }

    private static boolean pgSetting(Session s, String text, RespWriter out) {
        Matcher m = PG_RESET.matcher(text);
        if (m.matches()) {
            String name = m.group(2).toLowerCase(java.util.Locale.ROOT);
            if (m.group(1).equalsIgnoreCase("RESET")) {
                s.pgSetting(name, null);
                out.ok();
            } else {
                String v = s.pgSetting(name);
                out.bulk(v == null ? pgDefault(name) : v);
            }
            return true;
        }
        m = PG_SET.matcher(text);
        if (!m.matches()) {
            return false;
        }
        String name = m.group(1).toLowerCase(java.util.Locale.ROOT);
        String raw = m.group(2);
        String v = raw.length() >= 2 && raw.startsWith("'") && raw.endsWith("'") ? raw.substring(1, raw.length() - 1) : raw;
        String lower = v.strip().toLowerCase(java.util.Locale.ROOT);
        String kept = null;
        String refused = null;
        if (lower.equals("default")) {
            s.pgSetting(name, null);
            out.ok();
            return true;
        }
        switch (name) {
            case "datestyle" -> {
                boolean ok = true;
                for (String part : lower.split("[,\\s]+")) {
                    ok &= part.isEmpty() || part.equals("iso") || part.equals("mdy") || part.equals("us")
                            || part.equals("noneuropean") || part.equals("noneuro");
                }
                if (ok) {
                    kept = "ISO, MDY";
                } else {
                    refused = "DateStyle \"" + v + "\" is not supported: RespSQL shows dates as ISO, MDY";
                }
            }
            case "intervalstyle" -> {
                if (lower.equals("postgres")) {
                    kept = lower;
                } else if (lower.equals("postgres_verbose") || lower.equals("sql_standard") || lower.equals("iso_8601")) {
                    refused = "IntervalStyle \"" + v + "\" is not supported: RespSQL shows intervals as postgres";
                }
            }
            case "standard_conforming_strings" -> {
                Boolean b = bool(lower);
                if (b == Boolean.TRUE) {
                    kept = "on";
                } else if (b == Boolean.FALSE) {
                    refused = "standard_conforming_strings off is not supported: backslashes escape only in E'...' strings";
                }
            }
            case "escape_string_warning" -> { // RespSQL sends no warnings: either value is followed
                Boolean b = bool(lower);
                kept = b == null ? null : b ? "on" : "off";
            }
            case "bytea_output" -> kept = lower.equals("hex") || lower.equals("escape") ? lower : null;
            default -> { // extra_float_digits: replies carry doubles as doubles, shortest exact text
                try {
                    int n = Integer.parseInt(lower);
                    if (n >= -15 && n <= 3) {
                        kept = Integer.toString(n);
                    } else {
                        io.respsql.protocol.OutcomeReply.write(out, out.mark(), io.respsql.result.Outcome.failed(
                                io.respsql.sql.SqlState.INVALID_PARAMETER_VALUE, "ERR " + n
                                        + " is outside the valid range for parameter \"extra_float_digits\" (-15 .. 3)"));
                        return true;
                    }
                } catch (NumberFormatException e) {
                    kept = null;
                }
            }
        }
        if (refused != null) {
            io.respsql.protocol.OutcomeReply.write(out, out.mark(), io.respsql.result.Outcome.failed(
                    io.respsql.sql.SqlState.FEATURE_NOT_SUPPORTED, "ERR " + refused));
            return true;
        }
        if (kept == null) {
            io.respsql.protocol.OutcomeReply.write(out, out.mark(), io.respsql.result.Outcome.failed(io.respsql.sql.SqlState.INVALID_PARAMETER_VALUE,
                    "ERR invalid value for parameter \"" + name + "\": \"" + v + "\""));
            return true;
        }
        s.pgSetting(name, kept);
        out.ok();
        return true;
    }

    private static Boolean bool(String v) {
        return switch (v) {
            case "on", "true", "yes", "1" -> Boolean.TRUE;
            case "off", "false", "no", "0" -> Boolean.FALSE;
            default -> null;
        };
    }
}
