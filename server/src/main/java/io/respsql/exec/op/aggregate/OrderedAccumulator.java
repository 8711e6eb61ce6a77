package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Outputs;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Column;

import java.util.Arrays;

/**
 * The aggregates whose value depends on the order of their input (issue 25): the ordered-set
 * aggregates percentile_cont, percentile_disc and mode() WITHIN GROUP (ORDER BY k), and
 * string_agg / group_concat with an ORDER BY inside the call. Every taken row's group, sort keys
 * and (string_agg) value go into flat primitive arrays and one byte arena (no object per row);
 * when the first group is written, row numbers are sorted once by (group, keys) and each group's
 * result is computed from its run.
 */
final class OrderedAccumulator extends Accumulator {
    private static final byte LONG = 0;
    private static final byte DOUBLE = 1;
    private static final byte TEXT = 2;
    /** NUMERIC: ordered by its nearest double, its text kept as the value. */
    private static final byte NUMERIC = 3;

    private final AggregateSpec.Kind fn;
    private final Expression[] keys;
    private final byte[] keyKinds;
    private final boolean[] desc;
    private final boolean[] nullsFirst;
    private final boolean distinctValues;
    /** string_agg's value (null for the ordered-set aggregates: their value is key 0). */
    private final Expression value;
    private final byte[] separator;
    /** percentile_*'s fraction; NaN when NULL (the result is then NULL). */
    private final double fraction;
    private final boolean fractionNull;

    private int rows;
    private int[] group = new int[64];
    private long[][] longs;
    private double[][] doubles;
    private int[][] textOff;
    private int[][] textLen;
    private boolean[][] nulls;
    private int[] valueOff = new int[64];
    private int[] valueLen = new int[64];
    private byte[] arena = new byte[1024];
    private int arenaUsed;

    private int groups;
    private int[] sorted;
    private int[] start;
    private int[] end;
    private byte[] out = new byte[64];

    OrderedAccumulator(AggregateSpec spec, EvalContext ctx) {
        super(null, false);
        this.fn = spec.kind();
        if (fn.orderedSet()) {
            this.keys = new Expression[] {spec.argument()};
            this.desc = new boolean[] {spec.orderDesc()[0]};
            this.nullsFirst = new boolean[] {spec.orderNullsFirst()[0]};
            this.value = null;
            this.separator = null;
        } else if (fn == AggregateSpec.Kind.ARRAY_AGG) { // arrays: DISTINCT without ORDER BY sorts by the value, as PostgreSQL
            boolean byValue = spec.distinct() && spec.order().length == 0;
            this.keys = byValue ? new Expression[] {spec.argument()} : spec.order();
            this.desc = byValue ? new boolean[] {false} : spec.orderDesc();
            this.nullsFirst = byValue ? new boolean[] {false} : spec.orderNullsFirst();
            this.value = spec.argument();
            this.separator = null;
        } else {
            this.keys = spec.order();
            this.desc = spec.orderDesc();
            this.nullsFirst = spec.orderNullsFirst();
            this.value = spec.argument();
            this.separator = spec.separatorBytes(ctx);
        }
        this.distinctValues = spec.distinct();
        int k = keys.length;
        keyKinds = new byte[k];
        for (int j = 0; j < k; j++) {
            SqlType t = keys[j].type();
            keyKinds[j] = t == SqlType.NUMERIC ? NUMERIC : t == SqlType.DOUBLE ? DOUBLE : t.isTextCarried() ? TEXT : LONG;
            if (fn == AggregateSpec.Kind.PERCENTILE_CONT && keyKinds[j] != DOUBLE && keyKinds[j] != LONG && keyKinds[j] != NUMERIC) {
                throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function percentile_cont(double precision ORDER BY "
                        + t.sqlName().toLowerCase(java.util.Locale.ROOT) + ") does not exist");
            }
        }
        longs = new long[k][64];
        doubles = new double[k][64];
        textOff = new int[k][64];
        textLen = new int[k][64];
        nulls = new boolean[k][64];
        Expression f = spec.second();
        double fr = 0;
        boolean frNull = false;
        if (f != null) {
            fr = f.evalDouble(ctx);
            frNull = ctx.isNull;
        }
        this.fraction = fr;
        this.fractionNull = frNull;
        if (fn.hypothetical()) { // the hypothetical row's value, as the key's kind
            switch (keyKinds[0]) {
                case LONG:
                    hypLong = f.type() == SqlType.DOUBLE || f.type() == SqlType.NUMERIC ? 0 : f.evalLong(ctx);
                    hypDouble = f.evalDouble(ctx);
                    break;
                case TEXT: {
                    byte[] b = f.evalText(ctx);
                    hypText = ctx.isNull || b == null ? new byte[0]
                            : Arrays.copyOfRange(b, ctx.textOffset, ctx.textOffset + ctx.textLength);
                    break;
                }
                default:
                    hypDouble = f.evalDouble(ctx);
            }
            hypNull = ctx.isNull;
            hypAsDouble = keyKinds[0] != TEXT && (keyKinds[0] != LONG || f.type() == SqlType.DOUBLE || f.type() == SqlType.NUMERIC);
        }
    }

    // ---- hypothetical-set aggregates ----
    private long hypLong;
    private double hypDouble;
    private byte[] hypText;
    private boolean hypNull;
    private boolean hypAsDouble;

    /** Row r against the hypothetical row in the WITHIN GROUP order: negative when r sorts first. */
    private int compareHypothetical(int r) {
        boolean nr = nulls[0][r];
        if (nr || hypNull) {
            if (nr == hypNull) {
                return 0;
            }
            return nr == nullsFirst[0] ? -1 : 1;
        }
        int c;
        if (keyKinds[0] == TEXT) {
            c = Arrays.compareUnsigned(arena, textOff[0][r], textOff[0][r] + textLen[0][r], hypText, 0, hypText.length);
        } else if (hypAsDouble || keyKinds[0] != LONG) {
            c = Double.compare(keyDouble(r), hypDouble);
            if (keyDouble(r) == 0.0 && hypDouble == 0.0) {
                c = 0;
            }
        } else {
            c = Long.compare(longs[0][r], hypLong);
        }
        return desc[0] ? -c : c;
    }

    private void writeHypothetical(Column c, int row, int from, int to) {
        long before = 0;
        long beforeOrPeer = 0;
        long distinctBefore = 0;
        for (int i = from; i < to; i++) {
            int r = sorted[i];
            int cmp = compareHypothetical(r);
            if (cmp < 0) {
                before++;
                if (i == from || compareKey(0, sorted[i - 1], r) != 0) {
                    distinctBefore++;
                }
            }
            if (cmp <= 0) {
                beforeOrPeer++;
            }
        }
        long n = to - from;
        switch (fn) {
            case RANK:
                Outputs.writeLong(c, row, before + 1);
                break;
            case DENSE_RANK:
                Outputs.writeLong(c, row, distinctBefore + 1);
                break;
            case PERCENT_RANK:
                Outputs.writeDouble(c, row, n == 0 ? 0.0 : (double) before / n);
                break;
            default:
                Outputs.writeDouble(c, row, (double) (beforeOrPeer + 1) / (n + 1));
        }
    }

    @Override
    void grow(int capacity) {
        // per-row buffers grow as rows come; nothing per group until the sort
    }

    private void ensureRows() {
        if (rows < group.length) {
            return;
        }
        int n = rows * 2;
        group = Arrays.copyOf(group, n);
        valueOff = Arrays.copyOf(valueOff, n);
        valueLen = Arrays.copyOf(valueLen, n);
        for (int j = 0; j < keys.length; j++) {
            longs[j] = Arrays.copyOf(longs[j], n);
            doubles[j] = Arrays.copyOf(doubles[j], n);
            textOff[j] = Arrays.copyOf(textOff[j], n);
            textLen[j] = Arrays.copyOf(textLen[j], n);
            nulls[j] = Arrays.copyOf(nulls[j], n);
        }
    }

    private int copy(byte[] b, int off, int len) {
        if (arenaUsed + len > arena.length) {
            arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + len));
        }
        if (len > 0) {
            System.arraycopy(b, off, arena, arenaUsed, len);
        }
        int at = arenaUsed;
        arenaUsed += len;
        return at;
    }

    @Override
    void accumulate(EvalContext ctx, int g) {
        ensureRows();
        int r = rows;
        if (fn == AggregateSpec.Kind.ARRAY_AGG) { // arrays: each value's element text; NULL kept (length -1)
            String s = io.respsql.expr.PgArray.elementText(value, ctx);
            if (s == null) {
                valueOff[r] = arenaUsed;
                valueLen[r] = -1;
            } else {
                byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                valueOff[r] = copy(b, 0, b.length);
                valueLen[r] = b.length;
            }
        } else if (value != null) {
            byte[] b = value.evalText(ctx);
            if (ctx.isNull) {
                return;
            }
            int len = ctx.textLength;
            valueOff[r] = b == null ? copy(b, 0, 0) : copy(b, ctx.textOffset, len);
            valueLen[r] = b == null ? 0 : len;
        }
        for (int j = 0; j < keys.length; j++) {
            Expression e = keys[j];
            switch (keyKinds[j]) {
                case LONG:
                    longs[j][r] = e.evalLong(ctx);
                    break;
                case DOUBLE:
                    doubles[j][r] = e.evalDouble(ctx);
                    break;
                case NUMERIC: {
                    doubles[j][r] = e.evalDouble(ctx);
                    if (!ctx.isNull) {
                        byte[] b = e.evalText(ctx);
                        textLen[j][r] = ctx.textLength;
                        textOff[j][r] = copy(b, ctx.textOffset, ctx.textLength);
                    }
                    break;
                }
                default: {
                    byte[] b = e.evalText(ctx);
                    if (!ctx.isNull) {
                        textLen[j][r] = b == null ? 0 : ctx.textLength;
                        textOff[j][r] = b == null ? copy(b, 0, 0) : copy(b, ctx.textOffset, ctx.textLength);
                    }
                }
            }
            nulls[j][r] = ctx.isNull;
            if (ctx.isNull && value == null && !fn.hypothetical()) {
                return; // percentile_* and mode skip NULL keys (the hypothetical-set aggregates sort them)
            }
        }
        group[r] = g;
        rows = r + 1;
    }

    @Override
    void accumulateBatch(EvalContext ctx, int relation, int[] sel, int n, int[] gids, BatchScratch s) {
        int[] slots = ctx.slots;
        for (int i = 0; i < n; i++) {
            slots[relation] = sel[i];
            accumulate(ctx, gids[i]);
        }
    }

    /** Rows a and b by key j: negative, 0, positive (NULLs and DESC as asked). */
    private int compareKey(int j, int a, int b) {
        boolean na = nulls[j][a];
        boolean nb = nulls[j][b];
        if (na || nb) {
            if (na == nb) {
                return 0;
            }
            return na == nullsFirst[j] ? -1 : 1;
        }
        int c;
        switch (keyKinds[j]) {
            case LONG:
                c = Long.compare(longs[j][a], longs[j][b]);
                break;
            case DOUBLE:
            case NUMERIC:
                c = Double.compare(doubles[j][a], doubles[j][b]);
                if (doubles[j][a] == 0.0 && doubles[j][b] == 0.0) {
                    c = 0; // -0 = 0
                }
                break;
            default:
                c = Arrays.compareUnsigned(arena, textOff[j][a], textOff[j][a] + textLen[j][a],
                        arena, textOff[j][b], textOff[j][b] + textLen[j][b]);
        }
        return desc[j] ? -c : c;
    }

    private int compareRows(int a, int b) {
        int c = Integer.compare(group[a], group[b]);
        if (c != 0) {
            return c;
        }
        for (int j = 0; j < keys.length; j++) {
            c = compareKey(j, a, b);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a, b); // stable: arrival order among equals
    }

    private void finish() {
        int n = rows;
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        int[] tmp = new int[n];
        mergeSort(a, tmp, 0, n);
        sorted = a;
        int maxGroup = -1;
        for (int i = 0; i < n; i++) {
            maxGroup = Math.max(maxGroup, group[i]);
        }
        groups = maxGroup + 1;
        start = new int[groups];
        end = new int[groups];
        for (int i = 0; i < n; i++) {
            int g = group[a[i]];
            if (i == 0 || group[a[i - 1]] != g) {
                start[g] = i;
            }
            end[g] = i + 1;
        }
    }

    private void mergeSort(int[] a, int[] tmp, int lo, int hi) {
        if (hi - lo < 16) {
            for (int i = lo + 1; i < hi; i++) {
                int v = a[i];
                int k = i - 1;
                while (k >= lo && compareRows(a[k], v) > 0) {
                    a[k + 1] = a[k];
                    k--;
                }
                a[k + 1] = v;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid);
        mergeSort(a, tmp, mid, hi);
        if (compareRows(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, lo, tmp, lo, hi - lo);
        int i = lo;
        int k = mid;
        for (int o = lo; o < hi; o++) {
            if (k >= hi || (i < mid && compareRows(tmp[i], tmp[k]) <= 0)) {
                a[o] = tmp[i++];
            } else {
                a[o] = tmp[k++];
            }
        }
    }

    @Override
    void write(Column c, int row, int g) {
        if (sorted == null) {
            finish();
        }
        int from = g < groups ? start[g] : 0;
        int to = g < groups ? end[g] : 0;
        if (fn.hypothetical()) {
            writeHypothetical(c, row, from, to);
            return;
        }
        if (fn.orderedSet() && fractionNull) {
            Outputs.writeNull(c, row);
            return;
        }
        if ((fn == AggregateSpec.Kind.PERCENTILE_CONT || fn == AggregateSpec.Kind.PERCENTILE_DISC)
                && (fraction < 0 || fraction > 1 || Double.isNaN(fraction))) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "percentile value " + fractionText() + " is not between 0 and 1");
        }
        if (to <= from) {
            Outputs.writeNull(c, row);
            return;
        }
        switch (fn) {
            case PERCENTILE_DISC: {
                long count = to - from;
                long rownum = (long) Math.ceil(fraction * count);
                int at = from + (int) Math.max(rownum - 1, 0);
                writeKey(c, row, sorted[at]);
                return;
            }
            case PERCENTILE_CONT: {
                long count = to - from;
                double pos = fraction * (count - 1);
                long first = (long) Math.floor(pos);
                long second = (long) Math.ceil(pos);
                double lo = keyDouble(sorted[from + (int) first]);
                if (first == second) {
                    Outputs.writeDouble(c, row, lo);
                } else {
                    double hi = keyDouble(sorted[from + (int) second]);
                    Outputs.writeDouble(c, row, lo + (hi - lo) * (pos - first));
                }
                return;
            }
            case MODE: {
                int best = sorted[from];
                int bestFreq = 0;
                int runStart = from;
                for (int i = from; i <= to; i++) {
                    if (i == to || compareKey(0, sorted[runStart], sorted[i]) != 0) {
                        int freq = i - runStart;
                        if (freq > bestFreq) {
                            bestFreq = freq;
                            best = sorted[runStart];
                        }
                        runStart = i;
                    }
                }
                writeKey(c, row, best);
                return;
            }
            case ARRAY_AGG:
                writeArray(c, row, from, to);
                return;
            default:
                writeConcat(c, row, from, to);
        }
    }

    // ---- arrays ----

    /** array_agg's value: the group's values in order (DISTINCT: equal neighbours once); arrays of arrays one dimension more. */
    private void writeArray(Column c, int row, int from, int to) {
        java.util.List<String> items = new java.util.ArrayList<>();
        int[] inner = null;
        int count = 0;
        int prev = -1;
        for (int i = from; i < to; i++) {
            int r = sorted[i];
            if (distinctValues && prev >= 0 && valueLen[prev] == valueLen[r] && (valueLen[r] < 0 || sameValue(prev, r))) {
                continue;
            }
            prev = r;
            String s = valueLen[r] < 0 ? null : new String(arena, valueOff[r], valueLen[r], java.nio.charset.StandardCharsets.UTF_8);
            if (value.type().isArray()) {
                if (s == null) {
                    throw new SqlException(SqlState.NULL_VALUE_NOT_ALLOWED, "cannot accumulate null arrays");
                }
                io.respsql.expr.PgArray.Value v = io.respsql.expr.PgArray.read(arena, valueOff[r], valueLen[r]);
                if (v.items.length == 0) {
                    throw new SqlException(SqlState.ARRAY_SUBSCRIPT_ERROR, "cannot accumulate empty arrays");
                }
                if (inner != null && !Arrays.equals(inner, v.dims)) {
                    throw new SqlException(SqlState.ARRAY_SUBSCRIPT_ERROR, "cannot accumulate arrays of different dimensionality");
                }
                inner = v.dims;
                items.addAll(Arrays.asList(v.items));
            } else {
                items.add(s);
            }
            count++;
        }
        int[] dims;
        if (inner == null) {
            dims = new int[] {count};
        } else {
            dims = new int[inner.length + 1];
            dims[0] = count;
            System.arraycopy(inner, 0, dims, 1, inner.length);
        }
        byte[] b = io.respsql.expr.PgArray.format(items.toArray(new String[0]), dims).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Outputs.writeText(c, row, b, 0, b.length);
    }

    /** The fraction as C's %g prints it (PostgreSQL's message). */
    private String fractionText() {
        if (fraction == Math.rint(fraction) && Math.abs(fraction) < 1e15) {
            return Long.toString((long) fraction);
        }
        return Double.toString(fraction);
    }

    private double keyDouble(int r) {
        return keyKinds[0] == LONG ? (double) longs[0][r] : doubles[0][r];
    }

    private void writeKey(Column c, int row, int r) {
        switch (keyKinds[0]) {
            case LONG:
                Outputs.writeLong(c, row, longs[0][r]);
                break;
            case DOUBLE:
                Outputs.writeDouble(c, row, doubles[0][r]);
                break;
            default:
                Outputs.writeText(c, row, arena, textOff[0][r], textLen[0][r]);
        }
    }

    private void writeConcat(Column c, int row, int from, int to) {
        int len = 0;
        int prev = -1;
        for (int i = from; i < to; i++) {
            int r = sorted[i];
            if (distinctValues && prev >= 0 && sameValue(prev, r)) {
                continue;
            }
            len += (prev >= 0 ? separator.length : 0) + valueLen[r];
            prev = r;
        }
        if (out.length < len) {
            out = new byte[Math.max(len, out.length * 2)];
        }
        int at = 0;
        prev = -1;
        for (int i = from; i < to; i++) {
            int r = sorted[i];
            if (distinctValues && prev >= 0 && sameValue(prev, r)) {
                continue;
            }
            if (prev >= 0) {
                System.arraycopy(separator, 0, out, at, separator.length);
                at += separator.length;
            }
            System.arraycopy(arena, valueOff[r], out, at, valueLen[r]);
            at += valueLen[r];
            prev = r;
        }
        Outputs.writeText(c, row, out, 0, at);
    }

    private boolean sameValue(int a, int b) {
        return Arrays.equals(arena, valueOff[a], valueOff[a] + valueLen[a], arena, valueOff[b], valueOff[b] + valueLen[b]);
    }
}
