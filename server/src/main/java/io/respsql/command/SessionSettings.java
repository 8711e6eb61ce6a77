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
        return false;
    }
}
