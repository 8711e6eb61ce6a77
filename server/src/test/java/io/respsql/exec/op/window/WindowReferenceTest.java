package io.respsql.exec.op.window;

import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.tree.Expr.BoundKind;
import io.respsql.sql.tree.Expr.Exclusion;
import io.respsql.sql.tree.Expr.FrameUnit;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;

import static io.respsql.exec.op.window.WindowFunctionKind.*;
import static io.respsql.exec.op.window.WindowTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The operator against a naive O(n^2) reference on random data: every frame is found by testing
 * each row of the partition against the frame's definition (ROWS by position, RANGE by comparing
 * the order key with the current row's, NULL keys at the sort's NULL end; GROUPS by numbering
 * peer groups; EXCLUDE by testing each row against the current row), then aggregated from
 * scratch. Ties, NULLs, partitions, both directions and both NULL placements are all drawn.
 */
class WindowReferenceTest {
    private static final BoundKind[] STARTS = {BoundKind.UNBOUNDED_PRECEDING, BoundKind.PRECEDING, BoundKind.CURRENT_ROW, BoundKind.FOLLOWING};
    private static final BoundKind[] ENDS = {BoundKind.PRECEDING, BoundKind.CURRENT_ROW, BoundKind.FOLLOWING, BoundKind.UNBOUNDED_FOLLOWING};

    /** One random case: the columns and the window. */
    private static final class Case {
        int n;
        Long[] part;
        /** Serve the partition key / order key k as TEXT (same order: one letter per value). */
        boolean textPartition;
        boolean[] textKey;
        Long[][] ord;
        boolean[] descending;
        boolean[] nullsFirst;
        Long[] val;
        Double[] dval;
        FrameUnit unit;
        BoundKind sk;
        long sn;
        BoundKind ek;
        long en;
        Exclusion ex = Exclusion.NO_OTHERS;

        int cmpValue(Long a, Long b, boolean desc, boolean nf) {
            if (a == null || b == null) {
                if (a == b) {
                    return 0;
                }
                return (a == null) == nf ? -1 : 1;
            }
            int c = Long.compare(a, b);
            return desc ? -c : c;
        }

        int cmpPartition(int a, int b) {
            return part == null ? 0 : cmpValue(part[a], part[b], false, false);
        }

        int cmpOrder(int a, int b) {
            for (int k = 0; k < ord.length; k++) {
                int c = cmpValue(ord[k][a], ord[k][b], descending[k], nullsFirst[k]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        }
    }

    private static Long maybeNull(Random rnd, long v, int nullPercent) {
        return rnd.nextInt(100) < nullPercent ? null : v;
    }

    private static Case randomCase(Random rnd) {
        Case c = new Case();
        c.n = rnd.nextInt(10) == 0 ? rnd.nextInt(3) : rnd.nextInt(60);
        int parts = rnd.nextInt(4);
        if (parts > 0) {
            c.part = new Long[c.n];
            for (int i = 0; i < c.n; i++) {
                c.part[i] = maybeNull(rnd, rnd.nextInt(parts), 10);
            }
        }
        int keys = rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(4) == 0 ? 2 : 1;
        c.ord = new Long[keys][c.n];
        c.descending = new boolean[keys];
        c.nullsFirst = new boolean[keys];
        int spread = 1 + rnd.nextInt(12);
        for (int k = 0; k < keys; k++) {
            c.descending[k] = rnd.nextBoolean();
            c.nullsFirst[k] = rnd.nextInt(3) == 0 ? !c.descending[k] : c.descending[k];
            for (int i = 0; i < c.n; i++) {
                c.ord[k][i] = maybeNull(rnd, rnd.nextInt(spread) - 3, 15);
            }
        }
        c.val = new Long[c.n];
        c.dval = new Double[c.n];
        for (int i = 0; i < c.n; i++) {
            c.val[i] = maybeNull(rnd, rnd.nextInt(41) - 20, 20);
            c.dval[i] = c.val[i] == null ? null : c.val[i] * 0.37 + (rnd.nextInt(5) == 0 ? 1e6 : 0);
        }
        while (true) {
            c.unit = keys != 1 || rnd.nextBoolean() ? (rnd.nextBoolean() ? FrameUnit.ROWS : keys > 0 && rnd.nextBoolean() ? FrameUnit.GROUPS : FrameUnit.RANGE)
                    : FrameUnit.RANGE;
            c.ex = rnd.nextInt(3) == 0 ? Exclusion.NO_OTHERS : Exclusion.values()[rnd.nextInt(4)];
            c.sk = STARTS[rnd.nextInt(STARTS.length)];
            c.ek = ENDS[rnd.nextInt(ENDS.length)];
            c.sn = rnd.nextInt(4);
            c.en = rnd.nextInt(4);
            boolean offsets = c.sk == BoundKind.PRECEDING || c.sk == BoundKind.FOLLOWING || c.ek == BoundKind.PRECEDING
                    || c.ek == BoundKind.FOLLOWING;
            if (c.unit == FrameUnit.RANGE && offsets && keys != 1) {
                continue;
            }
            c.textPartition = rnd.nextInt(4) == 0;
            c.textKey = new boolean[keys];
            for (int k = 0; k < keys; k++) {
                c.textKey[k] = !(c.unit == FrameUnit.RANGE && offsets) && rnd.nextInt(3) == 0;
            }
            try {
                frameOf(c);
                return c;
            } catch (SqlException e) {
                // A combination PostgreSQL rejects: draw again.
            }
        }
    }

    private static WindowFrame frameOf(Case c) {
        boolean so = c.sk == BoundKind.PRECEDING || c.sk == BoundKind.FOLLOWING;
        boolean eo = c.ek == BoundKind.PRECEDING || c.ek == BoundKind.FOLLOWING;
        return new WindowFrame(c.unit, c.sk, so ? lit(c.sn) : null, c.ek, eo ? lit(c.en) : null, c.ex);
    }

    /** Input slots in window order: partition, order keys, then input order (the stable sort's tie-break). */
    private static List<Integer> referenceOrder(Case c) {
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < c.n; i++) {
            idx.add(i);
        }
        idx.sort(((Comparator<Integer>) c::cmpPartition).thenComparing(c::cmpOrder).thenComparing(Comparator.naturalOrder()));
        return idx;
    }

    /** Whether sorted position {@code j} is in the frame of sorted position {@code i} (same partition). */
    private static boolean inFrame(Case c, List<Integer> s, int i, int j) {
        if (!bound(c, s, i, j, c.sk, c.sn, true) || !bound(c, s, i, j, c.ek, c.en, false)) {
            return false;
        }
        boolean peers = c.cmpOrder(s.get(i), s.get(j)) == 0;
        switch (c.ex) {
            case CURRENT_ROW:
                return j != i;
            case GROUP:
                return !peers;
            case TIES:
                return j == i || !peers;
            default:
                return true;
        }
    }

    /** The number of peer groups before sorted position {@code i} in its partition. */
    private static long group(Case c, List<Integer> s, int i) {
        long g = 0;
        for (int j = i - 1; j >= 0 && c.cmpPartition(s.get(j), s.get(i)) == 0; j--) {
            if (c.cmpOrder(s.get(j), s.get(j + 1)) != 0) {
                g++;
            }
        }
        return g;
    }

    private static boolean bound(Case c, List<Integer> s, int i, int j, BoundKind kind, long n, boolean isStart) {
        if (kind == BoundKind.UNBOUNDED_PRECEDING || kind == BoundKind.UNBOUNDED_FOLLOWING) {
            return true;
        }
        int cmp;
        if (c.unit == FrameUnit.ROWS) {
            long target = kind == BoundKind.PRECEDING ? i - n : kind == BoundKind.FOLLOWING ? i + n : i;
            cmp = Long.compare(j, target);
        } else if (c.unit == FrameUnit.GROUPS && kind != BoundKind.CURRENT_ROW) {
            long g = group(c, s, i);
            long target = kind == BoundKind.PRECEDING ? g - n : g + n;
            cmp = Long.compare(group(c, s, j), target);
        } else if (kind == BoundKind.CURRENT_ROW) {
            cmp = c.cmpOrder(s.get(j), s.get(i));
        } else {
            Long v = c.ord[0][s.get(i)];
            Long target = null;
            if (v != null) {
                boolean smaller = (kind == BoundKind.PRECEDING) != c.descending[0];
                target = smaller ? v - n : v + n;
            }
            cmp = c.cmpValue(c.ord[0][s.get(j)], target, c.descending[0], c.nullsFirst[0]);
        }
        return isStart ? cmp >= 0 : cmp <= 0;
    }

    private static Object aggregate(WindowFunctionKind kind, List<Integer> frame, Long[] v) {
        long sum = 0;
        long count = 0;
        Long min = null;
        Long max = null;
        for (int slot : frame) {
            Long x = v[slot];
            if (x != null) {
                sum += x;
                count++;
                min = min == null || x < min ? x : min;
                max = max == null || x > max ? x : max;
            }
        }
        switch (kind) {
            case SUM:
                return count == 0 ? null : (Object) sum;
            case AVG:
                return count == 0 ? null : (Object) ((double) sum / count);
            case COUNT:
                return count;
            case COUNT_STAR:
                return (long) frame.size();
            case MIN:
                return min;
            case MAX:
                return max;
            case FIRST_VALUE:
                return frame.isEmpty() ? null : v[frame.get(0)];
            case LAST_VALUE:
                return frame.isEmpty() ? null : v[frame.get(frame.size() - 1)];
            case NTH_VALUE:
                return frame.size() < 2 ? null : v[frame.get(1)];
            default:
                throw new IllegalStateException();
        }
    }

    private static Object doubleAggregate(WindowFunctionKind kind, List<Integer> frame, Double[] v) {
        double sum = 0;
        long count = 0;
        Double min = null;
        Double max = null;
        for (int slot : frame) {
            Double x = v[slot];
            if (x != null) {
                sum += x;
                count++;
                min = min == null || x < min ? x : min;
                max = max == null || x > max ? x : max;
            }
        }
        switch (kind) {
            case SUM:
                return count == 0 ? null : (Object) sum;
            case AVG:
                return count == 0 ? null : (Object) (sum / count);
            case MIN:
                return min;
            case MAX:
                return max;
            default:
                throw new IllegalStateException();
        }
    }

    private static final WindowFunctionKind[] FRAMED = {SUM, AVG, COUNT, COUNT_STAR, MIN, MAX, FIRST_VALUE, LAST_VALUE, NTH_VALUE};
    private static final WindowFunctionKind[] FRAMED_DOUBLE = {SUM, AVG, MIN, MAX};

    @Test
    void framedAggregatesMatchTheNaiveReference() {
        Random rnd = new Random(20261201L);
        for (int trial = 0; trial < 2000; trial++) {
            Case c = randomCase(rnd);
            check(c, trial);
        }
    }

    /**
     * Grouped input (an index walk: one partition buffered and computed at a time, every batch
     * reusing the run's scratch arrays, value buffers and evaluators) against the same
     * reference: partition sizes 1 between larger ones, each large one larger than any before
     * (the scratch must grow mid-run), TEXT or integer partition keys, and NULL order keys and
     * values only from the fifth partition on (the buffers' NULL flags appear mid-run, and the
     * reused entries after them must read as not NULL).
     */
    @Test
    void groupedRunsReuseTheirScratchAcrossPartitionsOfEverySize() {
        int[] sizes = {1, 3, 1, 40, 1, 2, 1, 150, 1, 1, 7, 420, 1, 33, 1, 600, 2, 1};
        Random rnd = new Random(20261202L);
        for (int trial = 0; trial < 12; trial++) {
            Case c;
            do {
                c = randomCase(rnd);
            } while (c.ord.length == 0 && trial % 3 != 0);
            int n = 0;
            for (int size : sizes) {
                n += size;
            }
            // slots dealt to partitions at random; the walk visits them grouped, the last partition's key NULL
            List<Integer> slots = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                slots.add(i);
            }
            java.util.Collections.shuffle(slots, rnd);
            Long[] part = new Long[n];
            int[] walk = new int[n];
            int[] partOf = new int[n];
            int at = 0;
            for (int p = 0; p < sizes.length; p++) {
                List<Integer> mine = new ArrayList<>(slots.subList(at, at + sizes[p]));
                mine.sort(null); // input order within a partition: the stable sort's tie-break
                for (int slot : mine) {
                    part[slot] = p == sizes.length - 1 ? null : (long) p;
                    partOf[slot] = p;
                    walk[at++] = slot;
                }
            }
            Long[][] ord = new Long[c.ord.length][n];
            Long[] val = new Long[n];
            Double[] dval = new Double[n];
            int spread = 1 + rnd.nextInt(12);
            for (int i = 0; i < n; i++) {
                int nullPercent = partOf[i] < 4 ? 0 : 1;
                for (int k = 0; k < ord.length; k++) {
                    ord[k][i] = maybeNull(rnd, rnd.nextInt(spread) - 3, 15 * nullPercent);
                }
                val[i] = maybeNull(rnd, rnd.nextInt(41) - 20, 20 * nullPercent);
                dval[i] = val[i] == null ? null : val[i] * 0.37 + (rnd.nextInt(5) == 0 ? 1e6 : 0);
            }
            c.n = n;
            c.part = part;
            c.ord = ord;
            c.val = val;
            c.dval = dval;
            check(c, trial, walk);
        }
    }

    private static void check(Case c, int trial) {
        check(c, trial, null);
    }

    /** {@code walk} non-null: the input comes in that order, grouped by partition, and the run is told so. */
    private static void check(Case c, int trial, int[] walk) {
        Expression value = new LongCol("v", SqlType.INT, c.val);
        Expression dvalue = new DoubleCol(c.dval);
        Expression[] partition = c.part == null ? parts()
                : parts(c.textPartition ? asText(c.part) : new LongCol("p", SqlType.BIGINT, c.part));
        WindowSortKey[] order = new WindowSortKey[c.ord.length];
        for (int k = 0; k < order.length; k++) {
            Expression e = c.textKey != null && c.textKey[k] ? asText(c.ord[k]) : new LongCol("o" + k, SqlType.BIGINT, c.ord[k]);
            order[k] = new WindowSortKey(e, c.descending[k], c.nullsFirst[k]);
        }
        WindowFrame frame = frameOf(c);
        long ntile = 1 + (c.n == 0 ? 0 : trial % (c.n + 2));
        long lagOffset = trial % 5 - 1;
        List<WindowFunctionSpec> fns = new ArrayList<>();
        for (WindowFunctionKind k : FRAMED) {
            fns.add(k == COUNT_STAR ? fn(k, frame) : k == NTH_VALUE ? fn(k, frame, value, lit(2)) : fn(k, frame, value));
        }
        for (WindowFunctionKind k : FRAMED_DOUBLE) {
            fns.add(fn(k, frame, dvalue));
        }
        fns.add(fn(ROW_NUMBER));
        fns.add(fn(RANK));
        fns.add(fn(DENSE_RANK));
        fns.add(fn(NTILE, lit(ntile)));
        fns.add(fn(LAG, value, lit(lagOffset), lit(99)));
        fns.add(fn(LEAD, value, lit(lagOffset)));
        fns.add(fn(PERCENT_RANK));
        fns.add(fn(CUME_DIST));
        WindowFunctionSpec[] specs = fns.toArray(new WindowFunctionSpec[0]);
        Result r = walk == null ? run(c.n, partition, order, specs)
                : run(new OrderedScan(walk), c.n, null, true, -1, partition, order, specs);

        List<Integer> s = referenceOrder(c);
        String where = (walk == null ? "" : "grouped ") + "trial " + trial + " frame " + frame.describe() + " keys " + c.ord.length;
        assertEquals(s.size(), r.order.size(), where);
        for (int i = 0; i < s.size(); i++) {
            // Peers may come in any order in PostgreSQL; here the sort is stable, so exactly this one.
            assertEquals(s.get(i), r.order.get(i), where + " position " + i);
        }
        int ps = 0;
        while (ps < s.size()) {
            int pe = ps + 1;
            while (pe < s.size() && c.cmpPartition(s.get(ps), s.get(pe)) == 0) {
                pe++;
            }
            for (int i = ps; i < pe; i++) {
                int slot = s.get(i);
                List<Integer> members = new ArrayList<>();
                for (int j = ps; j < pe; j++) {
                    if (inFrame(c, s, i, j)) {
                        members.add(s.get(j));
                    }
                }
                String at = where + " slot " + slot + " frame rows " + members;
                int f = 0;
                for (WindowFunctionKind k : FRAMED) {
                    assertEquals(aggregate(k, members, c.val), r.values[slot][f++], at + " " + k);
                }
                for (WindowFunctionKind k : FRAMED_DOUBLE) {
                    Object want = doubleAggregate(k, members, c.dval);
                    Object got = r.values[slot][f++];
                    if (want == null || got == null || (c.sk == BoundKind.UNBOUNDED_PRECEDING && c.ex == Exclusion.NO_OTHERS)) {
                        // A running frame adds in row order, as PostgreSQL does: the same double exactly.
                        assertEquals(want, got, at + " double " + k);
                    } else {
                        assertEquals((Double) want, (Double) got, 1e-6, at + " double " + k);
                    }
                }
                long rank = 1;
                long dense = 1;
                for (int j = ps; j < i; j++) {
                    if (c.cmpOrder(s.get(j), slot) < 0) {
                        rank++;
                        if (j == ps || c.cmpOrder(s.get(j), s.get(j - 1)) != 0) {
                            dense++;
                        }
                    }
                }
                assertEquals((long) (i - ps + 1), r.values[slot][f++], at + " ROW_NUMBER");
                assertEquals(rank, r.values[slot][f++], at + " RANK");
                assertEquals(dense, r.values[slot][f++], at + " DENSE_RANK");
                assertEquals(referenceNtile(pe - ps, ntile, i - ps), r.values[slot][f++], at + " NTILE " + ntile);
                long back = i - lagOffset;
                Object lag = back >= ps && back < pe ? c.val[s.get((int) back)] : (Object) 99L;
                assertEquals(lag, r.values[slot][f++], at + " LAG " + lagOffset);
                long ahead = i + lagOffset;
                Object lead = ahead >= ps && ahead < pe ? c.val[s.get((int) ahead)] : null;
                assertEquals(lead, r.values[slot][f++], at + " LEAD " + lagOffset);
                long upToLastPeer = i - ps + 1;
                while (ps + upToLastPeer < pe && c.cmpOrder(s.get((int) (ps + upToLastPeer)), slot) == 0) {
                    upToLastPeer++;
                }
                assertEquals(pe - ps == 1 ? 0.0 : (rank - 1) / (double) (pe - ps - 1), r.values[slot][f++], at + " PERCENT_RANK");
                assertEquals(upToLastPeer / (double) (pe - ps), r.values[slot][f++], at + " CUME_DIST");
            }
            ps = pe;
        }
    }

    /** Small integers as one-letter TEXT, so bytewise order is numeric order. */
    private static Expression asText(Long[] v) {
        String[] t = new String[v.length];
        for (int i = 0; i < v.length; i++) {
            t[i] = v[i] == null ? null : String.valueOf((char) ('m' + v[i]));
        }
        return new TextCol(t);
    }

    /** Deals rows one bucket at a time: the first (rows % n) buckets get one more. */
    private static long referenceNtile(int rows, long n, int k) {
        int pos = 0;
        for (long b = 1; b <= n; b++) {
            long size = rows / n + (b <= rows % n ? 1 : 0);
            if (k < pos + size) {
                return b;
            }
            pos += size;
        }
        throw new IllegalStateException();
    }

    @Test
    void referenceAgreesOnAHandCase() {
        // Guards the reference itself: ROWS 1 PRECEDING AND 1 FOLLOWING over 1, NULL, 3.
        Case c = new Case();
        c.n = 3;
        c.ord = new Long[][] {{1L, 2L, 3L}};
        c.descending = new boolean[1];
        c.nullsFirst = new boolean[1];
        c.val = new Long[] {1L, null, 3L};
        c.dval = new Double[] {1.0, null, 3.0};
        c.unit = FrameUnit.ROWS;
        c.sk = BoundKind.PRECEDING;
        c.sn = 1;
        c.ek = BoundKind.FOLLOWING;
        c.en = 1;
        List<Integer> s = referenceOrder(c);
        List<Integer> frame = new ArrayList<>();
        for (int j = 0; j < 3; j++) {
            if (inFrame(c, s, 2, j)) {
                frame.add(j);
            }
        }
        assertEquals(List.of(1, 2), frame);
        assertTrue(Objects.equals(3L, aggregate(SUM, frame, c.val)));
        check(c, 7);
    }
}
