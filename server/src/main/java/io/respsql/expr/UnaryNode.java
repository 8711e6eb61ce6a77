package io.respsql.expr;

/**
 * A node computed from one input, {@link #arg}: its relations and constancy are its input's.
 * Only that bookkeeping is shared; each subclass keeps its own eval methods, so the per-row calls
 * stay on the concrete class.
 */
abstract class UnaryNode extends Expression {
    final Expression arg;

    UnaryNode(SqlType type, Expression arg) {
        super(type);
        this.arg = arg;
    }

    @Override
    public final long relations() {
        return arg.relations();
    }

    @Override
    public final boolean isConstant() {
        return arg.isConstant();
    }
}
