package io.respsql.expr;

/** Evaluation by a node's type, for nodes that carry values of any type. */
final class Eval {
    /** 10^0 .. 10^22: the powers of ten a double holds exactly (scaling by one rounds once). */
    static final double[] POW10 = new double[23];

    static {
        double p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
    }

    private Eval() {
    }

    /** Evaluates {@code e} only to set {@code ctx.isNull}. */
    static void any(Expression e, EvalContext ctx) {
        switch (e.type()) {
            case DOUBLE:
                e.evalDouble(ctx);
                break;
            case TEXT:
            case INTERVAL:
                e.evalText(ctx);
                break;
            case NULL:
                ctx.isNull = true;
                break;
            case NUMERIC:
                e.evalNumeric(ctx); // x IS [NOT] NULL of a NUMERIC column (was "not long-carried")
                break;
            default:
                if (e.type().isArray()) { // arrays: text-carried
                    e.evalText(ctx);
                } else {
                    e.evalLong(ctx);
                }
        }
    }

    /** A numeric argument as a long (a DOUBLE truncates toward zero, as SQLite reads it). */
    static long asLong(Expression e, EvalContext ctx) {
        if (e.type() == SqlType.DOUBLE) {
            return (long) e.evalDouble(ctx);
        }
        if (e.type() == SqlType.NULL) {
            ctx.isNull = true;
            return 0;
        }
        return e.evalLong(ctx);
    }

    /**
     * Evaluates {@code args[from..to)} as longs into {@code out[from..to)}, in order; false (with
     * {@code ctx.isNull} set) at the first NULL.
     */
    static boolean longs(Expression[] args, int from, int to, long[] out, EvalContext ctx) {
        for (int i = from; i < to; i++) {
            out[i] = args[i].evalLong(ctx);
            if (ctx.isNull) {
                return false;
            }
        }
        return true;
    }

    static boolean allConstant(Expression... es) {
        for (Expression e : es) {
            if (e != null && !e.isConstant()) {
                return false;
            }
        }
        return true;
    }

    static long relations(Expression... es) {
        long r = 0;
        for (Expression e : es) {
            if (e != null) {
                r |= e.relations();
            }
        }
        return r;
    }
}
