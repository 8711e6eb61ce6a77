package io.respsql.exec.op.window;

import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.ColumnType;

/**
 * One window function call: its kind, bound arguments and frame (null: {@link WindowFrame#DEFAULT};
 * ignored by the functions that read no frame). Checks the arguments as PostgreSQL does and decides
 * the result type:
 * <ul>
 * <li>ROW_NUMBER, RANK, DENSE_RANK, COUNT(*), COUNT(x): BIGINT; NTILE(n): INT; PERCENT_RANK, CUME_DIST: DOUBLE;
 * <li>SUM(x): BIGINT for integer x, DOUBLE for DOUBLE x, NUMERIC for NUMERIC x; AVG(x): DOUBLE, NUMERIC for
 *     NUMERIC x and (PostgreSQL's dialect) integer x;
 * <li>MIN, MAX, FIRST_VALUE, LAST_VALUE: x's type; LAG/LEAD(x[, offset[, default]]): x's type
 *     (DOUBLE when x is an integer and the default a DOUBLE: PostgreSQL's common type).
 * </ul>
 */
public final class WindowFunctionSpec {
    private final WindowFunctionKind kind;
    private final Expression[] args;
    private final WindowFrame frame;
    private final SqlType resultType;

    public WindowFunctionSpec(WindowFunctionKind kind, Expression[] args, WindowFrame frame) {
        this.kind = kind;
        this.args = args == null ? new Expression[0] : args.clone();
        this.frame = frame == null ? WindowFrame.DEFAULT : frame;
        this.resultType = check();
    }

    public WindowFunctionKind kind() {
        return kind;
    }

    public Expression[] args() {
        return args.clone();
    }

    Expression arg(int i) {
        return args[i];
    }

    int argCount() {
        return args.length;
    }

    public WindowFrame frame() {
        return frame;
    }

    /** The type of the output column the planner declares for this function. */
    public SqlType resultType() {
        return resultType;
    }

    /** The storage type of the function's output column ({@link #resultType()} as a column). */
    public ColumnType columnType() {
        switch (resultType) {
            case INT:
                return ColumnType.INT;
            case DOUBLE:
                return ColumnType.FLOAT;
            case TEXT:
                return ColumnType.TEXT;
            case BOOLEAN:
                return ColumnType.BOOLEAN;
            case DATE:
                return ColumnType.DATE;
            case TIMESTAMP:
                return ColumnType.TIMESTAMP;
            case INTERVAL:
                return ColumnType.INTERVAL;
            case NUMERIC:
                return ColumnType.NUMERIC_TEXT; // each value's text, its own scale kept (as the aggregates' columns)
            default:
                return ColumnType.BIGINT;
        }
    }

    private SqlType check() {
        String name = kind.sqlName();
        switch (kind) {
            case ROW_NUMBER:
            case RANK:
            case DENSE_RANK:
            case COUNT_STAR:
                arity(0, 0);
                return SqlType.BIGINT;
            case PERCENT_RANK:
            case CUME_DIST:
                arity(0, 0);
                return SqlType.DOUBLE;
            case VAR_POP:
            case VAR_SAMP:
            case VARIANCE:
            case STDDEV_POP:
            case STDDEV_SAMP:
            case STDDEV: {
                arity(1, 1);
                SqlType t = numeric(args[0]);
                // PostgreSQL: float8 in, float8 out; integers and numeric give numeric (NUMERIC is its dialect's alone)
                return t != SqlType.DOUBLE && io.respsql.sql.Dialect.postgres() ? SqlType.NUMERIC : SqlType.DOUBLE;
            }
            case NTH_VALUE:
                arity(2, 2);
                integer(args[1], "NTH_VALUE's position");
                return typed(args[0]);
            case NTILE:
                arity(1, 1);
                integer(args[0], "NTILE's bucket count");
                return SqlType.INT; // PostgreSQL's ntile returns integer
            case COUNT:
                arity(1, 1);
                return SqlType.BIGINT;
            case SUM: {
                arity(1, 1);
                SqlType t = numeric(args[0]);
                return t == SqlType.DOUBLE || t == SqlType.NUMERIC ? t : SqlType.BIGINT;
            }
            case AVG: {
                arity(1, 1);
                SqlType t = numeric(args[0]);
                // PostgreSQL's AVG of NUMERIC and of integers is NUMERIC (in its dialect, as the plain aggregate)
                return t == SqlType.NUMERIC || (t.isInteger() && io.respsql.sql.Dialect.postgres()) ? SqlType.NUMERIC : SqlType.DOUBLE;
            }
            case MIN:
            case MAX:
            case FIRST_VALUE:
            case LAST_VALUE:
                arity(1, 1);
                return typed(args[0]);
            case LAG:
            case LEAD:
                arity(1, 3);
                if (args.length >= 2) {
                    integer(args[1], name + "'s offset");
                }
                return args.length == 3 ? common(args[0], args[2]) : typed(args[0]);
            default:
                throw new IllegalStateException(kind.name());
        }
    }

    private void arity(int min, int max) {
        if (args.length < min || args.length > max) {
            String want = min == max ? Integer.toString(min) : min + " to " + max;
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function '" + kind.sqlName() + "' takes " + want + " argument" + (max == 1 ? "" : "s")
                    + ", got " + args.length);
        }
    }

    private void integer(Expression e, String what) {
        if (!e.type().isInteger() && e.type() != SqlType.NULL) {
            throw new SqlException(SqlState.DATATYPE_MISMATCH, what + " must be an integer, got " + e.type().sqlName() + ": " + e.describe());
        }
    }

    private SqlType numeric(Expression e) {
        if (!e.type().isNumeric() && e.type() != SqlType.NUMERIC) {
            throw new SqlException(SqlState.DATATYPE_MISMATCH, "function '" + kind.sqlName() + "' cannot take " + e.type().sqlName() + ": " + e.describe());
        }
        return e.type();
    }

    private SqlType typed(Expression e) {
        if (e.type() == SqlType.NULL) {
            throw new SqlException(SqlState.INDETERMINATE_DATATYPE, "function '" + kind.sqlName() + "' cannot take an untyped NULL: give it a type with CAST");
        }
        return e.type();
    }

    /** LAG/LEAD's value and default: one type, an integer widened to DOUBLE, or a NULL default. */
    private SqlType common(Expression value, Expression dflt) {
        SqlType v = value.type();
        SqlType d = dflt.type();
        if (v == SqlType.NULL) {
            return typed(dflt);
        }
        if (d == SqlType.NULL || d == v || (v.isInteger() && d.isInteger())) {
            return v == SqlType.INT && d == SqlType.BIGINT ? SqlType.BIGINT : v;
        }
        boolean vn = v.isNumeric() || v == SqlType.NUMERIC;
        boolean dn = d.isNumeric() || d == SqlType.NUMERIC;
        if (vn && dn) {
            // PostgreSQL's common type: float8 above numeric above the integers
            return v == SqlType.DOUBLE || d == SqlType.DOUBLE ? SqlType.DOUBLE : SqlType.NUMERIC;
        }
        throw new SqlException(SqlState.DATATYPE_MISMATCH, "function '" + kind.sqlName() + "': default " + dflt.describe() + " of type " + d.sqlName()
                + " does not match " + value.describe() + " of type " + v.sqlName());
    }

    public String describe() {
        StringBuilder b = new StringBuilder(kind.sqlName()).append('(');
        if (kind == WindowFunctionKind.COUNT_STAR) {
            b.append('*');
        }
        for (int i = 0; i < args.length; i++) {
            b.append(i == 0 ? "" : ", ").append(args[i].describe());
        }
        b.append(')');
        if (kind.usesFrame()) {
            b.append(' ').append(frame.describe());
        }
        return b.toString();
    }
}
