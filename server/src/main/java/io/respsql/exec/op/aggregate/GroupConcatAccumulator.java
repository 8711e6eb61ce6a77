package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Keys;
import io.respsql.exec.op.Outputs;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * GROUP_CONCAT([DISTINCT] x[, sep]): the group's non-NULL values as text, in arrival order,
 * joined by the separator; NULL with no value. Values go into one shared byte arena as pieces
 * chained per group (head/tail/next int arrays), not a buffer object per group; the text is
 * assembled when the group is written.
 */
final class GroupConcatAccumulator extends Accumulator {
    private final byte[] separator;
    private int[] head = new int[0];
    private int[] tail = new int[0];
    private int[] total = new int[0];
    private int[] pieceOff = new int[64];
    private int[] pieceLen = new int[64];
    private int[] pieceNext = new int[64];
    private int pieces;
    private byte[] arena = new byte[1024];
    private int arenaUsed;
    private byte[] out = new byte[0];

    GroupConcatAccumulator(Expression arg, boolean distinct, byte[] separator) {
        super(arg, distinct);
        this.separator = separator;
    }

    @Override
    void grow(int capacity) {
        int n = grown(head.length, capacity);
        int old = head.length;
        head = Arrays.copyOf(head, n);
        tail = Arrays.copyOf(tail, n);
        total = Arrays.copyOf(total, n);
        Arrays.fill(head, old, n, -1);
    }

    private void ensureArena(int n) {
        if (arenaUsed + n > arena.length) {
            arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + n));
        }
    }

    /** Chains the arena bytes {@code [start, arenaUsed)} to group {@code g}. */
    private void link(int g, int start) {
        if (pieces == pieceOff.length) {
            pieceOff = Arrays.copyOf(pieceOff, pieces * 2);
            pieceLen = Arrays.copyOf(pieceLen, pieces * 2);
            pieceNext = Arrays.copyOf(pieceNext, pieces * 2);
        }
        int p = pieces++;
        pieceOff[p] = start;
        pieceLen[p] = arenaUsed - start;
        pieceNext[p] = -1;
        if (head[g] < 0) {
            head[g] = p;
        } else {
            pieceNext[tail[g]] = p;
            total[g] += separator.length;
        }
        tail[g] = p;
        total[g] += arenaUsed - start;
    }

    @Override
    void addLong(int g, long v) {
        ensureArena(20);
        int start = arenaUsed;
        arenaUsed = formatLong(v, arena, start);
        link(g, start);
    }

    @Override
    void addDouble(int g, double d) {
        // Double formatting allocates; GROUP_CONCAT of DOUBLEs is rare enough to accept it.
        byte[] b = Double.toString(d).getBytes(StandardCharsets.US_ASCII);
        addText(g, b, 0, b.length);
    }

    @Override
    void addText(int g, byte[] b, int o, int n) {
        ensureArena(n);
        int start = arenaUsed;
        System.arraycopy(b, o, arena, start, n);
        arenaUsed += n;
        link(g, start);
    }

    /** Writes {@code v}'s decimal digits at {@code at}; returns the position after them. */
    static int formatLong(long v, byte[] b, int at) {
        if (v == Long.MIN_VALUE) {
            byte[] m = "-9223372036854775808".getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(m, 0, b, at, m.length);
            return at + m.length;
        }
        if (v < 0) {
            b[at++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        for (int i = at + digits - 1; i >= at; i--) {
            b[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return at + digits;
    }

    @Override
    void write(Column c, int row, int g) {
        if (head[g] < 0) {
            Outputs.writeNull(c, row);
            return;
        }
        if (out.length < total[g]) {
            out = new byte[Math.max(total[g], out.length * 2)];
        }
        int n = 0;
        for (int p = head[g]; p >= 0; p = pieceNext[p]) {
            if (p != head[g]) {
                System.arraycopy(separator, 0, out, n, separator.length);
                n += separator.length;
            }
            System.arraycopy(arena, pieceOff[p], out, n, pieceLen[p]);
            n += pieceLen[p];
        }
        Outputs.writeText(c, row, out, 0, n);
    }
}
