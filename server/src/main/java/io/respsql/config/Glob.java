package io.respsql.config;

/**
 * Redis's glob-style matching ({@code stringmatchlen}): {@code * ? [abc] [^a-z] \x}, for
 * {@code CONFIG GET}, {@code KEYS}, Pub/Sub patterns, {@code COMMAND LIST} and ACL table patterns.
 * An unterminated {@code [} class ends at the pattern's end, as in Redis ({@code KEYS [a} finds
 * {@code a}).
 */
public final class Glob {
    private Glob() {
    }

    public static boolean matches(String pattern, String s, boolean nocase) {
        return match(pattern, 0, s, 0, nocase, 0);
    }

    private static boolean match(String p, int pi, String s, int si, boolean nocase, int depth) {
        if (depth > 1000) {
            return false; // as Redis: a pathological pattern fails rather than recursing without end
        }
        int pl = p.length();
        int sl = s.length();
        while (pi < pl) {
            char c = p.charAt(pi);
            switch (c) {
                case '*' -> {
                    while (pi + 1 < pl && p.charAt(pi + 1) == '*') {
                        pi++;
                    }
                    if (pi + 1 == pl) {
                        return true;
                    }
                    for (int k = si; k <= sl; k++) {
                        if (match(p, pi + 1, s, k, nocase, depth + 1)) {
                            return true;
                        }
                    }
                    return false;
                }
                case '?' -> {
                    if (si >= sl) {
                        return false;
                    }
                    si++;
                }
                case '[' -> {
                    if (si >= sl) {
                        return false;
                    }
                    pi++;
                    boolean not = pi < pl && p.charAt(pi) == '^';
                    if (not) {
                        pi++;
                    }
                    boolean found = false;
                    char sc = fold(s.charAt(si), nocase);
                    while (pi < pl && p.charAt(pi) != ']') {
                        char pc = p.charAt(pi);
                        if (pc == '\\' && pi + 1 < pl) {
                            pi++;
                            found |= fold(p.charAt(pi), nocase) == sc;
                        } else if (pi + 2 < pl && p.charAt(pi + 1) == '-' && p.charAt(pi + 2) != ']') {
                            char lo = fold(pc, nocase);
                            char hi = fold(p.charAt(pi + 2), nocase);
                            if (lo > hi) {
                                char t = lo;
                                lo = hi;
                                hi = t;
                            }
                            found |= sc >= lo && sc <= hi;
                            pi += 2;
                        } else {
                            found |= fold(pc, nocase) == sc;
                        }
                        pi++;
                    }
                    if (found == not) {
                        return false;
                    }
                    si++;
                }
                case '\\' -> {
                    if (pi + 1 < pl) {
                        pi++;
                    }
                    if (si >= sl || fold(p.charAt(pi), nocase) != fold(s.charAt(si), nocase)) {
                        return false;
                    }
                    si++;
                }
                default -> {
                    if (si >= sl || fold(c, nocase) != fold(s.charAt(si), nocase)) {
                        return false;
                    }
                    si++;
                }
            }
            pi++;
        }
        return si == sl;
    }

    private static char fold(char c, boolean nocase) {
        return nocase ? Character.toLowerCase(c) : c;
    }
}
