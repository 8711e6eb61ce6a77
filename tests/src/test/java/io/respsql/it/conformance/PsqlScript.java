package io.respsql.it.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A psql script cut into what psql would send one at a time: SQL statements ended by a semicolon
 * outside quotes ('...', E'...', "...", $tag$...$tag$), comments ({@code --}, nested
 * {@code /* *}{@code /}), parentheses and, in CREATE FUNCTION/PROCEDURE, BEGIN ... END (psql's own
 * heuristic), and psql meta-commands (a backslash outside quotes: the rest of the line; a
 * backslash-semicolon is a semicolon inside the statement, sent with it). A {@code COPY ... FROM
 * STDIN} (or STDOUT) statement carries its inline data (the lines up to {@code \.}). A statement ended by {@code \g}-style meta-command ({@code \gexec}, {@code \gset})
 * carries it in {@link Unit#meta}.
 */
final class PsqlScript {
    /** One unit: a statement ({@code sql}, with {@code meta} the \g command that ended it, if any) or a meta-command alone. */
    record Unit(int line, String sql, String meta, String copyData) {
        boolean isMeta() {
            return sql == null;
        }
    }

    private PsqlScript() {
    }

    static List<Unit> split(String text) {
        List<Unit> units = new ArrayList<>();
        StringBuilder buf = new StringBuilder();
        int line = 1;
        int startLine = -1;
        int depth = 0;
        int beginDepth = 0;
        int words = 0;
        char[] firstWords = new char[4];
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                if (buf.length() > 0) {
                    buf.append(c);
                }
                i++;
                continue;
            }
            if (Character.isWhitespace(c) && buf.length() == 0) {
                i++;
                continue;
            }
            if (startLine < 0 && !Character.isWhitespace(c) && c != '\\' && !(c == '-' && i + 1 < n && text.charAt(i + 1) == '-')) {
                startLine = line;
            }
            if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') { // comment to the end of the line: dropped
                int e = text.indexOf('\n', i);
                i = e < 0 ? n : e;
                continue;
            }
            if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int level = 0;
                int j = i;
                while (j < n) {
                    if (text.startsWith("/*", j)) {
                        level++;
                        j += 2;
                    } else if (text.startsWith("*/", j)) {
                        level--;
                        j += 2;
                        if (level == 0) {
                            break;
                        }
                    } else {
                        if (text.charAt(j) == '\n') {
                            line++;
                        }
                        j++;
                    }
                }
                buf.append(text, i, j);
                i = j;
                continue;
            }
            if (c == '\'' || c == '"') {
                boolean escapes = c == '\'' && i > 0 && (text.charAt(i - 1) == 'E' || text.charAt(i - 1) == 'e')
                        && (i < 2 || !Character.isLetterOrDigit(text.charAt(i - 2)));
                int j = i + 1;
                while (j < n) {
                    char d = text.charAt(j);
                    if (d == '\n') {
                        line++;
                    }
                    if (escapes && d == '\\') {
                        j += 2;
                        continue;
                    }
                    if (d == c) {
                        if (j + 1 < n && text.charAt(j + 1) == c) {
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                j = Math.min(n, j + 1);
                buf.append(text, i, j);
                i = j;
                continue;
            }
            if (c == '$') {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
                    j++;
                }
                boolean tagStart = i == 0 || !(Character.isLetterOrDigit(text.charAt(i - 1)) || text.charAt(i - 1) == '_');
                if (j < n && text.charAt(j) == '$' && tagStart && (j == i + 1 || !Character.isDigit(text.charAt(i + 1)))) {
                    String tag = text.substring(i, j + 1);
                    int end = text.indexOf(tag, j + 1);
                    end = end < 0 ? n : end + tag.length();
                    for (int k = i; k < end; k++) {
                        if (text.charAt(k) == '\n') {
                            line++;
                        }
                    }
                    buf.append(text, i, end);
                    i = end;
                    continue;
                }
            }
            if (c == '\\' && i + 1 < n && text.charAt(i + 1) == ';') { // psql's \; : a semicolon that ends no statement
                buf.append(';');
                i += 2;
                continue;
            }
            if (c == '\\') { // a meta-command: the rest of the line
                int e = text.indexOf('\n', i);
                e = e < 0 ? n : e;
                String meta = text.substring(i, e).strip();
                if (buf.toString().isBlank()) {
                    units.add(new Unit(line, null, meta, null));
                } else if (meta.startsWith("\\g")) {
                    units.add(new Unit(startLine, buf.toString().strip(), meta, null));
                    buf.setLength(0);
                    startLine = -1;
                    depth = 0;
                    words = 0;
                    Arrays.fill(firstWords, '\0');
                } else {
                    units.add(new Unit(line, null, meta, null));
                }
                i = e;
                continue;
            }
            if (Character.isLetter(c) || c == '_') { // a word: psql's BEGIN ... END tracking in CREATE FUNCTION bodies
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_' || text.charAt(j) == '$')) {
                    j++;
                }
                String word = text.substring(i, j).toLowerCase(Locale.ROOT);
                if (words < 4 && Set.of("create", "function", "procedure", "or", "replace").contains(word)) {
                    firstWords[words] = word.charAt(0);
                }
                words++;
                boolean routine = firstWords[0] == 'c' && (firstWords[1] == 'f' || firstWords[1] == 'p'
                        || (firstWords[1] == 'o' && firstWords[2] == 'r' && (firstWords[3] == 'f' || firstWords[3] == 'p')));
                if (routine && depth == 0) {
                    if (word.equals("begin")) {
                        beginDepth++;
                    } else if (word.equals("case") && beginDepth >= 1) {
                        beginDepth++;
                    } else if (word.equals("end") && beginDepth > 0) {
                        beginDepth--;
                    }
                }
                buf.append(text, i, j);
                i = j;
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
            }
            if (c == ';' && depth == 0 && beginDepth == 0) {
                String sql = buf.toString().strip();
                buf.setLength(0);
                i++;
                String copyData = null;
                if (isCopyFromStdin(sql)) { // inline data: from the next line to a line "\."
                    int s = text.indexOf('\n', i);
                    s = s < 0 ? n : s + 1;
                    StringBuilder data = new StringBuilder();
                    int p = s;
                    while (p < n) {
                        int e = text.indexOf('\n', p);
                        e = e < 0 ? n : e;
                        String l = text.substring(p, e);
                        p = e; // the '\n' itself is counted by the scanner
                        if (l.equals("\\.")) {
                            break;
                        }
                        data.append(l).append('\n');
                        p = Math.min(n, e + 1);
                        line++;
                    }
                    line++; // the line of the COPY statement's own end
                    i = p;
                    copyData = data.toString();
                }
                if (!sql.isEmpty()) {
                    units.add(new Unit(startLine, sql, null, copyData));
                }
                startLine = -1;
                depth = 0;
                words = 0;
                Arrays.fill(firstWords, '\0');
                continue;
            }
            buf.append(c);
            i++;
        }
        if (!buf.toString().isBlank()) {
            units.add(new Unit(startLine, buf.toString().strip(), null, null));
        }
        return units;
    }

    static boolean isCopyFromStdin(String sql) {
        String s = sql.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        return s.startsWith("copy ") && (s.contains(" from stdin") || s.contains(" from stdout"));
    }

    /**
     * {@code sql} with psql variables replaced as psql does outside quotes: {@code :name} by the
     * value, {@code :'name'} by it as a quoted literal, {@code :"name"} as a quoted identifier;
     * an undefined variable (and {@code ::}) is left as written.
     */
    static String substitute(String sql, Map<String, String> vars) {
        if (vars.isEmpty() || sql.indexOf(':') < 0) {
            return sql;
        }
        StringBuilder out = new StringBuilder();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int j = i + 1;
                while (j < n && sql.charAt(j) != c) {
                    j++;
                }
                j = Math.min(n, j + 1);
                out.append(sql, i, j);
                i = j;
                continue;
            }
            if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                out.append("::");
                i += 2;
                continue;
            }
            if (c == ':' && i + 1 < n) {
                char q = sql.charAt(i + 1);
                if (q == '\'' || q == '"') {
                    int e = sql.indexOf(q, i + 2);
                    if (e > 0 && vars.containsKey(sql.substring(i + 2, e))) {
                        String v = vars.get(sql.substring(i + 2, e));
                        out.append(q).append(v.replace(String.valueOf(q), String.valueOf(q) + q)).append(q);
                        i = e + 1;
                        continue;
                    }
                } else if (Character.isLetter(q) || q == '_') {
                    int e = i + 1;
                    while (e < n && (Character.isLetterOrDigit(sql.charAt(e)) || sql.charAt(e) == '_')) {
                        e++;
                    }
                    String name = sql.substring(i + 1, e);
                    if (vars.containsKey(name)) {
                        out.append(vars.get(name));
                        i = e;
                        continue;
                    }
                }
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    /**
     * Applies a {@code \set} or {@code \getenv} meta-command to {@code vars}: {@code \set name a b ...}
     * joins its arguments (quoted ones unquoted, {@code :var} and {@code :'var'} replaced);
     * {@code \getenv name ENV} takes the value {@code env} maps ENV to. Other meta-commands are ignored.
     */
    static void apply(String meta, Map<String, String> vars, Map<String, String> env) {
        List<String> words = metaWords(meta);
        if (words.isEmpty()) {
            return;
        }
        if (words.get(0).equals("\\getenv") && words.size() == 3 && env.containsKey(words.get(2))) {
            vars.put(words.get(1), env.get(words.get(2)));
        } else if (words.get(0).equals("\\set") && words.size() >= 2) {
            StringBuilder v = new StringBuilder();
            for (String w : words.subList(2, words.size())) {
                v.append(w.startsWith(":") && vars.containsKey(w.substring(1)) ? vars.get(w.substring(1)) : w);
            }
            vars.put(words.get(1), v.toString());
        } else if (words.get(0).equals("\\set")) {
            return;
        }
    }

    /** The arguments of a meta-command, psql style: 'quoted' ('' is a quote), :var and :'var' replaced later by the caller's map. */
    private static List<String> metaWords(String meta) {
        List<String> words = new ArrayList<>();
        int n = meta.length();
        int i = 0;
        while (i < n) {
            while (i < n && Character.isWhitespace(meta.charAt(i))) {
                i++;
            }
            if (i >= n) {
                break;
            }
            StringBuilder w = new StringBuilder();
            while (i < n && !Character.isWhitespace(meta.charAt(i))) {
                char c = meta.charAt(i);
                if (c == '\'') {
                    int j = i + 1;
                    while (j < n) {
                        if (meta.charAt(j) == '\'') {
                            if (j + 1 < n && meta.charAt(j + 1) == '\'') {
                                w.append('\'');
                                j += 2;
                                continue;
                            }
                            break;
                        }
                        w.append(meta.charAt(j));
                        j++;
                    }
                    i = j + 1;
                } else {
                    w.append(c);
                    i++;
                }
            }
            words.add(w.toString());
        }
        return words;
    }
}
