package io.respsql.exec.op;

import java.util.Arrays;

/**
 * An open-addressing hash index over a {@link KeyStore}: finds the id of a key equal to a
 * {@link KeyBuffer}, or adds it. Ids are dense and in first-seen order (group numbers). Linear
 * probing over an int[] of ids, the stored hash per id checked before the values; no object per
 * entry.
 */
public final class KeyTable {
    private final KeyStore store;
    /** id + 1 per slot, 0 empty. */
    private int[] slots = new int[32];
    private int mask = 31;
    private int[] hashes = new int[16];
    /** Whether the last {@link #findOrAdd} added the key. */
    public boolean added;

    public KeyTable(KeyStore store) {
        this.store = store;
        if (store.size() != 0) {
            throw new IllegalArgumentException("key table over a non-empty store");
        }
    }

    public KeyStore store() {
        return store;
    }

    public int size() {
        return store.size();
    }

    /** The id of the key equal to {@code b}, or -1. */
    public int find(KeyBuffer b) {
        int h = b.hash();
        int i = h & mask;
        int s;
        while ((s = slots[i]) != 0) {
            int id = s - 1;
            if (hashes[id] == h && store.equalsBuffer(id, b)) {
                return id;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    /** The id of the key equal to {@code b}, added as the next id when absent ({@link #added} says which). */
    public int findOrAdd(KeyBuffer b) {
        int h = b.hash();
        int i = h & mask;
        int s;
        while ((s = slots[i]) != 0) {
            int id = s - 1;
            if (hashes[id] == h && store.equalsBuffer(id, b)) {
                added = false;
                return id;
            }
            i = (i + 1) & mask;
        }
        int id = store.append(b);
        if (id == hashes.length) {
            hashes = Arrays.copyOf(hashes, hashes.length * 2);
        }
        hashes[id] = h;
        slots[i] = id + 1;
        added = true;
        if ((id + 1) * 2 > slots.length) {
            rehash();
        }
        return id;
    }

    private void rehash() {
        int n = slots.length * 2;
        int[] fresh = new int[n];
        int m = n - 1;
        for (int id = 0, count = store.size(); id < count; id++) {
            int i = hashes[id] & m;
            while (fresh[i] != 0) {
                i = (i + 1) & m;
            }
            fresh[i] = id + 1;
        }
        slots = fresh;
        mask = m;
    }
}
