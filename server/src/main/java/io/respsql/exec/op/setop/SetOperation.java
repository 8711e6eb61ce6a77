package io.respsql.exec.op.setop;

import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyStore;
import io.respsql.exec.op.KeyTable;
import io.respsql.exec.op.Keys;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.Outputs;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Table;

import java.util.List;

/**
 * UNION [ALL], INTERSECT, EXCEPT: evaluates each side's output expressions per tuple, writes
 * the result rows into the work table {@code output} (one column per output; numbers converted
 * to the column's type), then pushes them with {@code ctx.slots[outputRelation]} the row's slot.
 * All but UNION ALL remove duplicates (NULL equals NULL). Rows come out in first-seen order
 * (left side first); a caller that needs an order sorts.
 */
public final class SetOperation implements Operator {
    public enum Kind { UNION, UNION_ALL, INTERSECT, EXCEPT }

    private final Kind kind;
    private final Operator left;
    private final Operator right;
    private final Keys leftKeys;
    private final Keys rightKeys;
    private final Table output;
    private final int outputRelation;

    public SetOperation(Kind kind, Operator left, Expression[] leftOutputs, Operator right, Expression[] rightOutputs,
                        Table output, int outputRelation) {
        if (leftOutputs.length != output.columnCount() || rightOutputs.length != output.columnCount()) {
            throw new IllegalArgumentException(kind + ": " + leftOutputs.length + " and " + rightOutputs.length
                    + " outputs for the " + output.columnCount() + " columns of " + output.name());
        }
        byte[] kinds = new byte[output.columnCount()];
        for (int j = 0; j < kinds.length; j++) {
            kinds[j] = Keys.kindOf(output.column(j));
        }
        checkTypes(kind, leftOutputs, output);
        checkTypes(kind, rightOutputs, output);
        this.kind = kind;
        this.left = left;
        this.right = right;
        this.leftKeys = new Keys(leftOutputs, kinds);
        this.rightKeys = new Keys(rightOutputs, kinds);
        this.output = output;
        this.outputRelation = outputRelation;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        Outputs.clear(output);
        KeyBuffer buf = leftKeys.newBuffer();
        KeyStore store = leftKeys.newStore();
        KeyTable table = new KeyTable(store);
        boolean[] keepFlags = null;
        switch (kind) {
            case UNION_ALL:
                left.run(ctx, c -> append(leftKeys, c, buf, store));
                right.run(ctx, c -> append(rightKeys, c, buf, store));
                break;
            case UNION:
                left.run(ctx, c -> add(leftKeys, c, buf, table));
                right.run(ctx, c -> add(rightKeys, c, buf, table));
                break;
            default: {
                left.run(ctx, c -> add(leftKeys, c, buf, table));
                if (store.size() == 0) {
                    break;
                }
                // INTERSECT keeps the left rows the right side has; EXCEPT the ones it has not
                boolean[] inRight = new boolean[store.size()];
                right.run(ctx, c -> {
                    rightKeys.load(c, buf);
                    int id = table.find(buf);
                    if (id >= 0) {
                        inRight[id] = true;
                    }
                    return true;
                });
                keepFlags = inRight;
            }
        }
        int n = store.size();
        int[] rows = new int[n];
        int count = 0;
        int width = output.columnCount();
        for (int id = 0; id < n; id++) {
            if (keepFlags != null && keepFlags[id] != (kind == Kind.INTERSECT)) {
                continue;
            }
            int row = output.allocateRow();
            for (int j = 0; j < width; j++) {
                Outputs.writeKey(store, id, j, output.column(j), row);
            }
            rows[count++] = row;
        }
        for (int i = 0; i < count; i++) {
            ctx.slots[outputRelation] = rows[i];
            if (!out.accept(ctx)) {
                return false;
            }
        }
        return true;
    }

    /** TEXT only into TEXT columns, numbers only into numeric ones (numbers convert among themselves). */
    private static void checkTypes(Kind kind, Expression[] outputs, Table output) {
        for (int j = 0; j < outputs.length; j++) {
            SqlType t = outputs[j].type();
            if (t != SqlType.NULL && t.isTextCarried() != (Keys.kindOf(output.column(j)) == Keys.TEXT)) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, kind.name().replace('_', ' ') + " column " + (j + 1) + ": " + outputs[j].describe() + " is "
                        + t.sqlName() + " but the result column is " + output.column(j).type());
            }
        }
    }

    private static boolean append(Keys keys, EvalContext c, KeyBuffer buf, KeyStore store) {
        keys.load(c, buf);
        store.append(buf);
        return true;
    }

    private static boolean add(Keys keys, EvalContext c, KeyBuffer buf, KeyTable table) {
        keys.load(c, buf);
        table.findOrAdd(buf);
        return true;
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        each.accept(left);
        each.accept(right);
    }

    @Override
    public long relations() {
        return 1L << outputRelation;
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + kind.name().replace('_', ' ') + " into " + output.name());
        left.explain(lines, depth + 1);
        right.explain(lines, depth + 1);
    }
}
