package io.respsql.expr;

import io.respsql.storage.TextColumn;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.List;

/**
 * {@code x [NOT] IN (v, ...)}: NULL operand → NULL; a match → TRUE; no match with a NULL in
 * the list → NULL; else FALSE (NOT IN negates, NULL staying NULL). A list of constants is probed
 * through a hash set built once (longs, double bit patterns, or byte strings); otherwise each
 * item is compared in turn.
 */
final class InList extends Expression {
    static final int GENERAL = -1;

    final Expression operand;
    final List<Expression> shown;
    final boolean negated;
    final int kind;
    private final LongOpenHashSet longs;
    private final ByteSet texts;
    private final boolean listHasNull;
    private final ValueCompare[] items;
    /**
     * The general form whose items are all parameters (a cached plan of {@code id IN (1, 2, ...)}):
     * {@link ValueCompare#LONG}, {@code DOUBLE} or {@code TEXT} as the constant form would probe
     * them, else {@link #GENERAL}. Probed through a hash set built from the parameter values once
     * per run ({@link ParamValues#run}), not compared item by item for every row.
     */
    private final int runKind;
    private LongOpenHashSet runLongs;
    private ByteSet runTexts;
    private ParamValues runOf;
    private int runNumber;
    private boolean runHasNull;

    /** The constant form: {@code values} are Literals comparable with {@code operand} as {@code kind}. */
    InList(Expression operand, List<Expression> values, int kind, boolean negated) {
        super(SqlType.BOOLEAN);
        this.operand = operand;
        this.shown = values;
        this.negated = negated;
        this.kind = kind;
        this.items = null;
        boolean hasNull = false;
        LongOpenHashSet ls = kind == ValueCompare.TEXT ? null : new LongOpenHashSet(values.size());
        ByteSet ts = kind == ValueCompare.TEXT ? new ByteSet(values.size()) : null;
        for (Expression v : values) {
            Literal l = (Literal) v;
            if (l.nullValue) {
                hasNull = true;
            } else if (kind == ValueCompare.TEXT) {
                ts.add(l.text);
            } else if (kind == ValueCompare.DOUBLE) {
                ls.add(doubleKey(l.type() == SqlType.DOUBLE ? l.doubleValue : l.longValue));
            } else {
                ls.add(l.longValue);
            }
        }
        this.longs = ls;
        this.texts = ts;
        this.listHasNull = hasNull;
        this.runKind = GENERAL;
    }

    /** The general form: one comparison per item ({@code pairs[i]} = operand and item i, comparable). */
    InList(Expression operand, List<Expression> values, Expression[][] pairs, boolean negated) {
        super(SqlType.BOOLEAN);
        this.operand = operand;
        this.shown = values;
        this.negated = negated;
        this.kind = GENERAL;
        this.items = new ValueCompare[pairs.length];
        for (int i = 0; i < pairs.length; i++) {
            items[i] = new ValueCompare(pairs[i][0], pairs[i][1]);
        }
        this.longs = null;
        this.texts = null;
        this.listHasNull = false;
        this.runKind = runKindOf(operand, pairs);
    }

    private static int runKindOf(Expression operand, Expression[][] pairs) {
        SqlType t = operand.type();
        boolean text = t == SqlType.TEXT;
        if (pairs.length < 2 || !(text || t.isNumeric())) {
            return GENERAL;
        }
        boolean anyDouble = t == SqlType.DOUBLE;
        for (Expression[] pair : pairs) {
            Expression v = pair[1];
            if (pair[0] != operand || !(v instanceof Parameter) || (text ? v.type() != SqlType.TEXT : !v.type().isNumeric())) {
                return GENERAL;
            }
            anyDouble |= v.type() == SqlType.DOUBLE;
        }
        return text ? ValueCompare.TEXT : anyDouble ? ValueCompare.DOUBLE : ValueCompare.LONG;
    }

    /** Builds the run's set from the parameter values when this run's are not the ones it holds. */
    private void prepareRun(EvalContext ctx) {
        ParamValues pv = ctx.params;
        if (runOf == pv && runNumber == pv.run && (runLongs != null || runTexts != null)) {
            return;
        }
        boolean hasNull = false;
        if (runKind == ValueCompare.TEXT) {
            runTexts = new ByteSet(items.length); // per run, never per row
        } else if (runLongs == null) {
            runLongs = new LongOpenHashSet(items.length);
        } else {
            runLongs.clear();
        }
        for (ValueCompare item : items) {
            int i = ((Parameter) item.right).index();
            if (pv.nulls[i]) {
                hasNull = true;
            } else if (runKind == ValueCompare.TEXT) {
                runTexts.add(pv.texts[i]);
            } else if (runKind == ValueCompare.DOUBLE) {
                runLongs.add(doubleKey(pv.doubles[i]));
            } else {
                runLongs.add(pv.longs[i]);
            }
        }
        runHasNull = hasNull;
        runOf = pv;
        runNumber = pv.run;
    }

    private long runVerdict(boolean hit, EvalContext ctx) {
        ctx.isNull = !hit && runHasNull;
        return hit != negated && !ctx.isNull ? 1 : 0;
    }

    /** -0.0 and 0.0 are one key (they compare equal). */
    private static long doubleKey(double d) {
        return Double.doubleToLongBits(d + 0.0);
    }

    private long verdict(boolean hit, EvalContext ctx) {
        if (hit) {
            ctx.isNull = false;
            return negated ? 0 : 1;
        }
        if (listHasNull) {
            ctx.isNull = true;
            return 0;
        }
        ctx.isNull = false;
        return negated ? 1 : 0;
    }

    @Override
    public long evalLong(EvalContext ctx) {
        switch (kind) {
            case ValueCompare.LONG: {
                long v = operand.evalLong(ctx);
                return ctx.isNull ? 0 : verdict(longs.contains(v), ctx);
            }
            case ValueCompare.DOUBLE: {
                double v = operand.evalDouble(ctx);
                return ctx.isNull ? 0 : verdict(longs.contains(doubleKey(v)), ctx);
            }
            case ValueCompare.TEXT: {
                byte[] a = operand.evalText(ctx);
                return ctx.isNull ? 0 : verdict(texts.contains(a, ctx.textOffset, ctx.textLength), ctx);
            }
            default: {
                if (runKind == ValueCompare.LONG) {
                    prepareRun(ctx);
                    long v = operand.evalLong(ctx);
                    return ctx.isNull ? 0 : runVerdict(runLongs.contains(v), ctx);
                }
                if (runKind == ValueCompare.DOUBLE) {
                    prepareRun(ctx);
                    double v = operand.evalDouble(ctx);
                    return ctx.isNull ? 0 : runVerdict(runLongs.contains(doubleKey(v)), ctx);
                }
                if (runKind == ValueCompare.TEXT) {
                    prepareRun(ctx);
                    byte[] a = operand.evalText(ctx);
                    return ctx.isNull ? 0 : runVerdict(runTexts.contains(a, ctx.textOffset, ctx.textLength), ctx);
                }
                boolean sawNull = false;
                for (ValueCompare item : items) {
                    int c = item.compare(ctx);
                    if (ctx.isNull) {
                        sawNull = true;
                    } else if (c == 0) {
                        return negated ? 0 : 1;
                    }
                }
                ctx.isNull = sawNull; // no match: NULL if an item was NULL, else FALSE (TRUE negated)
                return !sawNull && negated ? 1 : 0;
            }
        }
    }

    @Override
    public int filter(EvalContext ctx, int relation, int[] sel, int n) {
        if (operand instanceof ColumnRef && ((ColumnRef) operand).relation == relation) {
            ColumnRef col = (ColumnRef) operand;
            // NOT IN with a NULL in the list is never TRUE; IN with one is TRUE exactly on a hit
            if (negated && listHasNull) {
                return 0;
            }
            boolean want = !negated;
            LongOpenHashSet set = longs;
            boolean paramLongs = runKind == ValueCompare.LONG;
            if (paramLongs) {
                prepareRun(ctx);
                set = runLongs;
                if (negated && runHasNull) {
                    return 0;
                }
            }
            if ((kind == ValueCompare.LONG || paramLongs) && col instanceof IntRef) {
                return ((IntRef) col).filterIn(set, want, sel, n); // a loop of the column's type
            }
            if ((kind == ValueCompare.LONG || paramLongs) && col instanceof LongRef) {
                return ((LongRef) col).filterIn(set, want, sel, n);
            }
            if (kind == ValueCompare.TEXT && col instanceof ColumnRef.TextRef) {
                TextColumn c = (TextColumn) col.column;
                boolean nulls = c.mayHaveNulls();
                int kept = 0;
                for (int i = 0; i < n; i++) {
                    int s = sel[i];
                    if (nulls && c.isNull(s)) {
                        continue;
                    }
                    int len = c.length(s);
                    boolean hit = len == 0 ? texts.contains(TextBuf.EMPTY, 0, 0) : texts.contains(c.bytes(s), c.offset(s), len);
                    if (hit == want) {
                        sel[kept++] = s;
                    }
                }
                return kept;
            }
        }
        return super.filter(ctx, relation, sel, n);
    }

    @Override
    public long relations() {
        long r = operand.relations();
        if (items != null) {
            for (ValueCompare item : items) {
                r |= item.left.relations() | item.right.relations();
            }
        }
        return r;
    }

    @Override
    public boolean isConstant() {
        if (!operand.isConstant()) {
            return false;
        }
        if (items != null) {
            for (ValueCompare item : items) {
                if (!item.left.isConstant() || !item.right.isConstant()) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public String describe() {
        StringBuilder b = new StringBuilder("(").append(operand.describe()).append(negated ? " NOT IN (" : " IN (");
        for (int i = 0; i < shown.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(shown.get(i).describe());
        }
        return b.append("))").toString();
    }
}
