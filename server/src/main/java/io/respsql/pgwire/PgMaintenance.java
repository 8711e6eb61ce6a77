package io.respsql.pgwire;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * PostgreSQL's maintenance statements that have nothing to do here, answered as PostgreSQL answers
 * them (pgbench -i runs {@code vacuum analyze t} for each of its tables): {@code VACUUM [FULL]
 * [FREEZE] [VERBOSE] [ANALYZE] [t [(cols)], ...]}, {@code VACUUM (opt [value], ...) [t, ...]},
 * {@code ANALYZE|ANALYSE [VERBOSE] [t, ...]} and {@code CHECKPOINT}. Tables keep no dead rows (a
 * write changes rows in place) and the planner keeps no statistics to refresh, so each is a no-op
 * once its syntax and its tables are checked: an unknown table is 42P01, an unknown option 42601,
 * VACUUM inside a transaction block 25001, as in PostgreSQL 15.
 */
final class PgMaintenance {

    private PgMaintenance() {
    }

    private static final Set<String> VACUUM_OPTIONS = Set.of("FULL", "FREEZE", "VERBOSE", "ANALYZE", "ANALYSE",
            "DISABLE_PAGE_SKIPPING", "SKIP_LOCKED", "INDEX_CLEANUP", "PROCESS_TOAST", "TRUNCATE", "PARALLEL");

    /** Whether {@code firstWord} (upper case) starts a statement answered here. */
    static boolean handles(String firstWord) {
        return firstWord.equals("VACUUM") || firstWord.equals("ANALYZE") || firstWord.equals("ANALYSE")
                || firstWord.equals("CHECKPOINT");
    }

    /**
     * Checks the statement and returns its CommandComplete tag. {@code inBlock}: inside a
     * transaction block. Throws the error PostgreSQL would give.
     */
    static String run(String sql, Catalog catalog, boolean inBlock) {
        List<String> tokens = tokens(sql);
        String first = tokens.get(0).toUpperCase(Locale.ROOT);
        int i = 1;
        switch (first) {
            case "CHECKPOINT" -> {
                end(tokens, 1);
                return "CHECKPOINT";
            }
            case "VACUUM" -> {
                if (inBlock) {
                    throw new SqlException(SqlState.ACTIVE_SQL_TRANSACTION, "VACUUM cannot run inside a transaction block");
                }
                if (i < tokens.size() && tokens.get(i).equals("(")) {
                    i = options(tokens, i + 1);
                } else {
                    for (String w : new String[] {"FULL", "FREEZE", "VERBOSE"}) {
                        if (i < tokens.size() && tokens.get(i).equalsIgnoreCase(w)) {
                            i++;
                        }
                    }
                    if (i < tokens.size() && (tokens.get(i).equalsIgnoreCase("ANALYZE")
                            || tokens.get(i).equalsIgnoreCase("ANALYSE"))) {
                        i++;
                    }
                }
            }
            default -> { // ANALYZE / ANALYSE
                if (i < tokens.size() && tokens.get(i).equals("(")) {
                    i = options(tokens, i + 1);
                } else if (i < tokens.size() && tokens.get(i).equalsIgnoreCase("VERBOSE")) {
                    i++;
                }
            }
        }
        // [table [(column, ...)] [, ...]]
        while (i < tokens.size()) {
            String name = tokens.get(i++);
            if (name.equals("(") || name.equals(")") || name.equals(",")) {
                throw syntax(name);
            }
            if (i + 1 < tokens.size() && tokens.get(i).equals(".")) {
                String schema = unquote(name);
                name = tokens.get(i + 1);
                i += 2;
                if (!schema.equalsIgnoreCase("public") && !schema.equalsIgnoreCase("pg_catalog")
                        && !schema.equalsIgnoreCase("information_schema")) {
                    throw new SqlException(SqlState.UNDEFINED_TABLE,
                            "relation \"" + schema + "." + unquote(name) + "\" does not exist");
                }
                if (!schema.equalsIgnoreCase("public")) {
                    name = null; // a system relation: nothing to check here
                }
            }
            if (name != null && !catalog.nameTaken(unquote(name))) {
                throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + unquote(name) + "\" does not exist");
            }
            if (i < tokens.size() && tokens.get(i).equals("(")) {
                i++;
                while (i < tokens.size() && !tokens.get(i).equals(")")) {
                    i++;
                }
                if (i >= tokens.size()) {
                    throw syntax("end of input");
                }
                i++;
            }
            if (i < tokens.size()) {
                if (!tokens.get(i).equals(",")) {
                    throw syntax(tokens.get(i));
                }
                i++;
                if (i >= tokens.size()) {
                    throw syntax("end of input");
                }
            }
        }
        return first.equals("VACUUM") ? "VACUUM" : "ANALYZE";
    }

    /** Past a parenthesised option list starting at {@code i} (after the "("); returns the index after ")". */
    private static int options(List<String> tokens, int i) {
        while (true) {
            if (i >= tokens.size()) {
                throw syntax("end of input");
            }
            String opt = tokens.get(i++).toUpperCase(Locale.ROOT);
            if (!VACUUM_OPTIONS.contains(opt)) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "unrecognized VACUUM option \"" + opt.toLowerCase(Locale.ROOT) + "\"");
            }
            if (i < tokens.size() && !tokens.get(i).equals(",") && !tokens.get(i).equals(")")) {
                i++; // its value: true/false/on/off/1/0/auto/n
            }
            if (i >= tokens.size()) {
                throw syntax("end of input");
            }
            String sep = tokens.get(i++);
            if (sep.equals(")")) {
                return i;
            }
            if (!sep.equals(",")) {
                throw syntax(sep);
            }
        }
    }

    private static void end(List<String> tokens, int i) {
        if (i < tokens.size()) {
            throw syntax(tokens.get(i));
        }
    }

    private static SqlException syntax(String near) {
        return new SqlException(SqlState.SYNTAX_ERROR, near.equals("end of input")
                ? "syntax error at end of input" : "syntax error at or near \"" + near + "\"");
    }

    private static String unquote(String name) {
        if (name.length() >= 2 && name.charAt(0) == '"') {
            return name.substring(1, name.length() - 1).replace("\"\"", "\"");
        }
        return name.toLowerCase(Locale.ROOT);
    }

    /** Words, quoted identifiers and the punctuation ( ) , . ; a trailing ';' and comments dropped. */
    private static List<String> tokens(String sql) {
        List<String> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == ';') {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int e = sql.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 2;
            } else if (c == '"') {
                int j = i + 1;
                while (j < n && (sql.charAt(j) != '"' || j + 1 < n && sql.charAt(j + 1) == '"')) {
                    j += sql.charAt(j) == '"' ? 2 : 1;
                }
                if (j >= n) {
                    throw new SqlException(SqlState.SYNTAX_ERROR, "unterminated quoted identifier");
                }
                out.add(sql.substring(i, j + 1));
                i = j + 1;
            } else if (c == '(' || c == ')' || c == ',' || c == '.') {
                out.add(String.valueOf(c));
                i++;
            } else {
                int j = i;
                while (j < n && !Character.isWhitespace(sql.charAt(j)) && "(),.;\"".indexOf(sql.charAt(j)) < 0) {
                    j++;
                }
                out.add(sql.substring(i, j));
                i = j;
            }
        }
        return out;
    }
}
