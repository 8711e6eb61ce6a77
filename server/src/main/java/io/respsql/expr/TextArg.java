package io.respsql.expr;

/**
 * An argument read as text: a TEXT expression's own bytes (no copy), or any other type's text
 * form ({@link TextForm}) rendered into a buffer this argument owns.
 */
final class TextArg {
    final Expression e;
    private final TextBuf buf;

    TextArg(Expression e) {
        this.e = e;
        this.buf = e.type() == SqlType.TEXT ? null : new TextBuf();
    }

    /** The bytes, at {@code ctx.textOffset} for {@code ctx.textLength}; sets {@code ctx.isNull}. */
    byte[] eval(EvalContext ctx) {
        if (buf == null) {
            return e.evalText(ctx);
        }
        buf.reset();
        if (!TextForm.append(e, ctx, buf)) {
            ctx.textOffset = 0;
            ctx.textLength = 0;
            return buf.a;
        }
        return buf.result(ctx);
    }
}
