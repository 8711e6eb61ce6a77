package io.respsql.expr;

/**
 * A statement parameter: a value that is constant for one run but not known when the plan is
 * made (a cached plan's literal, a prepared statement's {@code ?}). It reads slot {@code index}
 * of {@link EvalContext#params}. {@link #isConstant()} is false, so nothing folds it or takes a
 * plan decision from its value (an empty index range, a hash set of an IN list); {@link #relations()}
 * is 0, so an index probe or range evaluates it when it starts, as it does an outer row's value.
 */
public final class Parameter extends Expression {
    private final int index;

    public Parameter(int index, SqlType type) {
        super(type);
        this.index = index;
    }

    public int index() {
        return index;
    }

    @Override
    public long evalLong(EvalContext ctx) {
        ParamValues p = ctx.params;
        ctx.isNull = p.nulls[index];
        return p.longs[index];
    }

    @Override
    public double evalDouble(EvalContext ctx) {
        ParamValues p = ctx.params;
        ctx.isNull = p.nulls[index];
        return p.doubles[index];
    }

    @Override
    public byte[] evalText(EvalContext ctx) {
        ParamValues p = ctx.params;
        ctx.isNull = p.nulls[index];
        byte[] b = p.nulls[index] ? TextBuf.EMPTY : p.texts[index];
        ctx.textOffset = 0;
        ctx.textLength = b.length;
        return b;
    }

    @Override
    public boolean isConstant() {
        return false;
    }

    @Override
    public String describe() {
        return "?" + (index + 1);
    }
}
