package io.respsql.exec.subquery;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import it.unimi.dsi.fastutil.doubles.DoubleOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import it.unimi.dsi.fastutil.objects.ObjectOpenHashSet;

import java.util.Arrays;
import java.util.List;

/**
 * {@code x [NOT] IN (SELECT y ...)} with three-valued logic: TRUE when some row equals x, else
 * NULL when x is NULL or some row is NULL (and there are rows), else FALSE. The subquery's values
 * go into a hash set: once per statement run when uncorrelated, at every evaluation when not.
 */
public final class InSubquery extends Expression {
    private enum Mode { LONG, DOUBLE, TEXT, NONE }

    private final Expression operand;
    private final Operator plan;
    private final Expression output;
    private final boolean negated;
    private final long outerRefs;
    private final List<String> explain;
    private final Mode mode;
    private final LongOpenHashSet longs = new LongOpenHashSet();
    private final DoubleOpenHashSet doubles = new DoubleOpenHashSet();
    private final ObjectOpenHashSet<Bytes> texts = new ObjectOpenHashSet<>();
    private final Bytes probe = new Bytes();
    private final TupleConsumer collect = this::collect;
    private EvalContext computedFor;
    /** The run of {@link #computedFor} it was computed in (a context kept for the next run counts them). */
    private long computedRun;
    private boolean anyRow;
    private boolean anyNull;

    public InSubquery(Expression operand, Operator plan, Expression output, boolean negated, long outerRefs,
                      List<String> explain) {
        super(SqlType.BOOLEAN);
        // NUMERIC meets other numbers by value, not by its text (1.0 = 1.00 = 1)
        Expression[] forms = io.respsql.expr.Expressions.matchForms(operand, output);
        operand = forms[0];
        output = forms[1];
        this.operand = operand;
        this.plan = plan;
        this.output = output;
        this.negated = negated;
        this.outerRefs = outerRefs;
        this.explain = explain;
        SqlType a = operand.type();
        SqlType b = output.type();
        if (a == SqlType.NULL || b == SqlType.NULL) {
            mode = Mode.NONE;
        } else if (a.isTextCarried() && a == b) {
            mode = Mode.TEXT;
        } else if (a.isInteger() && b.isInteger() || a == b && a.isLongCarried()) {
            mode = Mode.LONG;
        } else if (a.isNumeric() && b.isNumeric()) {
            mode = Mode.DOUBLE;
        } else {
            mode = Mode.NONE;
        }
    }

    private void compute(EvalContext ctx) {
        if (outerRefs == 0 && computedFor == ctx && computedRun == ctx.run()) {
            return;
        }
        longs.clear();
        doubles.clear();
        texts.clear();
        anyRow = false;
        anyNull = false;
        plan.run(ctx, collect);
        computedFor = outerRefs == 0 ? ctx : null;
        computedRun = ctx.run();
    }

    private boolean collect(EvalContext ctx) {
        anyRow = true;
        switch (mode) {
            case LONG: {
                long v = output.evalLong(ctx);
                if (ctx.isNull) {
                    anyNull = true;
                } else {
                    longs.add(v);
                }
                break;
            }
            case DOUBLE: {
                double v = output.evalDouble(ctx);
                if (ctx.isNull) {
                    anyNull = true;
                } else {
                    doubles.add(v == 0 ? 0.0 : v);
                }
                break;
            }
            case TEXT: {
                byte[] b = output.evalText(ctx);
                if (ctx.isNull) {
                    anyNull = true;
                } else {
                    texts.add(Bytes.copyOf(b, ctx.textOffset, ctx.textLength));
                }
                break;
            }
            default:
                anyNull = true; // values of no comparable type: nothing equals, and the answer is unknown
        }
        return true;
    }

    @Override
    public long evalLong(EvalContext ctx) {
        boolean found;
        switch (mode) {
            case LONG: {
                long v = operand.evalLong(ctx);
                if (ctx.isNull) {
                    return unknownOperand(ctx);
                }
                compute(ctx);
                found = longs.contains(v);
                break;
            }
            case DOUBLE: {
                double v = operand.evalDouble(ctx);
                if (ctx.isNull) {
                    return unknownOperand(ctx);
                }
                compute(ctx);
                found = doubles.contains(v == 0 ? 0.0 : v);
                break;
            }
            case TEXT: {
                byte[] b = operand.evalText(ctx);
                if (ctx.isNull) {
                    return unknownOperand(ctx);
                }
                int off = ctx.textOffset;
                int len = ctx.textLength;
                compute(ctx);
                found = texts.contains(probe.of(b, off, len));
                break;
            }
            default:
                return unknownOperand(ctx);
        }
        if (found) {
            ctx.isNull = false;
            return negated ? 0 : 1;
        }
        ctx.isNull = anyNull;
        return negated ? 1 : 0;
    }

    /** x is NULL (or incomparable): NULL, unless the subquery has no rows (then IN is FALSE). */
    private long unknownOperand(EvalContext ctx) {
        compute(ctx);
        ctx.isNull = anyRow;
        return negated ? 1 : 0;
    }

    @Override
    public long relations() {
        return operand.relations() | outerRefs;
    }

    @Override
    public boolean isConstant() {
        return false;
    }

    public List<String> plan() {
        return explain;
    }

    @Override
    public String describe() {
        return operand.describe() + (negated ? " NOT IN " : " IN ") + "(subquery" + (outerRefs != 0 ? ", correlated" : "") + ")";
    }

    /** A byte string as a hash key; the probe instance is re-pointed, never copied. */
    private static final class Bytes {
        byte[] b;
        int off;
        int len;
        int hash;

        static Bytes copyOf(byte[] src, int off, int len) {
            Bytes k = new Bytes();
            return k.of(src == null ? new byte[0] : Arrays.copyOfRange(src, off, off + len), 0, len);
        }

        Bytes of(byte[] src, int o, int l) {
            if (src == null) {
                src = new byte[0];
                o = 0;
                l = 0;
            }
            b = src;
            off = o;
            len = l;
            int h = 1;
            for (int i = 0; i < l; i++) {
                h = 31 * h + src[o + i];
            }
            hash = h;
            return this;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Bytes k) || k.len != len || k.hash != hash) {
                return false;
            }
            return Arrays.equals(b, off, off + len, k.b, k.off, k.off + len);
        }
    }
}
