package io.respsql.exec.op.aggregate;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/**
 * One aggregate of a GROUP BY: its function, argument ({@code null} for COUNT(*)), DISTINCT
 * flag, and for GROUP_CONCAT an optional constant separator (default ","). Plan-side and
 * immutable; {@link #newAccumulator} makes the per-run state.
 */
public final class AggregateSpec {
    public enum Kind {
        COUNT_STAR, COUNT, SUM, AVG, MIN, MAX, TOTAL, GROUP_CONCAT,
        // ---- agg (issue 25): PostgreSQL's aggregates ----
        STRING_AGG, VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, COVAR_POP, COVAR_SAMP, CORR, REGR_COUNT, REGR_SXX,
        REGR_SYY, REGR_SXY, REGR_AVGX, REGR_AVGY, REGR_R2, REGR_SLOPE, REGR_INTERCEPT, BOOL_AND, BOOL_OR, BIT_AND,
        BIT_OR, BIT_XOR, PERCENTILE_CONT, PERCENTILE_DISC, MODE,
        // ---- arrays ----
        /** array_agg([DISTINCT] x [ORDER BY ...]): NULLs kept, an array of arrays one dimension more. */
        ARRAY_AGG,
        // hypothetical-set aggregates: rank(v) WITHIN GROUP (ORDER BY k) ...
        RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST;

        /** rank, dense_rank, percent_rank, cume_dist WITHIN GROUP: where a hypothetical row would fall. */
        public boolean hypothetical() {
            return compareTo(RANK) >= 0;
        }

        /** The aggregates over two arguments (Y, X) of float8 (PostgreSQL's regression family). */
        public boolean twoArguments() {
            return compareTo(COVAR_POP) >= 0 && compareTo(REGR_INTERCEPT) <= 0;
        }

        /** The ordered-set aggregates: their value is the WITHIN GROUP key. */
        public boolean orderedSet() {
            return this == PERCENTILE_CONT || this == PERCENTILE_DISC || this == MODE || hypothetical();
        }

        /** The aggregates of the first version (the SQLite corpus's), which the eager-aggregation rewrite knows. */
        public boolean classic() {
            return compareTo(GROUP_CONCAT) <= 0;
        }
    }

    private final Kind kind;
    private final Expression argument;
    private final boolean distinct;
    private final Expression separator;
    private final SqlType resultType;
    // ---- agg ----
    /** The second argument of the two-argument aggregates (X of regr_*(Y, X)), else null. */
    private Expression second;
    /** FILTER (WHERE ...), a condition; null when none. */
    private Expression filter;
    /** ORDER BY inside the call or WITHIN GROUP's (keys, descending, NULLs first); empty when none. */
    private Expression[] order = new Expression[0];
    private boolean[] orderDesc = new boolean[0];
    private boolean[] orderNullsFirst = new boolean[0];

    public AggregateSpec(Kind kind, Expression argument, boolean distinct) {
        this(kind, argument, distinct, null);
    }

    /** {@code separator}: GROUP_CONCAT's second argument, a constant (NULL reads as the empty string); null for the default ",". */
    public AggregateSpec(Kind kind, Expression argument, boolean distinct, Expression separator) {
        if ((kind == Kind.COUNT_STAR) != (argument == null)) {
            throw new IllegalArgumentException(kind + (argument == null ? " needs an argument" : " takes no argument"));
        }
        if (separator != null && kind != Kind.GROUP_CONCAT && kind != Kind.STRING_AGG) {
            throw new IllegalArgumentException(kind + " takes no separator");
        }
        if (separator != null && !separator.isConstant()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, kind + " separator must be a constant, got " + separator.describe());
        }
        this.kind = kind;
        this.argument = argument;
        this.distinct = distinct && kind != Kind.COUNT_STAR;
        this.separator = separator;
        this.resultType = typeOf(kind, argument);
    }

    private static SqlType typeOf(Kind kind, Expression arg) {
        switch (kind) {
            case COUNT_STAR:
            case COUNT:
                return SqlType.BIGINT;
            case SUM:
                checkNumeric("SUM", arg);
                return arg.type() == SqlType.DOUBLE ? SqlType.DOUBLE : arg.type() == SqlType.NUMERIC ? SqlType.NUMERIC : SqlType.BIGINT;
            case AVG:
                checkNumeric("AVG", arg);
                return numericAvg(arg) ? SqlType.NUMERIC : SqlType.DOUBLE;
            case TOTAL:
                checkNumeric("TOTAL", arg);
                return SqlType.DOUBLE;
            case MIN:
            case MAX:
                return arg.type();
            case GROUP_CONCAT:
            case STRING_AGG:
                return SqlType.TEXT;
            case VAR_POP:
            case VAR_SAMP:
            case STDDEV_POP:
            case STDDEV_SAMP:
                checkNumeric(kind.name(), arg);
                return numericStats(arg) ? SqlType.NUMERIC : SqlType.DOUBLE;
            case REGR_COUNT:
                return SqlType.BIGINT;
            case BOOL_AND:
            case BOOL_OR:
                if (arg.type() != SqlType.BOOLEAN && arg.type() != SqlType.NULL
                        && (io.respsql.sql.Dialect.postgres() || !arg.type().isInteger())) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + kind.name().toLowerCase(java.util.Locale.ROOT)
                            + "(" + arg.type().sqlName().toLowerCase(java.util.Locale.ROOT) + ") does not exist");
                }
                return SqlType.BOOLEAN;
            case BIT_AND:
            case BIT_OR:
            case BIT_XOR:
                if (!arg.type().isInteger() || arg.type() == SqlType.BOOLEAN || arg.type() == SqlType.DATE
                        || arg.type() == SqlType.TIMESTAMP) {
                    if (arg.type() == SqlType.NULL) {
                        return SqlType.INT;
                    }
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + kind.name().toLowerCase(java.util.Locale.ROOT)
                            + "(" + arg.type().sqlName().toLowerCase(java.util.Locale.ROOT) + ") does not exist");
                }
                return arg.type();
            case PERCENTILE_CONT:
            case PERCENT_RANK:
            case CUME_DIST:
                return SqlType.DOUBLE;
            case RANK:
            case DENSE_RANK:
                return SqlType.BIGINT;
            case PERCENTILE_DISC:
            case MODE:
                return arg.type(); // the argument of an ordered-set aggregate is its WITHIN GROUP key
            case ARRAY_AGG: { // arrays
                if (arg.type().isArray()) {
                    return arg.type();
                }
                SqlType t = SqlType.arrayOf(arg.type() == SqlType.NULL ? SqlType.TEXT : arg.type());
                if (t == null) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function array_agg(" + io.respsql.expr.Expressions.pgName(arg.type())
                            + ") is not supported");
                }
                return t;
            }
            default:
                checkNumeric(kind.name(), arg); // covar_*, corr, regr_*: float8
                return SqlType.DOUBLE;
        }
    }

    /** var_* and stddev_* of NUMERIC, or (PostgreSQL's dialect) of integers: NUMERIC, as PostgreSQL. */
    private static boolean numericStats(Expression arg) {
        return arg.type() == SqlType.NUMERIC || (arg.type().isInteger() && io.respsql.sql.Dialect.postgres());
    }

    /** AVG of NUMERIC, or (PostgreSQL's dialect, as PostgreSQL) of integers: NUMERIC. */
    private static boolean numericAvg(Expression arg) {
        return arg.type() == SqlType.NUMERIC || (arg.type().isInteger() && io.respsql.sql.Dialect.postgres());
    }

    private static void checkNumeric(String fn, Expression arg) {
        if (arg.type().isTextCarried()) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function '" + fn + "' cannot take " + arg.type().sqlName() + ": " + arg.describe());
        }
    }

    public Kind kind() {
        return kind;
    }

    public Expression argument() {
        return argument;
    }

    public boolean distinct() {
        return distinct;
    }

    public Expression separator() {
        return separator;
    }

    /**
     * COUNT → BIGINT; SUM → BIGINT of integer-carried arguments, DOUBLE of DOUBLE; AVG, TOTAL →
     * DOUBLE; MIN/MAX → the argument's type; GROUP_CONCAT → TEXT.
     */
    public SqlType resultType() {
        return resultType;
    }

    // ---- agg ----

    /** The second argument (X of regr_*(Y, X); the fraction of percentile_*); returns this. */
    public AggregateSpec withSecond(Expression x) {
        this.second = x;
        return this;
    }

    /** FILTER (WHERE condition); returns this. */
    public AggregateSpec withFilter(Expression condition) {
        this.filter = condition;
        return this;
    }

    /** ORDER BY inside the call (or WITHIN GROUP's); returns this. */
    public AggregateSpec withOrder(Expression[] keys, boolean[] desc, boolean[] nullsFirst) {
        this.order = keys.clone();
        this.orderDesc = desc.clone();
        this.orderNullsFirst = nullsFirst.clone();
        return this;
    }

    public Expression second() {
        return second;
    }

    public Expression filter() {
        return filter;
    }

    /** Whether the rewrites that move or merge aggregates may take this one (a first-version aggregate, no FILTER/ORDER BY). */
    public boolean plain() {
        return kind.classic() && filter == null && order.length == 0;
    }

    /** The state of one run (per-group primitive arrays), with its FILTER. */
    Accumulator newAccumulator(EvalContext ctx) {
        Accumulator a = accumulator(ctx);
        a.filter = filter;
        return a;
    }

    private Accumulator accumulator(EvalContext ctx) {
        if (kind.orderedSet() || kind == Kind.ARRAY_AGG // arrays: always through the buffering accumulator
                || (order.length > 0 && (kind == Kind.STRING_AGG || kind == Kind.GROUP_CONCAT))) {
            return new OrderedAccumulator(this, ctx);
        }
        switch (kind) {
            case STRING_AGG:
                return new GroupConcatAccumulator(argument, distinct, separatorBytes(ctx));
            case VAR_POP:
            case VAR_SAMP:
            case STDDEV_POP:
            case STDDEV_SAMP:
                return resultType == SqlType.NUMERIC ? new NumericStatsAccumulator(kind, argument, distinct)
                        : new StatsAccumulator(kind, argument, distinct);
            case BOOL_AND:
            case BOOL_OR:
            case BIT_AND:
            case BIT_OR:
            case BIT_XOR:
                return new BitAccumulator(kind, argument, distinct);
            default:
                if (kind.twoArguments()) {
                    return new RegrAccumulator(kind, argument, second);
                }
                return classicAccumulator(ctx);
        }
    }

    Expression[] order() {
        return order;
    }

    boolean[] orderDesc() {
        return orderDesc;
    }

    boolean[] orderNullsFirst() {
        return orderNullsFirst;
    }

    private Accumulator classicAccumulator(EvalContext ctx) {
        if (resultType == SqlType.NUMERIC && kind != Kind.COUNT && kind != Kind.COUNT_STAR) {
            return new NumericAccumulator(kind, argument, distinct);
        }
        switch (kind) {
            case COUNT_STAR:
            case COUNT:
                return new CountAccumulator(argument, distinct);
            case SUM:
                return new SumAccumulator(argument, distinct);
            case AVG:
                return new AvgAccumulator(argument, distinct);
            case TOTAL:
                return new TotalAccumulator(argument, distinct);
            case MIN:
            case MAX:
                if (argument.type().isArray()) {
                    return new ArrayMinMaxAccumulator(argument, kind == Kind.MAX); // arrays: array_cmp's order
                }
                return new MinMaxAccumulator(argument, distinct, kind == Kind.MAX);
            default:
                return new GroupConcatAccumulator(argument, distinct, separatorBytes(ctx));
        }
    }

    byte[] separatorBytes(EvalContext ctx) {
        if (separator == null) {
            return new byte[] {','};
        }
        if (separator.type() == SqlType.NULL) {
            return new byte[0];
        }
        if (separator.type() == SqlType.TEXT) {
            byte[] b = separator.evalText(ctx);
            return ctx.isNull ? new byte[0] : java.util.Arrays.copyOfRange(b, ctx.textOffset, ctx.textOffset + ctx.textLength);
        }
        if (separator.type() == SqlType.DOUBLE) {
            double d = separator.evalDouble(ctx);
            return ctx.isNull ? new byte[0] : Double.toString(d).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        long v = separator.evalLong(ctx);
        if (ctx.isNull) {
            return new byte[0];
        }
        byte[] digits = new byte[20];
        return java.util.Arrays.copyOf(digits, GroupConcatAccumulator.formatLong(v, digits, 0));
    }

    public String describe() {
        String s = kind == Kind.COUNT_STAR ? "COUNT(*)" : kind.name() + "(" + (distinct ? "DISTINCT " : "") + argument.describe()
                + (second == null ? "" : ", " + second.describe()) + (separator == null ? "" : ", " + separator.describe()) + ")";
        return filter == null ? s : s + " FILTER (WHERE " + filter.describe() + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
