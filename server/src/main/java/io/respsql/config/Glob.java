package io.respsql.config;

/**
 * Glob-style matching as Redis does it for {@code CONFIG GET} and {@code KEYS}: {@code *}, {@code ?},
 * {@code [abc]}, {@code [^a-z]} and {@code \} to escape.
 */
public final class Glob {
    private Glob() {
    }

    public static boolean matches(String pattern, String s, boolean ignoreCase) {
        return match(pattern, 0, s, 0, ignoreCase, 0);
    }

    private static boolean match(String p, int pi, String s, int si, boolean nocase, int depth) {
        if (depth > 1000) {
            return false;
        }
        int plen = p.length();
        int slen = s.length();
        while (pi < plen && si <= slen) {
            char pc = p.charAt(pi);
            switch (pc) {
                case '*' -> {
                    while (pi + 1 < plen && p.charAt(pi + 1) == '*') {
                        pi++;
                    }
                    if (pi + 1 == plen) {
                        return true;
                    }
                    for (int k = si; k <= slen; k++) {
                        if (match(p, pi + 1, s, k, nocase, depth + 1)) {
                            return true;
                        }
                    }
                    return false;
                }
                case '?' -> {
                    if (si >= slen) {
                        return false;
                    }
                    si++;
                }
                case '[' -> {
                    if (si >= slen) {
                        return false;
                    }
                    pi++;
                    boolean not = pi < plen && p.charAt(pi) == '^';
                    if (not) {
                        pi++;
                    }
                    boolean found = false;
                    char c = fold(s.charAt(si), nocase);
                    while (pi < plen && p.charAt(pi) != ']') {
                        char x = p.charAt(pi);
                        if (x == '\\' && pi + 1 < plen) {
                            pi++;
                            if (fold(p.charAt(pi), nocase) == c) {
                                found = true;
                            }
                        } else if (pi + 2 < plen && p.charAt(pi + 1) == '-' && p.charAt(pi + 2) != ']') {
                            char lo = fold(x, nocase);
                            char hi = fold(p.charAt(pi + 2), nocase);
                            if (lo > hi) {
                                char t = lo;
                                lo = hi;
                                hi = t;
                            }
                            if (c >= lo && c <= hi) {
                                found = true;
                            }
                            pi += 2;
                        } else if (fold(x, nocase) == c) {
                            found = true;
                        }
                        pi++;
                    }
                    if (not) {
                        found = !found;
                    }
                    if (!found) {
                        return false;
                    }
                    si++;
                }
                case '\\' -> {
                    if (pi + 1 < plen) {
                        pi++;
                    }
                    if (si >= slen || fold(p.charAt(pi), nocase) != fold(s.charAt(si), nocase)) {
                        return false;
                    }
                    si++;
                }
                default -> {
                    if (si >= slen || fold(pc, nocase) != fold(s.charAt(si), nocase)) {
                        return false;
                    }
                    si++;
                }
            }
            pi++;
        }
        return pi == plen && si == slen;
    }

    private static char fold(char c, boolean nocase) {
        return nocase ? Character.toLowerCase(c) : c;
    }
}
