package io.respsql.exec.op;

import it.unimi.dsi.fastutil.HashCommon;

import java.util.Arrays;

/**
 * A {@link KeyTable} for the commonest key of all: one integer-carried value (an id). Dense ids
 * in first-seen order, like {@link KeyTable}, but the key is the long itself: no
 * {@link KeyBuffer} to load, no stored hash, no column-wise equality. Linear probing over
 * parallel arrays (slot key, slot id + 1); the key of each id kept for the output. The caller
 * handles NULL (a join skips it; grouping gives it an id of its own through {@link #nullId}).
 */
public final class LongKeyTable {
    private long[] slotKeys = new long[64];
    /** id + 1 per slot, 0 empty. */
    private int[] slotIds = new int[64];
    private int mask = 63;
    private long[] keys = new long[16];
    private int size;
    private int nullId = -1;
    /** Whether the last {@link #findOrAdd} (or {@link #findOrAddNull}) added the key. */
    public boolean added;

    public int size() {
        return size;
    }

    /** The id of {@code k}, or -1. */
    public int find(long k) {
        long[] sk = slotKeys;
        int[] si = slotIds;
        int m = mask;
        int i = hash(k) & m;
        int s;
        while ((s = si[i]) != 0) {
            if (sk[i] == k) {
                return s - 1;
            }
            i = (i + 1) & m;
        }
        return -1;
    }

    /** The id of {@code k}, added as the next id when absent ({@link #added} says which). */
    public int findOrAdd(long k) {
        long[] sk = slotKeys;
        int[] si = slotIds;
        int m = mask;
        int i = hash(k) & m;
        int s;
        while ((s = si[i]) != 0) {
            if (sk[i] == k) {
                added = false;
                return s - 1;
            }
            i = (i + 1) & m;
        }
        int id = newId(k);
        sk[i] = k;
        si[i] = id + 1;
        added = true;
        if ((long) size * 2 > slotIds.length) {
            rehash();
        }
        return id;
    }

    /** The id of the NULL key (grouping: NULLs group together), added when absent. */
    public int findOrAddNull() {
        if (nullId >= 0) {
            added = false;
            return nullId;
        }
        nullId = newId(0);
        added = true;
        return nullId;
    }

    /** Whether id {@code id} is the NULL key. */
    public boolean isNull(int id) {
        return id == nullId;
    }

    /** The key of id {@code id} (meaningless for the NULL id). */
    public long key(int id) {
        return keys[id];
    }

    private int newId(long k) {
        int id = size++;
        if (id == keys.length) {
            keys = Arrays.copyOf(keys, id * 2);
        }
        keys[id] = k;
        return id;
    }

    /**
     * The long mixed as a whole: keys packed as (left &lt;&lt; 32 | right), the pair tables of a
     * grouping by several keys, must not fold to left ^ right first: small codes on both sides
     * (two product codes below 2^17) then collide in a few hundred thousand hashes for millions
     * of keys, and linear probing walks long clusters.
     */
    private static int hash(long k) {
        return (int) HashCommon.mix(k);
    }

    private void rehash() {
        int n = slotIds.length * 2;
        long[] fk = new long[n];
        int[] fi = new int[n];
        int m = n - 1;
        long[] sk = slotKeys;
        int[] si = slotIds;
        for (int i = 0; i < si.length; i++) {
            int s = si[i];
            if (s == 0) {
                continue;
            }
            long k = sk[i];
            int j = hash(k) & m;
            while (fi[j] != 0) {
                j = (j + 1) & m;
            }
            fk[j] = k;
            fi[j] = s;
        }
        slotKeys = fk;
        slotIds = fi;
        mask = m;
    }
}
