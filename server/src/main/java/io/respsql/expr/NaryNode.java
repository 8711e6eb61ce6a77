package io.respsql.expr;

/**
 * A function node of any number of inputs, {@link #args}: its relations are all inputs', it is
 * constant when all are, and it reads {@code NAME(arg, ...)}. Only that bookkeeping is shared;
 * each subclass keeps its own eval methods, so the per-row calls stay on the concrete class.
 */
abstract class NaryNode extends Expression {
    final String name;
    final Expression[] args;

    NaryNode(SqlType type, String name, Expression[] args) {
        super(type);
        this.name = name;
        this.args = args;
    }

    @Override
    public final long relations() {
        return Eval.relations(args);
    }

    @Override
    public final boolean isConstant() {
        return Eval.allConstant(args);
    }

    @Override
    public String describe() {
        return Functions.describe(name, args);
    }
}
