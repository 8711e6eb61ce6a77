package io.respsql.expr;

/**
 * A node computed from two inputs, {@link #left} and {@link #right}: its relations are both
 * inputs', and it is constant when both are. Only that bookkeeping is shared; each subclass keeps
 * its own eval methods, so the per-row calls stay on the concrete class.
 */
abstract class BinaryNode extends Expression {
    final Expression left;
    final Expression right;

    BinaryNode(SqlType type, Expression left, Expression right) {
        super(type);
        this.left = left;
        this.right = right;
    }

    @Override
    public final long relations() {
        return left.relations() | right.relations();
    }

    @Override
    public final boolean isConstant() {
        return left.isConstant() && right.isConstant();
    }
}
