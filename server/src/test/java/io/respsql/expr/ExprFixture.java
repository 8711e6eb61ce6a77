package io.respsql.expr;

import io.respsql.storage.ColumnType;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** A small table t(a INT, b FLOAT, s TEXT) as relation 0, and evaluation helpers. */
class ExprFixture {
    final Table t = new Table("t", List.of("a", "b", "s"), List.of(ColumnType.INT, ColumnType.FLOAT, ColumnType.TEXT), 0);
    final EvalContext ctx = new EvalContext(1);
    final Expression a = Expressions.column(t.column(0), 0, "a");
    final Expression b = Expressions.column(t.column(1), 0, "b");
    final Expression s = Expressions.column(t.column(2), 0, "s");

    int row(int av, double bv, String sv) {
        int r = t.allocateRow();
        ((IntColumn) t.column(0)).set(r, av);
        ((DoubleColumn) t.column(1)).set(r, bv);
        ((TextColumn) t.column(2)).set(r, sv.getBytes(StandardCharsets.UTF_8));
        return r;
    }

    void at(int row) {
        ctx.slots[0] = row;
    }

    static Expression i(long v) {
        return Expressions.constLong(SqlType.BIGINT, v);
    }

    static Expression d(double v) {
        return Expressions.constDouble(v);
    }

    static Expression txt(String v) {
        return Expressions.constText(v);
    }

    static Expression nul() {
        return Expressions.constNull(SqlType.NULL);
    }

    static Expression nul(SqlType t) {
        return Expressions.constNull(t);
    }

    static Expression bool(Boolean v) {
        return v == null ? Expressions.constNull(SqlType.BOOLEAN) : Expressions.constLong(SqlType.BOOLEAN, v ? 1 : 0);
    }

    /** The value as a Java object (Long, Double, String, Boolean), null for NULL; checks isNull is set. */
    Object eval(Expression e) {
        ctx.isNull = !ctx.isNull; // poison: every eval must set it
        switch (e.type()) {
            case DOUBLE: {
                double v = e.evalDouble(ctx);
                return ctx.isNull ? null : v;
            }
            case TEXT: {
                byte[] x = e.evalText(ctx);
                return ctx.isNull ? null : new String(x, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8);
            }
            case BOOLEAN: {
                long v = e.evalLong(ctx);
                return ctx.isNull ? null : v != 0;
            }
            case NULL:
                e.evalLong(ctx);
                return ctx.isNull ? null : "not null?";
            default: {
                long v = e.evalLong(ctx);
                return ctx.isNull ? null : v;
            }
        }
    }
}
