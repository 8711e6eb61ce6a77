package io.respsql.exec.op.join.baseline;

import java.util.Arrays;

/**
 * The build tuples of each key id as a chain through one int[] of next links (head and tail per
 * key id): a key with many tuples costs no list object, and appending keeps build order.
 */
final class OldChains {
    private int[] head = new int[16];
    private int[] tail = new int[16];
    private int[] next = new int[16];

    /** Appends tuple {@code t} (numbered densely from 0) to key {@code id}'s chain; {@code added}: the id is new. */
    void link(int id, boolean added, int t) {
        if (t == next.length) {
            next = Arrays.copyOf(next, t * 2);
        }
        next[t] = -1;
        if (added) {
            if (id == head.length) {
                head = Arrays.copyOf(head, id * 2);
                tail = Arrays.copyOf(tail, id * 2);
            }
            head[id] = t;
        } else {
            next[tail[id]] = t;
        }
        tail[id] = t;
    }

    /** The first tuple of key {@code id}, or -1 for a key not found (id < 0). */
    int first(int id) {
        return id < 0 ? -1 : head[id];
    }

    /** The tuple after {@code t} in its key's chain, or -1. */
    int next(int t) {
        return next[t];
    }
}
