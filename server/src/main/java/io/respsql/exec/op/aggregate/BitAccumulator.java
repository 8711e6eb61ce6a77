package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Outputs;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;

import java.util.Arrays;

/**
 * bool_and / every, bool_or (a condition's truth: a value not zero) and bit_and, bit_or,
 * bit_xor of integers (issue 25): one long per group; NULL when the group took no value.
 */
final class BitAccumulator extends Accumulator {
    private final AggregateSpec.Kind fn;
    private long[] acc = new long[0];
    private boolean[] any = new boolean[0];

    BitAccumulator(AggregateSpec.Kind fn, Expression arg, boolean distinct) {
        super(arg, distinct);
        this.fn = fn;
    }

    @Override
    void grow(int capacity) {
        int k = grown(acc.length, capacity);
        acc = Arrays.copyOf(acc, k);
        any = Arrays.copyOf(any, k);
    }

    @Override
    void addLong(int g, long v) {
        if (!any[g]) {
            any[g] = true;
            acc[g] = fn == AggregateSpec.Kind.BOOL_AND || fn == AggregateSpec.Kind.BOOL_OR ? (v != 0 ? 1 : 0) : v;
            return;
        }
        switch (fn) {
            case BOOL_AND:
                acc[g] = acc[g] != 0 && v != 0 ? 1 : 0;
                break;
            case BOOL_OR:
                acc[g] = acc[g] != 0 || v != 0 ? 1 : 0;
                break;
            case BIT_AND:
                acc[g] &= v;
                break;
            case BIT_OR:
                acc[g] |= v;
                break;
            default:
                acc[g] ^= v;
        }
    }

    @Override
    void addDouble(int g, double d) {
        addLong(g, d != 0 ? 1 : 0); // a FLOAT's truth (the default dialect's bool_and over numbers)
    }

    @Override
    void write(Column c, int row, int g) {
        if (any[g]) {
            Outputs.writeLong(c, row, acc[g]);
        } else {
            Outputs.writeNull(c, row);
        }
    }
}
