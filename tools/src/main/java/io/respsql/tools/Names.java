package io.respsql.tools;

/** Table and column names this client writes into statements: plain identifiers only, never quoted input. */
final class Names {
    private Names() {
    }

    static boolean plain(String n) {
        if (n.isEmpty() || !(Character.isLetter(n.charAt(0)) && n.charAt(0) < 128 || n.charAt(0) == '_')) {
            return false;
        }
        for (int i = 1; i < n.length(); i++) {
            char c = n.charAt(i);
            if (!(c < 128 && (Character.isLetterOrDigit(c) || c == '_'))) {
                return false;
            }
        }
        return true;
    }
}
