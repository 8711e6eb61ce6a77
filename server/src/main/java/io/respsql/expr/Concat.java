package io.respsql.expr;

/** {@code a || b}: the text forms ({@link TextForm}) joined; NULL when either is NULL. */
final class Concat extends BinaryNode {
    private final TextBuf buf = new TextBuf();

    Concat(Expression left, Expression right) {
        super(SqlType.TEXT, left, right);
    }

    @Override
    public byte[] evalText(EvalContext ctx) {
        buf.reset();
        if (!TextForm.append(left, ctx, buf) || !TextForm.append(right, ctx, buf)) {
            ctx.isNull = true;
            ctx.textOffset = 0;
            ctx.textLength = 0;
            return buf.a;
        }
        return buf.result(ctx);
    }

    @Override
    public String describe() {
        return "(" + left.describe() + " || " + right.describe() + ")";
    }
}
