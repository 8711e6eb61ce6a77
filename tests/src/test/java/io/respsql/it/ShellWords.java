package io.respsql.it;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command line into argv words the way a POSIX shell does before redis-cli sees them:
 * blanks separate words, {@code "..."} and {@code '...'} group, a backslash escapes the next
 * character outside single quotes. So {@code CREATE INDEX i ON t \(fk\)} gives
 * {@code [CREATE, INDEX, i, ON, t, (fk)]} and {@code SET "count=100"} gives {@code [SET, count=100]}.
 * No globbing, variables or substitutions: a line must not rely on them.
 */
final class ShellWords {
    private ShellWords() {
    }

    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (c == ' ' || c == '\t') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                i++;
            } else if (c == '\\') {
                require(i + 1 < n, line, "a trailing backslash");
                word.append(line.charAt(i + 1));
                inWord = true;
                i += 2;
            } else if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                require(end > 0, line, "an unterminated single quote");
                word.append(line, i + 1, end);
                inWord = true;
                i = end + 1;
            } else if (c == '"') {
                i++;
                while (true) {
                    require(i < n, line, "an unterminated double quote");
                    char d = line.charAt(i);
                    if (d == '"') {
                        i++;
                        break;
                    }
                    if (d == '\\' && i + 1 < n && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
                        d = line.charAt(++i);
                    } else {
                        require(d != '$' && d != '`', line, "a substitution inside double quotes");
                    }
                    word.append(d);
                    i++;
                }
                inWord = true;
            } else {
                require("*?[]$`;&|<>(){}!~#".indexOf(c) < 0, line,
                        "unquoted '" + c + "', which the shell would interpret");
                word.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    private static void require(boolean ok, String line, String problem) {
        if (!ok) {
            throw new IllegalArgumentException(problem + " in: " + line);
        }
    }
}
