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
    public enum Kind { COUNT_STAR, COUNT, SUM, AVG, MIN, MAX, TOTAL, GROUP_CONCAT }

    private final Kind kind;
    private final Expression argument;
    private final boolean distinct;
    private final Expression separator;
    private final SqlType resultType;

    public AggregateSpec(Kind kind, Expression argument, boolean distinct) {
        this(kind, argument, distinct, null);
    }

    /** {@code separator}: GROUP_CONCAT's second argument, a constant (NULL reads as the empty string); null for the default ",". */
    public AggregateSpec(Kind kind, Expression argument, boolean distinct, Expression separator) {
        if ((kind == Kind.COUNT_STAR) != (argument == null)) {
            throw new IllegalArgumentException(kind + (argument == null ? " needs an argument" : " takes no argument"));
        }
        if (separator != null && kind != Kind.GROUP_CONCAT) {
            throw new IllegalArgumentException(kind + " takes no separator");
        }
        if (separator != null && !separator.isConstant()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "GROUP_CONCAT separator must be a constant, got " + separator.describe());
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
            default:
                return SqlType.TEXT;
        }
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

    /** The state of one run (per-group primitive arrays). */
    Accumulator newAccumulator(EvalContext ctx) {
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
                return new MinMaxAccumulator(argument, distinct, kind == Kind.MAX);
            default:
                return new GroupConcatAccumulator(argument, distinct, separatorBytes(ctx));
        }
    }

    private byte[] separatorBytes(EvalContext ctx) {
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
        return kind == Kind.COUNT_STAR ? "COUNT(*)" : kind.name() + "(" + (distinct ? "DISTINCT " : "") + argument.describe()
                + (separator == null ? "" : ", " + separator.describe()) + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
