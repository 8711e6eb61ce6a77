package io.respsql.expr;

/**
 * A bound, typed, nullable expression: names resolved to columns of numbered relations, type
 * decided. Conditions are values: a comparison is a BOOLEAN expression (1 true, 0 false, NULL
 * unknown), so one tree serves SELECT lists, WHERE, ON, HAVING and CASE alike (as H2's
 * {@code Expression}).
 *
 * <p>Evaluation reads the row slots in the {@link EvalContext} and reports NULL through
 * {@link EvalContext#isNull}: every {@code eval*} call sets it, true or false. It allocates
 * nothing: computed text is written into a buffer owned by the node and reused.
 *
 * <p>{@link #filter} is the batch form used by scans: it narrows a selection vector of row slots
 * of one relation to those where the condition is TRUE. The default evaluates row by row;
 * nodes with a faster loop (a column compared with a constant) override it.
 */
public abstract class Expression {
    protected final SqlType type;

    protected Expression(SqlType type) {
        this.type = type;
    }

    public final SqlType type() {
        return type;
    }

    /** The value of a long-carried type ({@link SqlType#isLongCarried}). */
    public long evalLong(EvalContext ctx) {
        throw new IllegalStateException(getClass().getSimpleName() + " of type " + type + " is not long-carried");
    }

    /** The value as a double: DOUBLE, or a numeric type converted. */
    public double evalDouble(EvalContext ctx) {
        return evalLong(ctx);
    }

    /**
     * A TEXT value: the array holding its UTF-8 bytes, from {@link EvalContext#textOffset} for
     * {@link EvalContext#textLength} bytes. Valid until this node is evaluated again.
     */
    public byte[] evalText(EvalContext ctx) {
        throw new IllegalStateException(getClass().getSimpleName() + " of type " + type + " is not TEXT");
    }

    /**
     * A NUMERIC value ({@link Numeric}): the unscaled long, its scale in {@link EvalContext#numScale}
     * and, when it does not fit 18 digits, the value in {@link EvalContext#numBig} (else null).
     * Integer-carried types give their value at scale 0.
     */
    public long evalNumeric(EvalContext ctx) {
        if (type.isInteger() || type == SqlType.BOOLEAN) {
            long v = evalLong(ctx);
            ctx.numScale = 0;
            // 19 digits leave the long form (sums add unscaled longs unchecked below 10^18); rare: allocates
            ctx.numBig = v > Numeric.MAX_FAST || v < -Numeric.MAX_FAST ? java.math.BigDecimal.valueOf(v) : null;
            return v;
        }
        throw new IllegalStateException(getClass().getSimpleName() + " of type " + type + " is not NUMERIC");
    }

    /** A condition's verdict: true only when the value is TRUE (FALSE and UNKNOWN both reject the row). */
    public final boolean isTrue(EvalContext ctx) {
        long v = evalLong(ctx);
        return !ctx.isNull && v != 0;
    }

    /**
     * Keeps in {@code sel[0..n)} the slots of relation {@code relation} for which this condition is
     * TRUE, in order; returns how many remain. {@code ctx.slots} of other relations are as set by
     * the caller (an outer row of a join).
     */
    public int filter(EvalContext ctx, int relation, int[] sel, int n) {
        int kept = 0;
        int[] slots = ctx.slots;
        for (int i = 0; i < n; i++) {
            slots[relation] = sel[i];
            if (isTrue(ctx)) {
                sel[kept++] = sel[i];
            }
        }
        return kept;
    }

    /**
     * Batch form of {@link #evalLong} over the slots {@code sel[0..n)} of {@code relation} (the
     * other relations' slots as the caller set them): {@code out[i]} the value, {@code nulls[i]}
     * whether it is NULL. Returns whether any is NULL; when it returns false {@code nulls} may be
     * left as it was. The default evaluates row by row (leaving {@code ctx.slots[relation]} at
     * the last slot); a column reference overrides it with a loop over its chunks.
     */
    public boolean evalLongBatch(EvalContext ctx, int relation, int[] sel, int n, long[] out, boolean[] nulls) {
        int[] slots = ctx.slots;
        boolean any = false;
        for (int i = 0; i < n; i++) {
            slots[relation] = sel[i];
            out[i] = evalLong(ctx);
            boolean isNull = ctx.isNull;
            nulls[i] = isNull;
            any |= isNull;
        }
        return any;
    }

    /** Batch form of {@link #evalDouble}, as {@link #evalLongBatch}. */
    public boolean evalDoubleBatch(EvalContext ctx, int relation, int[] sel, int n, double[] out, boolean[] nulls) {
        int[] slots = ctx.slots;
        boolean any = false;
        for (int i = 0; i < n; i++) {
            slots[relation] = sel[i];
            out[i] = evalDouble(ctx);
            boolean isNull = ctx.isNull;
            nulls[i] = isNull;
            any |= isNull;
        }
        return any;
    }

    /**
     * The stored column this expression is, when it is a plain reference to a column of
     * {@code relation}; else null. Batch readers use it to read the column's chunks directly.
     */
    public io.respsql.storage.Column plainColumn(int relation) {
        return null;
    }

    /**
     * The relation whose stored column this expression plainly is (see {@link #plainColumn}), or
     * -1: its value then depends only on that relation's row slot, so a consumer may resolve it
     * once per row slot instead of once per tuple.
     */
    public int plainRelation() {
        return -1;
    }

    /**
     * The relations this expression reads, one bit per relation number (a correlated subquery's
     * outer references included). 0 for a constant. Statements over more than 64 relations are
     * refused by the binder.
     */
    public long relations() {
        return 0;
    }

    /** No column, no subquery, no volatile function: the value can be computed once (folded). */
    public boolean isConstant() {
        return relations() == 0;
    }

    /** Source-like rendering for EXPLAIN and error messages. */
    public abstract String describe();

    @Override
    public String toString() {
        return describe();
    }
}
