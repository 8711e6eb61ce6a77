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
 * Any other SET or SHOW goes on to the SQL engine.
 */
final class SessionSettings {
    private static final Pattern SET = Pattern.compile(
            "\\s*SET\\s+use_indexes\\s*(?:=|\\s+TO\\s+|\\s)\\s*'?([A-Za-z0-9]+)'?\\s*;?\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern SHOW = Pattern.compile("\\s*SHOW\\s+use_indexes\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    private SessionSettings() {
    }

    /** Runs {@code statement} when it is a setting of this class and returns true; false: not one. */
    static boolean handle(Session s, CharSequence statement, RespWriter out) {
        if (statement.length() > 80 || !startsWithSetOrShow(statement)) {
            return false; // the common case: one look at the first letters
        }
        Matcher m = SET.matcher(statement);
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
        if (SHOW.matcher(statement).matches()) {
            out.bulk(s.useIndexes() ? "on" : "off");
            return true;
        }
        return false;
    }

    private static boolean startsWithSetOrShow(CharSequence st) {
        int i = 0;
        while (i < st.length() && Character.isWhitespace(st.charAt(i))) {
            i++;
        }
        return st.length() - i >= 3 && (st.charAt(i) | 0x20) == 's'
                && ((st.charAt(i + 1) | 0x20) == 'e' || (st.charAt(i + 1) | 0x20) == 'h');
    }
}
