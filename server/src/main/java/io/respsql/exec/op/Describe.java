package io.respsql.exec.op;

import io.respsql.expr.Expression;

/** EXPLAIN text of a condition: its rendering without the parentheses around the whole. */
public final class Describe {
    private Describe() {
    }

    public static String condition(Expression e) {
        String s = e.describe();
        while (s.length() > 1 && s.charAt(0) == '(' && s.charAt(s.length() - 1) == ')' && encloses(s)) {
            s = s.substring(1, s.length() - 1);
        }
        return s;
    }

    /** Whether the first '(' closes at the last character. */
    private static boolean encloses(String s) {
        int depth = 0;
        boolean quoted = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')' && --depth == 0 && i < s.length() - 1) {
                return false;
            }
        }
        return true;
    }
}
