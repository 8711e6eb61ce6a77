package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Outputs;
import io.respsql.exec.op.LongKeyTable;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.storage.Column;
import io.respsql.storage.TextColumn;
import it.unimi.dsi.fastutil.HashCommon;

import java.util.Arrays;

/**
 * One GROUP BY key of a batch-at-a-time aggregate: turns a batch of rows into dense int codes
 * (0, 1, ... in first-seen order, NULL a code of its own, equal values one code, as grouping
 * compares them), and writes a code's value into the output. Several keys' codes are combined
 * into group numbers by {@link HashAggregate}'s pair tables.
 */
abstract class KeyCoder {
    final Expression expr;

    KeyCoder(Expression expr) {
        this.expr = expr;
    }

    /** Codes of the rows {@code sel[0..n)} of {@code relation} into {@code out}. */
    abstract void codes(EvalContext ctx, int relation, int[] sel, int n, int[] out, BatchScratch s);

    /** Number of codes handed out so far. */
    abstract int size();

    abstract void write(Column c, int row, int code);

    /** {@code rows}: about how many rows the input has (bounds a direct array's size). */
    static KeyCoder of(Expression e, int relation, long rows) {
        SqlType t = e.type();
        if (t == SqlType.NULL) {
            return new NullCoder(e);
        }
        if (t == SqlType.NUMERIC) {
            return new NumericCoder(e);
        }
        if (t.isTextCarried()) {
            Column c = t.isTextCarried() ? e.plainColumn(relation) : null;
            return new TextCoder(e, c instanceof TextColumn ? (TextColumn) c : null);
        }
        long maxSpan = Math.min(1L << 24, Math.max(1L << 16, 2 * rows));
        return new NumberCoder(e, t == SqlType.DOUBLE, maxSpan);
    }

    /** A bare NULL key: one code. */
    static final class NullCoder extends KeyCoder {
        private boolean seen;

        NullCoder(Expression e) {
            super(e);
        }

        @Override
        void codes(EvalContext ctx, int relation, int[] sel, int n, int[] out, BatchScratch s) {
            Arrays.fill(out, 0, n, 0);
            seen |= n > 0;
        }

        @Override
        int size() {
            return seen ? 1 : 0;
        }

        @Override
        void write(Column c, int row, int code) {
            Outputs.writeNull(c, row);
        }
    }

    /**
     * Integer-carried keys on the long, DOUBLE on its canonical bits (-0.0 as 0.0, one NaN). Integer
     * keys within a span of at most {@code maxSpan} values (ids, months: the common GROUP BY) are
     * looked up in a direct array indexed by key - base; once a key falls outside that, every key
     * goes through a {@link LongKeyTable} (fed the codes so far, in order, so codes stay).
     */
    static final class NumberCoder extends KeyCoder {
        private final boolean dbl;
        private final long maxSpan;
        private LongKeyTable table;
        /** Direct mode: code + 1 per key - base, 0 unseen. */
        private int[] direct = new int[0];
        private long base;
        private long[] keys = new long[16];
        private int size;
        private int nullCode = -1;

        NumberCoder(Expression e, boolean dbl, long maxSpan) {
            super(e);
            this.dbl = dbl;
            this.maxSpan = maxSpan;
            if (dbl) {
                table = new LongKeyTable();
            }
        }

        @Override
        void codes(EvalContext ctx, int relation, int[] sel, int n, int[] out, BatchScratch s) {
            long[] v = s.longs;
            boolean[] nulls = s.nulls;
            boolean anyNull;
            if (dbl) {
                double[] d = s.doubles;
                anyNull = expr.evalDoubleBatch(ctx, relation, sel, n, d, nulls);
                for (int i = 0; i < n; i++) {
                    double x = d[i];
                    v[i] = x == 0.0 ? 0L : Double.doubleToLongBits(x);
                }
            } else {
                anyNull = expr.evalLongBatch(ctx, relation, sel, n, v, nulls);
            }
            if (table == null && directCovers(v, nulls, anyNull, n)) {
                int[] dir = direct;
                long b = base;
                for (int i = 0; i < n; i++) {
                    if (anyNull && nulls[i]) {
                        out[i] = nullCode();
                        continue;
                    }
                    int at = (int) (v[i] - b);
                    int c = dir[at] - 1;
                    if (c < 0) {
                        c = newCode(v[i]);
                        dir[at] = c + 1;
                    }
                    out[i] = c;
                }
                return;
            }
            LongKeyTable t = table;
            for (int i = 0; i < n; i++) {
                int c = anyNull && nulls[i] ? t.findOrAddNull() : t.findOrAdd(v[i]);
                if (t.added) {
                    if (anyNull && nulls[i]) {
                        nullCode = c;
                    }
                    newCode(v[i]);
                }
                out[i] = c;
            }
        }

        /**
         * Whether the direct array covers (after growing it, within {@code maxSpan}) every non-NULL
         * key of the batch; when not, switches to the hash table for good.
         */
        private boolean directCovers(long[] v, boolean[] nulls, boolean anyNull, int n) {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int i = 0; i < n; i++) {
                if (anyNull && nulls[i]) {
                    continue;
                }
                long x = v[i];
                min = Math.min(min, x);
                max = Math.max(max, x);
            }
            return min > max || coversRange(min, max); // min > max: all NULL
        }

        /** {@link #directCovers} for keys from {@code min} to {@code max}. */
        private boolean coversRange(long min, long max) {
            int len = direct.length;
            if (len > 0 && min >= base && max - base < len && max - base >= 0) {
                return true;
            }
            long lo = len == 0 ? min : Math.min(base, min);
            long hi = len == 0 ? max : Math.max(base + len - 1, max);
            long span = hi - lo + 1;
            if (span <= 0 || span > maxSpan) { // <= 0: the subtraction overflowed
                toHash();
                return false;
            }
            int grown = (int) Math.min(maxSpan, Math.max(span, 2L * len));
            long newBase = len > 0 && min < base ? hi - grown + 1 : lo; // room on the side that grew
            int[] d = new int[grown];
            if (len > 0) {
                System.arraycopy(direct, 0, d, (int) (base - newBase), len);
            }
            direct = d;
            base = newBase;
            return true;
        }

        /**
         * The code of one integer key (a tuple at a time, {@link SlotKeyCoder}; not for DOUBLE
         * keys): the codes {@link #codes} would hand out, through the direct array while the keys
         * stay within its span.
         */
        int code(long v, boolean isNull) {
            if (isNull) {
                if (table == null) {
                    return nullCode();
                }
                int c = table.findOrAddNull();
                if (table.added) {
                    nullCode = c;
                    newCode(0);
                }
                return c;
            }
            if (table == null) {
                long at = v - base; // tested as the batch test does: the subtraction may overflow
                if (!(v >= base && at >= 0 && at < direct.length) && !coversRange(v, v)) {
                    return code(v, false); // now hashed
                }
                int[] dir = direct;
                int i = (int) (v - base);
                int c = dir[i] - 1;
                if (c < 0) {
                    c = newCode(v);
                    dir[i] = c + 1;
                }
                return c;
            }
            int c = table.findOrAdd(v);
            if (table.added) {
                newCode(v);
            }
            return c;
        }

        private void toHash() {
            LongKeyTable t = new LongKeyTable();
            for (int c = 0; c < size; c++) {
                if (c == nullCode) {
                    t.findOrAddNull();
                } else {
                    t.findOrAdd(keys[c]);
                }
            }
            table = t;
            direct = null;
        }

        int nullCode() {
            if (nullCode < 0) {
                nullCode = newCode(0);
            }
            return nullCode;
        }

        private int newCode(long k) {
            int c = size++;
            if (c == keys.length) {
                keys = Arrays.copyOf(keys, c * 2);
            }
            keys[c] = k;
            return c;
        }

        @Override
        int size() {
            return size;
        }

        @Override
        void write(Column c, int row, int code) {
            if (code == nullCode) {
                Outputs.writeNull(c, row);
            } else if (dbl) {
                Outputs.writeDouble(c, row, Double.longBitsToDouble(keys[code]));
            } else {
                Outputs.writeLong(c, row, keys[code]);
            }
        }
    }

    /**
     * TEXT keys interned into codes by their bytes: an open-addressing table over a private byte
     * arena (hash per code kept, bytes compared only on a hash match). A plain column's bytes are
     * read straight from its arena; another expression's through {@code evalText}.
     */
    static final class TextCoder extends KeyCoder {
        private final TextColumn column;
        /** code + 1 per slot, 0 empty. */
        private int[] slots = new int[64];
        private int mask = 63;
        private int[] hashes = new int[16];
        private int[] offs = new int[16];
        private int[] lens = new int[16];
        private byte[] arena = new byte[256];
        private int arenaUsed;
        private int size;
        private int nullCode = -1;

        TextCoder(Expression e, TextColumn column) {
            super(e);
            this.column = column;
        }

        @Override
        void codes(EvalContext ctx, int relation, int[] sel, int n, int[] out, BatchScratch s) {
            TextColumn c = column;
            if (c != null) {
                boolean nulls = c.mayHaveNulls();
                for (int i = 0; i < n; i++) {
                    int row = sel[i];
                    if (nulls && c.isNull(row)) {
                        out[i] = nullCode();
                        continue;
                    }
                    long ref = c.refOf(row);
                    if (ref == TextColumn.EMPTY_REF) {
                        out[i] = code(null, 0, 0);
                    } else {
                        byte[] a = c.refBytes(ref);
                        out[i] = code(a, TextColumn.refOffset(ref), TextColumn.refLength(a, ref));
                    }
                }
                return;
            }
            int[] slots = ctx.slots;
            for (int i = 0; i < n; i++) {
                slots[relation] = sel[i];
                byte[] b = expr.evalText(ctx);
                out[i] = ctx.isNull ? nullCode() : code(b, ctx.textOffset, ctx.textLength);
            }
        }

        int nullCode() {
            if (nullCode < 0) {
                nullCode = newCode(0, null, 0, 0);
            }
            return nullCode;
        }

        /** The code of the bytes, added when new. {@code b} may be null when {@code len} is 0. */
        int code(byte[] b, int off, int len) {
            if (len <= 16) {
                // short values (statuses, countries, tiers): up to two little-endian words, masked to
                // the value, compared as longs instead of hashed and compared byte by byte
                long w0 = len == 0 ? 0 : word(b, off, Math.min(len, 8));
                long w1 = len <= 8 ? 0 : word(b, off + 8, len - 8);
                int h = shortHash(w0, w1, len);
                int i = h & mask;
                int sl;
                while ((sl = slots[i]) != 0) {
                    int id = sl - 1;
                    if (w0s[id] == w0 && w1s[id] == w1 && lens[id] == len) {
                        return id;
                    }
                    i = (i + 1) & mask;
                }
                int id = newCode(h, b, off, len);
                w0s[id] = w0;
                w1s[id] = w1;
                slots[i] = id + 1;
                if (size * 2 > slots.length) {
                    rehash();
                }
                return id;
            }
            int h = hash(b, off, len);
            int i = h & mask;
            int sl;
            while ((sl = slots[i]) != 0) {
                int id = sl - 1;
                if (hashes[id] == h && lens[id] == len && id != nullCode
                        && Arrays.equals(arena, offs[id], offs[id] + len, b, off, off + len)) {
                    return id;
                }
                i = (i + 1) & mask;
            }
            int id = newCode(h, b, off, len);
            slots[i] = id + 1;
            if (size * 2 > slots.length) {
                rehash();
            }
            return id;
        }

        /** Per code of a value of at most 16 bytes: its words as {@link #word} reads them (0 past the value). */
        private long[] w0s = new long[16];
        private long[] w1s = new long[16];

        /** The {@code n} (1..8) bytes at {@code off} as a little-endian long, higher bytes 0. */
        private static long word(byte[] b, int off, int n) {
            if (off + 8 <= b.length) {
                long w = (long) LONGS.get(b, off);
                return n == 8 ? w : w & ((1L << (n << 3)) - 1);
            }
            long w = 0;
            for (int k = n - 1; k >= 0; k--) {
                w = (w << 8) | (b[off + k] & 0xFF);
            }
            return w;
        }

        private static int shortHash(long w0, long w1, int len) {
            long h = HashCommon.mix(w0 * 0x9E3779B97F4A7C15L + w1 + len);
            return (int) (h ^ (h >>> 32));
        }

        private int newCode(int h, byte[] b, int off, int len) {
            int id = size++;
            if (id == hashes.length) {
                int m = id * 2;
                w0s = Arrays.copyOf(w0s, m);
                w1s = Arrays.copyOf(w1s, m);
                hashes = Arrays.copyOf(hashes, m);
                offs = Arrays.copyOf(offs, m);
                lens = Arrays.copyOf(lens, m);
            }
            if (arenaUsed + len > arena.length) {
                arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + len));
            }
            if (len > 0) {
                System.arraycopy(b, off, arena, arenaUsed, len);
            }
            hashes[id] = h;
            offs[id] = arenaUsed;
            lens[id] = len;
            arenaUsed += len;
            return id;
        }

        private void rehash() {
            int n = slots.length * 2;
            int[] fresh = new int[n];
            int m = n - 1;
            for (int id = 0; id < size; id++) {
                if (id == nullCode) {
                    continue; // found through nullCode, never by probing
                }
                int i = hashes[id] & m;
                while (fresh[i] != 0) {
                    i = (i + 1) & m;
                }
                fresh[i] = id + 1;
            }
            slots = fresh;
            mask = m;
        }

        private static final java.lang.invoke.VarHandle LONGS =
                java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

        /** Eight bytes a step, then the tail. */
        static int hash(byte[] b, int off, int len) {
            long h = len;
            int i = off;
            for (int end = off + len - 7; i < end; i += 8) {
                h = HashCommon.mix(h ^ (long) LONGS.get(b, i));
            }
            for (int end = off + len; i < end; i++) {
                h = h * 31 + b[i];
            }
            h = HashCommon.mix(h);
            return (int) (h ^ (h >>> 32));
        }

        @Override
        int size() {
            return size;
        }

        @Override
        void write(Column c, int row, int code) {
            if (code == nullCode) {
                Outputs.writeNull(c, row);
            } else {
                Outputs.writeText(c, row, arena, offs[code], lens[code]);
            }
        }
    }

    /**
     * NUMERIC keys by value (textfn): coded by their match key ({@link io.respsql.expr.Numeric#writeKey},
     * 1.0 = 1.00 = 1), each code keeping the text of the first value that got it, which the group's
     * output shows (as PostgreSQL's hash aggregate does). No allocation per row up to 18 digits.
     */
    static final class NumericCoder extends KeyCoder {
        private final TextCoder keys = new TextCoder(null, null);
        private byte[] key = new byte[io.respsql.expr.Numeric.KEY_LONG_BYTES];
        /** Per code, the text shown: offset and length in {@code shown}; -1 length for the NULL code. */
        private int[] shownOffs = new int[16];
        private int[] shownLens = new int[16];
        private byte[] shown = new byte[256];
        private int shownUsed;
        private int shownCodes;

        NumericCoder(Expression e) {
            super(e);
        }

        @Override
        void codes(EvalContext ctx, int relation, int[] sel, int n, int[] out, BatchScratch s) {
            int[] slots = ctx.slots;
            for (int i = 0; i < n; i++) {
                slots[relation] = sel[i];
                long u = expr.evalNumeric(ctx);
                if (ctx.isNull) {
                    out[i] = keys.nullCode();
                    if (shownCodes < keys.size()) {
                        remember(0, 0, -1, null);
                    }
                    continue;
                }
                int scale = ctx.numScale;
                java.math.BigDecimal big = ctx.numBig;
                int k = io.respsql.expr.Numeric.writeKey(u, scale, big, key, 0);
                if (k < 0) {
                    key = new byte[-k];
                    k = io.respsql.expr.Numeric.writeKey(u, scale, big, key, 0);
                }
                int code = keys.code(key, 0, k);
                out[i] = code;
                if (shownCodes < keys.size()) {
                    remember(u, scale, 1, big);
                }
            }
        }

        /** Records the text of the code just added ({@code kind} -1: the NULL code). */
        private void remember(long u, int scale, int kind, java.math.BigDecimal big) {
            int id = shownCodes++;
            if (id == shownOffs.length) {
                shownOffs = Arrays.copyOf(shownOffs, id * 2);
                shownLens = Arrays.copyOf(shownLens, id * 2);
            }
            if (kind < 0) {
                shownOffs[id] = 0;
                shownLens[id] = -1;
                return;
            }
            int t = io.respsql.expr.Numeric.writeText(u, scale, big, shown, shownUsed);
            if (t < 0) {
                shown = Arrays.copyOf(shown, Math.max(shown.length * 2, shownUsed - t));
                t = io.respsql.expr.Numeric.writeText(u, scale, big, shown, shownUsed);
            }
            shownOffs[id] = shownUsed;
            shownLens[id] = t;
            shownUsed += t;
        }

        @Override
        int size() {
            return keys.size();
        }

        @Override
        void write(Column c, int row, int code) {
            if (shownLens[code] < 0) {
                Outputs.writeNull(c, row);
            } else {
                Outputs.writeText(c, row, shown, shownOffs[code], shownLens[code]);
            }
        }
    }
}
