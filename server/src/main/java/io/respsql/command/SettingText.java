package io.respsql.command;

import io.respsql.sql.Lexer;

/**
 * Statement text of the settings answered before the SQL engine (SET/RESET/SHOW statement_timeout,
 * use_indexes): their first word and their text without comments, with comments meaning what they
 * mean to the parser ({@link Lexer#commentEnd}), so {@code /* x *}{@code / SET ...} and
 * {@code SET ... -- note} are the same settings.
 */
final class SettingText {
    private SettingText() {
    }

    /** Whether the first word after blanks and comments is {@code word} (upper case given). */
    static boolean startsWithWord(CharSequence sql, String word) {
        int i = Lexer.skipBlank(sql, 0);
        int n = sql.length();
        if (n - i < word.length()) {
            return false;
        }
        for (int k = 0; k < word.length(); k++) {
            if (Character.toUpperCase(sql.charAt(i + k)) != word.charAt(k)) {
                return false;
            }
        }
        int after = i + word.length();
        return after == n || Character.isWhitespace(sql.charAt(after)) || Lexer.commentEnd(sql, after) != after
                || sql.charAt(after) == ';';
    }

    /**
     * {@code sql} with every comment replaced by one space; quoted text is kept as it is. A block
     * comment left open is kept (the statement then does not match and gets its error).
     */
    static String withoutComments(CharSequence sql) {
        int n = sql.length();
        StringBuilder sb = new StringBuilder(n);
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = i + 1;
                while (end < n && sql.charAt(end) != c) {
                    end++;
                }
                end = Math.min(n, end + 1);
                sb.append(sql, i, end);
                i = end;
                continue;
            }
            int end = Lexer.commentEnd(sql, i);
            if (end < 0) {
                sb.append(sql, i, n);
                break;
            }
            if (end > i) {
                sb.append(' ');
                i = end;
            } else {
                sb.append(c);
                i++;
            }
        }
        return sb.toString();
    }
}
