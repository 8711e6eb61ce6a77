package io.respsql.bench.soak;

import java.util.Arrays;
import java.util.BitSet;
import java.util.SplittableRandom;

/**
 * What one soak connection knows the table holds for its own keys, updated only by replies the
 * server acknowledged, and what each of its requests must get back.
 *
 * <p>Connection {@code c} owns the ids {@code base .. base + span - 1} ({@code base = c * span + 1})
 * and the fk groups {@code c * groups .. c * groups + groups - 1}; the row with local number
 * {@code l} has fk {@code c * groups + l % groups}. No other connection writes these keys, so the
 * model is exact. Values are kept without touching every row on an UPDATE: each group counts
 * the updates acknowledged for it, and a row remembers that count when it was inserted, so its
 * {@code v} is the difference.
 */
final class SoakModel {
    static final String TABLE = "soak";

    enum Kind { SEED, INSERT, SELECT, UPDATE, DELETE }

    /** The request in flight and the reply it must get. */
    static final class Op {
        Kind kind;
        /** Local row number (INSERT, SELECT, DELETE) or first seeded row (SEED). */
        int local;
        /** Rows a SEED inserts. */
        int count;
        /** Group range of an UPDATE, inclusive. */
        int g1;
        int g2;
        String[] words;
    }

    final int conn;
    final int span;
    final int groups;
    final long base;
    private final int seedRows;

    /** Local numbers below this were inserted (or are being inserted). */
    private int next;
    private final BitSet present = new BitSet();
    private int[] stamp = new int[1024];
    private final int[] groupUpdates;
    private final int[] groupCount;
    private final Op op = new Op();

    SoakModel(int conn, int span, int groups, int seedRows) {
        if (span < groups || groups < 1) {
            throw new IllegalArgumentException("span " + span + " must be at least groups " + groups);
        }
        this.conn = conn;
        this.span = span;
        this.groups = groups;
        this.base = (long) conn * span + 1;
        this.seedRows = seedRows;
        this.groupUpdates = new int[groups];
        this.groupCount = new int[groups];
    }

    long id(int local) {
        return base + local;
    }

    long fk(int local) {
        return (long) conn * groups + local % groups;
    }

    long fkOfGroup(int g) {
        return (long) conn * groups + g;
    }

    /** The row's current value of {@code v} in the model. */
    int v(int local) {
        return groupUpdates[local % groups] - stamp[local];
    }

    boolean present(int local) {
        return present.get(local);
    }

    int rows() {
        return present.cardinality();
    }

    /** Local numbers handed out so far (present or deleted). */
    int issued() {
        return next;
    }

    /** True until the seed rows have been acknowledged. */
    boolean seeding() {
        return next < seedRows;
    }

    /** The next seed statement: up to 100 rows in one INSERT. */
    Op nextSeed() {
        int n = Math.min(100, seedRows - next);
        StringBuilder values = new StringBuilder(n * 24);
        for (int i = 0; i < n; i++) {
            int l = next + i;
            values.append(i > 0 ? "," : "").append('(').append(id(l)).append(',').append(fk(l)).append(",0)");
        }
        op.kind = Kind.SEED;
        op.local = next;
        op.count = n;
        op.words = new String[] {"INSERT", "INTO", TABLE, "VALUES", values.toString()};
        next += n;
        return op;
    }

    /**
     * The next timed request. {@code mix} holds cumulative weights for INSERT, SELECT, UPDATE,
     * DELETE ({@link SoakOptions#cumulativeMix()}).
     */
    Op next(SplittableRandom r, int[] mix) {
        int x = r.nextInt(mix[3]);
        Kind kind = x < mix[0] ? Kind.INSERT : x < mix[1] ? Kind.SELECT : x < mix[2] ? Kind.UPDATE : Kind.DELETE;
        if (kind == Kind.INSERT && next >= span) {
            kind = Kind.SELECT; // this connection's id range is used up
        }
        if (next == 0 && kind != Kind.UPDATE) {
            kind = Kind.INSERT;
        }
        op.kind = kind;
        switch (kind) {
            case INSERT -> {
                int l = next++;
                op.local = l;
                op.words = new String[] {"INSERT", "INTO", TABLE, "VALUES", "(" + id(l) + "," + fk(l) + ",0)"};
            }
            case SELECT -> {
                int l = r.nextInt(next);
                op.local = l;
                op.words = new String[] {"SELECT", "id,fk,v", "FROM", TABLE, "WHERE", "id = " + id(l)};
            }
            case DELETE -> {
                int l = r.nextInt(next);
                op.local = l;
                op.words = new String[] {"DELETE", "FROM", TABLE, "WHERE", "id = " + id(l)};
            }
            default -> {
                int g1 = r.nextInt(groups);
                int g2 = r.nextBoolean() ? g1 : Math.min(groups - 1, g1 + r.nextInt(3));
                op.g1 = g1;
                op.g2 = g2;
                String where = g1 == g2 ? "fk = " + fkOfGroup(g1)
                        : "fk BETWEEN " + fkOfGroup(g1) + " AND " + fkOfGroup(g2);
                op.words = new String[] {"UPDATE", TABLE, "SET", "v = v + 1", "WHERE", where};
            }
        }
        return op;
    }

    /**
     * Checks the reply to the request in flight and, when it is right, applies the request to
     * the model.
     *
     * @return null when the reply is the one expected, else what is wrong
     */
    String acknowledge(Reply reply) {
        switch (op.kind) {
            case SEED, INSERT -> {
                if (!reply.isStatus("OK")) {
                    return "expected +OK, got " + reply;
                }
                int n = op.kind == Kind.SEED ? op.count : 1;
                for (int l = op.local; l < op.local + n; l++) {
                    if (l >= stamp.length) {
                        stamp = Arrays.copyOf(stamp, Math.max(l + 1, stamp.length * 2));
                    }
                    stamp[l] = groupUpdates[l % groups];
                    present.set(l);
                    groupCount[l % groups]++;
                }
            }
            case SELECT -> {
                String want = present(op.local) ? expectedRow(op.local) : null;
                if (!reply.isArray() || reply.items().size() != (want == null ? 0 : 1)
                        || want != null && !want.equals(reply.items().get(0))) {
                    return "expected " + (want == null ? "no row" : "the row " + want) + ", got " + reply;
                }
            }
            case UPDATE -> {
                long want = 0;
                for (int g = op.g1; g <= op.g2; g++) {
                    want += groupCount[g];
                }
                if (!reply.isInteger(want)) {
                    return "expected :" + want + " (rows in the fk range), got " + reply;
                }
                for (int g = op.g1; g <= op.g2; g++) {
                    groupUpdates[g]++;
                }
            }
            case DELETE -> {
                boolean had = present(op.local);
                if (!reply.isInteger(had ? 1 : 0)) {
                    return "expected :" + (had ? 1 : 0) + ", got " + reply;
                }
                if (had) {
                    present.clear(op.local);
                    groupCount[op.local % groups]--;
                }
            }
        }
        return null;
    }

    /** The in-flight request as text, for messages. */
    String describe() {
        return op.words == null ? "(none)" : String.join(" ", op.words);
    }

    /** The row as {@code SELECT id,fk,v} returns it. */
    String expectedRow(int local) {
        return id(local) + "," + fk(local) + "," + v(local);
    }

    /** Rows the model holds in fk group {@code g}. */
    int groupCount(int g) {
        return groupCount[g];
    }

    /** The next present local number at or after {@code from}, or -1. */
    int nextPresent(int from) {
        return present.nextSetBit(from);
    }
}
