package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A connection's statement timeout, set as PostgreSQL names it, through {@code SQL} or
 * {@code QUERY}: {@code SET statement_timeout = 50} (or {@code TO}; a number is milliseconds, a
 * quoted value may say {@code ms}, {@code s} or {@code min}; 0: none), {@code SET
 * statement_timeout = DEFAULT} and {@code RESET statement_timeout} (back to the server's
 * query-timeout-ms), {@code SHOW statement_timeout} (the milliseconds in force for this
 * connection). It replaces query-timeout-ms for every statement of the connection, inline or on
 * a worker.
 */
final class StatementTimeout {
    private static final Pattern SET = Pattern.compile(
            "\\s*SET\\s+(?:SESSION\\s+)?statement_timeout\\s*(?:=|\\s+TO\\s+)\\s*(?:(DEFAULT)|'?\\s*(\\d{1,12})\\s*(ms|s|min)?\\s*'?)\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern RESET = Pattern.compile("\\s*RESET\\s+statement_timeout\\s*;?\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern SHOW = Pattern.compile("\\s*SHOW\\s+statement_timeout\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    private StatementTimeout() {
    }

    /** Whether {@code sql} is one of these statements (SET, RESET or SHOW of statement_timeout), valid or not. */
    static boolean names(CharSequence sql) {
        return mentions(sql);
    }

    /** Whether {@code sql} is one of these statements; then it is answered here. Cheap for any other statement. */
    static boolean handle(Session s, CharSequence statement, RespWriter out, io.respsql.config.ServerConfig config) {
        if (!mentions(statement)) {
            return false;
        }
        String sql = SettingText.withoutComments(statement);
        Matcher m = SET.matcher(sql);
        if (m.matches()) {
            if (m.group(1) != null) {
                s.statementTimeoutMs(-1);
            } else {
                long v = Long.parseLong(m.group(2));
                String unit = m.group(3) == null ? "ms" : m.group(3).toLowerCase(Locale.ROOT);
                long ms = switch (unit) {
                    case "s" -> v * 1000;
                    case "min" -> v * 60_000;
                    default -> v;
                };
                if (ms > Integer.MAX_VALUE) { // as PostgreSQL: the setting is an int of ms
                    out.error("ERR " + ms + " ms is outside the valid range for parameter \"statement_timeout\""
                            + " (0 .. 2147483647)");
                    return true;
                }
                s.statementTimeoutMs(ms);
            }
            out.ok();
            return true;
        }
        if (RESET.matcher(sql).matches()) {
            s.statementTimeoutMs(-1);
            out.ok();
            return true;
        }
        if (SHOW.matcher(sql).matches()) {
            long ms = s.statementTimeoutMs();
            out.integer(ms >= 0 ? ms : config.queryTimeoutMs());
            return true;
        }
        out.error("ERR invalid statement_timeout statement: use SET statement_timeout = <milliseconds> | DEFAULT,"
                + " RESET statement_timeout or SHOW statement_timeout");
        return true;
    }

    /** The statement's first word is SET, RESET or SHOW and it names statement_timeout (no regex for others). */
    private static boolean mentions(CharSequence sql) {
        return (SettingText.startsWithWord(sql, "SET") || SettingText.startsWithWord(sql, "RESET")
                || SettingText.startsWithWord(sql, "SHOW"))
                && SettingText.withoutComments(sql).toLowerCase(Locale.ROOT).contains("statement_timeout");
    }
}
