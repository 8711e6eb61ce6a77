package io.respsql.exec.op;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.storage.Column;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.TextColumn;

import java.util.Arrays;

/**
 * A list of key expressions and how each is carried ({@link #LONG}, {@link #DOUBLE}, {@link #TEXT}):
 * the plan side of grouping, DISTINCT, set operations, sorting and join keys. Per run, the
 * operator takes a {@link KeyBuffer} (the current tuple's values), a {@link KeyStore} (the values
 * of many tuples, columnar and primitive) and, to find equal keys, a {@link KeyTable}.
 *
 * <p>Equality as grouping sees it: NULL equals NULL, doubles compare with -0.0 = 0.0. A join
 * never matches a NULL key: its operator skips tuples whose {@link KeyBuffer#anyNull()} is set.
 */
public final class Keys {
    public static final byte LONG = 0;
    public static final byte DOUBLE = 1;
    public static final byte TEXT = 2;

    private final Expression[] exprs;
    private final byte[] kinds;

    /** Each key carried as its expression's type says. */
    /** Whether every key may be evaluated by several threads at once (parallel aggregation). */
    public boolean reentrant() {
        for (Expression e : exprs) {
            if (!io.respsql.expr.Reentrant.check(e)) {
                return false;
            }
        }
        return true;
    }

    public Keys(Expression[] exprs) {
        this(exprs, kindsOf(exprs));
    }

    /**
     * Keys carried as {@code kinds} says: a numeric expression may be read as the other numeric
     * kind (a set operation's INT side into a DOUBLE column), TEXT only as TEXT.
     */
    public Keys(Expression[] exprs, byte[] kinds) {
        if (exprs.length != kinds.length) {
            throw new IllegalArgumentException(exprs.length + " keys but " + kinds.length + " kinds");
        }
        for (int j = 0; j < exprs.length; j++) {
            SqlType t = exprs[j].type();
            if (t != SqlType.NULL && (kindOf(t) == TEXT) != (kinds[j] == TEXT)) {
                throw new IllegalArgumentException("key " + exprs[j].describe() + " of type " + t + " cannot be carried as " + kindName(kinds[j]));
            }
        }
        this.exprs = exprs.clone();
        this.kinds = kinds.clone();
    }

    public static byte kindOf(SqlType t) {
        // NUMERIC: carried as text, keyed by value (KeyBuffer.setNumeric); Sort orders it by value
        return t == SqlType.DOUBLE ? DOUBLE : t.isTextCarried() || t == SqlType.NUMERIC ? TEXT : LONG;
    }

    /** How a work table's column takes values. */
    public static byte kindOf(Column c) {
        return c instanceof DoubleColumn ? DOUBLE : c instanceof TextColumn ? TEXT : LONG;
    }

    public static byte[] kindsOf(Expression[] exprs) {
        byte[] k = new byte[exprs.length];
        for (int j = 0; j < exprs.length; j++) {
            k[j] = kindOf(exprs[j].type());
        }
        return k;
    }

    /**
     * {@code a} and {@code b} (a join's two key lists, pairwise) rewritten in place so that equal
     * values hash alike: NUMERIC meets numbers by value ({@link io.respsql.expr.Expressions#matchForms}).
     */
    public static void matchForms(Expression[] a, Expression[] b) {
        for (int j = 0; j < Math.min(a.length, b.length); j++) {
            Expression[] f = io.respsql.expr.Expressions.matchForms(a[j], b[j]);
            a[j] = f[0];
            b[j] = f[1];
        }
    }

    /**
     * The kinds two key lists compare under (a join's build and probe keys): numbers meet as
     * doubles when either side is DOUBLE; TEXT only meets TEXT.
     */
    public static byte[] unify(Expression[] a, Expression[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException(a.length + " keys on one side, " + b.length + " on the other");
        }
        byte[] k = new byte[a.length];
        for (int j = 0; j < a.length; j++) {
            byte ka = kindOf(a[j].type());
            byte kb = kindOf(b[j].type());
            if (a[j].type() == SqlType.NULL) {
                ka = kb;
            } else if (b[j].type() == SqlType.NULL) {
                kb = ka;
            }
            if ((ka == TEXT) != (kb == TEXT)) {
                throw new IllegalArgumentException("keys " + a[j].describe() + " and " + b[j].describe() + " are not comparable");
            }
            k[j] = ka == DOUBLE || kb == DOUBLE ? DOUBLE : ka;
        }
        return k;
    }

    static String kindName(byte kind) {
        return kind == LONG ? "LONG" : kind == DOUBLE ? "DOUBLE" : "TEXT";
    }

    public int size() {
        return exprs.length;
    }

    public byte kind(int j) {
        return kinds[j];
    }

    public byte[] kinds() {
        return kinds.clone();
    }

    public Expression expression(int j) {
        return exprs[j];
    }

    /**
     * The one key is integer-carried and read as such (not a DOUBLE read as LONG, not a bare
     * NULL): operators may then use a {@link LongKeyTable} on {@code expression(0).evalLong}.
     */
    public boolean singleLong() {
        if (exprs.length != 1 || kinds[0] != LONG) {
            return false;
        }
        SqlType t = exprs[0].type();
        return t != SqlType.DOUBLE && t != SqlType.NULL && !t.isTextCarried() && t != SqlType.NUMERIC;
    }

    public KeyBuffer newBuffer() {
        return new KeyBuffer(kinds);
    }

    public KeyStore newStore() {
        return new KeyStore(kinds);
    }

    /** Evaluates every key for the tuple now in {@code ctx} into {@code buf}. Allocates nothing once warm. */
    public void load(EvalContext ctx, KeyBuffer buf) {
        buf.reset();
        for (int j = 0; j < exprs.length; j++) {
            Expression e = exprs[j];
            SqlType t = e.type();
            if (t == SqlType.NULL) {
                buf.setNull(j);
                continue;
            }
            switch (kinds[j]) {
                case LONG: {
                    long v = t == SqlType.DOUBLE ? (long) e.evalDouble(ctx) : e.evalLong(ctx);
                    if (ctx.isNull) {
                        buf.setNull(j);
                    } else {
                        buf.setLong(j, v);
                    }
                    break;
                }
                case DOUBLE: {
                    double d = e.evalDouble(ctx);
                    if (ctx.isNull) {
                        buf.setNull(j);
                    } else {
                        buf.setDouble(j, d);
                    }
                    break;
                }
                default: {
                    if (t == SqlType.NUMERIC) {
                        // by value (1.0 = 1.00 = 1, -0.0 = 0), showing the first tuple's text
                        long u = e.evalNumeric(ctx);
                        if (ctx.isNull) {
                            buf.setNull(j);
                        } else {
                            buf.setNumeric(j, u, ctx.numScale, ctx.numBig, true);
                        }
                        break;
                    }
                    byte[] b = e.evalText(ctx);
                    if (ctx.isNull) {
                        buf.setNull(j);
                    } else {
                        buf.setText(j, b, ctx.textOffset, ctx.textLength);
                    }
                }
            }
        }
    }

    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < exprs.length; j++) {
            sb.append(j == 0 ? "" : ", ").append(exprs[j].describe());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return describe() + " " + Arrays.toString(kinds);
    }
}
