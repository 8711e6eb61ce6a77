package io.respsql.pgwire;

import io.respsql.sql.Lexer;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the protocol needs to know of statement text before the engine sees it: where a simple
 * Query's statements end, where {@code $n} parameters are (both outside quotes and comments, with
 * comments as {@link Lexer#commentEnd} reads them), and the CommandComplete tag of a statement.
 */
final class PgSql {
    private PgSql() {
    }

    /** The statements of a Query message: split at {@code ;} outside quotes and comments, blank ones dropped. */
    static List<String> split(String q) {
        List<String> out = new ArrayList<>();
        int[] start = {0};
        scan(q, new Visitor() {
            @Override
            public void semicolon(int at) {
                add(out, q.substring(start[0], at));
                start[0] = at + 1;
            }
        });
        add(out, q.substring(start[0]));
        return out;
    }

    private static void add(List<String> out, String s) {
        if (Lexer.skipBlank(s, 0) < s.length()) {
            out.add(s);
        }
    }

    /** The highest {@code $n} in the statement (0: none). */
    static int parameterCount(String sql) {
        int[] max = {0};
        scan(sql, new Visitor() {
            @Override
            public void parameter(int start, int end, int number) {
                max[0] = Math.max(max[0], number);
            }
        });
        return max[0];
    }

    /**
     * The statement with each {@code $n} replaced by {@code literals[n-1]}: SQL text the caller made
     * safe ({@link PgParams}), so a value never becomes statement text.
     */
    static String substitute(String sql, String[] literals) {
        StringBuilder sb = new StringBuilder(sql.length() + 16 * literals.length);
        int[] last = {0};
        scan(sql, new Visitor() {
            @Override
            public void parameter(int start, int end, int number) {
                if (number > literals.length) {
                    throw new SqlException("08P01", "there is no parameter $" + number);
                }
                sb.append(sql, last[0], start);
                String lit = literals[number - 1];
                // "a-$1" with -5 must not become the comment "a--5"
                if (lit.startsWith("-") && start > 0 && sql.charAt(start - 1) == '-') {
                    sb.append(' ');
                }
                sb.append(lit);
                last[0] = end;
            }
        });
        sb.append(sql, last[0], sql.length());
        return sb.toString();
    }

    /**
     * The statement with each {@code $n} written as the integer literal {@code 0}, for planning it
     * once with parameter slots ({@link io.respsql.engine.BoundPlan}): {@code starts}/{@code ends}
     * receive each occurrence's span in the returned text, {@code numbers} its parameter (n - 1).
     * Null when a {@code $n} stands where a literal 0 could change how the text reads ({@code -$1}).
     */
    static String template(String sql, List<int[]> spans) {
        StringBuilder sb = new StringBuilder(sql.length());
        int[] last = {0};
        boolean[] bad = {false};
        scan(sql, new Visitor() {
            @Override
            public void parameter(int start, int end, int number) {
                sb.append(sql, last[0], start);
                if (start > 0 && (sql.charAt(start - 1) == '-' || sql.charAt(start - 1) == '+'
                        || sql.charAt(start - 1) == '.')) {
                    bad[0] = true;
                }
                spans.add(new int[] {sb.length(), sb.length() + 1, number - 1});
                sb.append('0');
                last[0] = end;
            }
        });
        sb.append(sql, last[0], sql.length());
        return bad[0] ? null : sb.toString();
    }

    /** What {@link #scan} reports: the {@code ;} and {@code $n} that stand in statement text. */
    private interface Visitor {
        default void semicolon(int at) {
        }

        default void parameter(int start, int end, int number) {
        }
    }

    /**
     * The one reader of statement text here: steps over exactly what {@link Lexer} reads as one
     * piece (quotes by {@link Lexer#quoteEnd}, comments by {@link Lexer#commentEnd}), so neither a
     * {@code ;} nor a {@code $n} inside a string, a quoted name ({@code "x"}, {@code `x`},
     * {@code [x]}) or a comment is seen. A quote or comment left open runs to the end (the
     * parser reports it).
     */
    private static void scan(String q, Visitor v) {
        int n = q.length();
        int i = 0;
        while (i < n) {
            char c = q.charAt(i);
            int end = Lexer.quoteEnd(q, i);
            if (end == i) {
                end = Lexer.commentEnd(q, i);
            }
            if (end != i) {
                i = end < 0 ? n : end;
            } else if (c == ';') {
                v.semicolon(i);
                i++;
            } else if (c == '$' && i + 1 < n && Character.isDigit(q.charAt(i + 1))
                    && (i == 0 || !Character.isLetterOrDigit(q.charAt(i - 1)) && q.charAt(i - 1) != '_')) {
                int j = i + 1;
                while (j < n && Character.isDigit(q.charAt(j))) {
                    j++;
                }
                int number;
                try {
                    number = Integer.parseInt(q, i + 1, j, 10);
                } catch (NumberFormatException e) {
                    throw new SqlException(SqlState.SYNTAX_ERROR, "parameter number too large: " + q.substring(i, j));
                }
                if (number == 0) {
                    throw new SqlException(SqlState.SYNTAX_ERROR, "there is no parameter $0");
                }
                v.parameter(i, j, number);
                i = j;
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                i++;
                while (i < n && (Character.isLetterOrDigit(q.charAt(i)) || q.charAt(i) == '_' || q.charAt(i) == '$')) {
                    i++;
                }
            } else {
                i++;
            }
        }
    }

    private static final java.util.regex.Pattern POSITION = java.util.regex.Pattern.compile(" at position ([0-9]{1,9})\\b");

    /** The 1-based position the engine's error names ("... at position 12"), for ErrorResponse's P field; 0: none. */
    static int errorPosition(String message) {
        java.util.regex.Matcher m = POSITION.matcher(message);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** The first {@code count} words of the statement, upper case, past comments (fewer if it has fewer). */
    static String[] words(String sql, int count) {
        String[] out = new String[count];
        int i = 0;
        int n = sql.length();
        for (int w = 0; w < count; w++) {
            i = Lexer.skipBlank(sql, i);
            int start = i;
            while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
                i++;
            }
            out[w] = sql.substring(start, i).toUpperCase(Locale.ROOT);
            if (start == i) {
                for (int k = w + 1; k < count; k++) {
                    out[k] = "";
                }
                break;
            }
        }
        return out;
    }

    /** Whether the statement may grow memory (refused above maxmemory, as RESP's CREATE, INSERT and UPDATE). */
    static boolean growsMemory(String sql) {
        String w = words(sql, 1)[0];
        return w.equals("CREATE") || w.equals("INSERT") || w.equals("UPDATE");
    }

    /** Whether the statement gives rows (so Describe of its portal runs it to learn its columns). */
    static boolean returnsRows(String sql) {
        String w = words(sql, 1)[0];
        return w.equals("SELECT") || w.equals("WITH") || w.equals("VALUES") || w.equals("TABLE")
                || w.equals("SHOW") || w.equals("EXPLAIN") || w.equals("DESC") || w.equals("DESCRIBE")
                || w.equals("SCANSELECT") || w.equals("DUMP")
                || (w.equals("INSERT") || w.equals("UPDATE") || w.equals("DELETE")) && mentionsReturning(sql);
    }

    /** Whether the word RETURNING is in {@code sql} (a write that replies rows; a quoted one only costs an early run). */
    private static boolean mentionsReturning(String sql) {
        for (int i = 0; i + 9 <= sql.length(); i++) {
            if (sql.regionMatches(true, i, "RETURNING", 0, 9)
                    && (i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1)) && sql.charAt(i - 1) != '_')
                    && (i + 9 == sql.length() || !Character.isLetterOrDigit(sql.charAt(i + 9)) && sql.charAt(i + 9) != '_')) {
                return true;
            }
        }
        return false;
    }

    /** The CommandComplete tag of a statement that succeeded: rows it gave, or rows it changed. */
    static String tag(String sql, long rowsReturned, long changes) {
        String[] w = words(sql, 3);
        long n = Math.max(changes, 0);
        switch (w[0]) {
            case "INSERT":
                return "INSERT 0 " + n;
            case "UPDATE":
            case "DELETE":
                return w[0] + " " + n;
            case "SELECT":
            case "WITH":
            case "VALUES":
            case "TABLE":
            case "SCANSELECT":
                return "SELECT " + Math.max(rowsReturned, 0);
            case "TRUNCATE":
                return "TRUNCATE TABLE";
            case "CREATE":
            case "DROP":
            case "ALTER":
                String what = w[1].equals("UNIQUE") ? w[2] : w[1];
                return what.isEmpty() ? w[0] : w[0] + " " + what;
            default:
                return w[0];
        }
    }
}
