package io.respsql.it;

import java.util.List;

/**
 * Where a client splits a statement into RESP arguments. The server joins the arguments back
 * with spaces, so every form must give the same reply.
 */
enum Split {
    /** Word by word as redis-cli receives them from the shell: {@code [UPDATE, t, SET, count=100, ...]}. */
    CLI,
    /** The whole statement as one argument of SQL: {@code [SQL, "UPDATE t SET count=100 ..."]}. */
    SQL,
    /** The verb, then the rest of the statement as one argument: {@code [UPDATE, "t SET count=100 ..."]}. */
    VERB;

    /** The RESP arguments for a statement given as redis-cli argv words. */
    String[] apply(List<String> words) {
        if (words.isEmpty()) {
            throw new IllegalArgumentException("no words");
        }
        switch (this) {
            case CLI:
                return words.toArray(new String[0]);
            case SQL:
                return new String[] {"SQL", String.join(" ", words)};
            default:
                if (words.size() == 1) {
                    return new String[] {words.get(0)};
                }
                return new String[] {words.get(0), String.join(" ", words.subList(1, words.size()))};
        }
    }
}
