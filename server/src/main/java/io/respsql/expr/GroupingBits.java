package io.respsql.expr;

/**
 * GROUPING(a, b, ...) over grouping sets (issue 25): the group row's hidden grouping column holds
 * the set's mask (bit j set when GROUP BY key j is rolled up in that set); argument i gives bit
 * {@code n-1-i} of the result, so GROUPING(a, b) is 2·(a rolled up) + (b rolled up), as PostgreSQL.
 */
public final class GroupingBits extends Expression {
    private final Expression mask;
    private final int[] keys;
    private final String text;

    /** {@code mask}: the group relation's grouping column; {@code keys}: the key position of each argument. */
    public GroupingBits(Expression mask, int[] keys, String text) {
        super(SqlType.INT);
        this.mask = mask;
        this.keys = keys.clone();
        this.text = text;
    }

    @Override
    public long evalLong(EvalContext ctx) {
        long m = mask.evalLong(ctx);
        ctx.isNull = false;
        long r = 0;
        for (int i = 0; i < keys.length; i++) {
            r = (r << 1) | ((m >>> keys[i]) & 1);
        }
        return r;
    }

    @Override
    public long relations() {
        return mask.relations();
    }

    @Override
    public String describe() {
        return text;
    }
}
