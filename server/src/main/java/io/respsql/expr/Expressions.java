package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr.BinaryOp;
import io.respsql.storage.Column;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The one way the binder builds expression nodes. Each factory checks its operands' types and
 * throws {@link io.respsql.sql.SqlException} naming the construct at fault ("operator '+' cannot
 * take TEXT and INT", "function 'ABS' takes 1 argument, got 2", "unknown function 'FOO'").
 *
 * <p>Constant folding: a node whose operands are all constant ({@link Expression#isConstant})
 * is evaluated once here and replaced by its value. When that evaluation throws (an overflow,
 * a CAST of invalid text) the node is kept, so the error is raised when the statement runs,
 * as it would be without folding (a WHERE that never evaluates it never fails).
 *
 * <p>Semantics (where SQLite's corpus and PostgreSQL agree they are both; where they differ the
 * corpus wins and README lists it): NULL in, NULL out, except AND/OR/IS/COALESCE/CASE;
 * integer arithmetic is 64-bit (result BIGINT), overflow an error, division truncates toward
 * zero, division or modulo by zero is NULL (the corpus; PostgreSQL errors); INT op DOUBLE is
 * DOUBLE; BOOLEAN reads as 0/1 in arithmetic and comparisons (SQLite); TEXT compares bytewise;
 * a number compared with TEXT compares the text read as a number when it is a constant that is
 * one, and is an error otherwise (SQLite would order every number before every text); LIKE is
 * ASCII case-insensitive (SQLite; PostgreSQL's is case-sensitive).
 */
public final class Expressions {
    private Expressions() {
    }

    // ---- leaves ------------------------------------------------------------------------------

    /** The column {@code e} reads when it is a bare reference to a column of {@code relation}, else null. */
    public static Column columnRead(Expression e, int relation) {
        return e instanceof ColumnRef r && r.relation == relation ? r.column : null;
    }


    public static Expression constLong(SqlType type, long v) {
        return Literal.ofLong(type, v);
    }

    public static Expression constDouble(double v) {
        return Literal.ofDouble(v);
    }

    public static Expression constText(String v) {
        return Literal.ofText(TextBuf.utf8(v));
    }

    /** A NULL of {@code type} ({@link SqlType#NULL} for a bare {@code NULL} literal). */
    /**
     * What a sort orders {@code e} by: itself, or for NUMERIC its nearest double (exact order up to
     * 15 significant digits; NaN last, as PostgreSQL).
     */
    public static Expression orderValue(Expression e) {
        return numericAsDouble(e);
    }

    /**
     * The forms in which {@code a} and {@code b} are matched for equality by a hash (a join's keys,
     * IN (subquery)): unchanged unless either is NUMERIC; then both as float8 when the other is
     * DOUBLE (PostgreSQL compares numeric and float8 as float8), else both as
     * {@link NumericNodes.MatchKey}s, which equal numbers of different scales share.
     */
    public static Expression[] matchForms(Expression a, Expression b) {
        if (a.type() != SqlType.NUMERIC && b.type() != SqlType.NUMERIC) {
            return new Expression[] {a, b};
        }
        if (a.type() == SqlType.DOUBLE || b.type() == SqlType.DOUBLE) {
            return new Expression[] {numericAsDouble(a), numericAsDouble(b)};
        }
        if ((a.type() == SqlType.NUMERIC || a.type().isInteger()) && (b.type() == SqlType.NUMERIC || b.type().isInteger())) {
            return new Expression[] {new NumericNodes.MatchKey(NumericNodes.numeric(a)), new NumericNodes.MatchKey(NumericNodes.numeric(b))};
        }
        return new Expression[] {a, b};
    }

    /** {@code e} as a float8 when it is NUMERIC (PostgreSQL's implicit cast where float8 is computed with), else itself. */
    public static Expression numericAsDouble(Expression e) {
        return e.type() == SqlType.NUMERIC ? new NumericNodes.FromNumeric(e, SqlType.DOUBLE, 0) : e;
    }

    /** A NUMERIC constant from its text ({@code 0.10}, {@code -1.5e3}); 22P02 when it is no number. */
    public static Expression constNumeric(String text) {
        return NumericNodes.literal(text);
    }

    public static Expression constNull(SqlType type) {
        return Literal.ofNull(type);
    }

    /** The column {@code e} reads when it is a plain column reference of any type (NUMERIC too), else null (CREATE TABLE AS). */
    public static Column outputColumn(Expression e) {
        if (e instanceof NumericNodes.Ref r) {
            return r.column;
        }
        return e instanceof ColumnRef r ? r.column : null;
    }

    /** The stored column {@code e} reads when it is a plain column reference, else null (the planner's estimates). */
    public static Column referencedColumn(Expression e) {
        return e instanceof ColumnRef r ? r.column : null;
    }

    /** The column {@code e} is {@code col IS NULL} of (not IS NOT NULL), a plain column of relation {@code relation}; else null. */
    public static Column isNullTestOf(Expression e, int relation) {
        return e instanceof NullTest.IsNull t && !t.negated && t.arg instanceof ColumnRef r && r.relation == relation
                ? r.column : null;
    }

    /** Column {@code c} of relation number {@code relation}; slot -1 reads as NULL (outer join). */
    public static Expression column(Column c, int relation, String label) {
        if (relation < 0 || relation >= 64) {
            throw new IllegalArgumentException("relation number out of 0..63: " + relation);
        }
        if (c.type().isDecimal()) {
            return new NumericNodes.Ref(c, relation, label);
        }
        return ColumnRef.of(c, relation, label);
    }

    // ---- operators ---------------------------------------------------------------------------

    /** ADD SUB MUL DIV MOD, comparisons EQ..GE, AND, OR, CONCAT. */
    public static Expression binary(BinaryOp op, Expression left, Expression right) {
        switch (op) {
            case AND:
                return fold(new Logic.And(Coercion.condition(left, "AND"), Coercion.condition(right, "AND")));
            case OR:
                return fold(new Logic.Or(Coercion.condition(left, "OR"), Coercion.condition(right, "OR")));
            case CONCAT:
                if (left.type().isArray() || right.type().isArray()) {
                    return fold(ArrayNodes.concat(left, right)); // arrays
                }
                return fold(new Concat(left, right));
            case ADD:
            case SUB:
            case MUL:
            case DIV:
            case MOD:
                return fold(arithmetic(op, left, right));
            default:
                return fold(comparison(op, left, right));
        }
    }

    private static Expression comparison(BinaryOp op, Expression left, Expression right) {
        String what = "operator '" + op.symbol + "'";
        // the constant on the right, so "5 < col" gets the column-with-constant loop
        if (left.isConstant() && !right.isConstant()) {
            Expression[] p = Coercion.forComparison(right, left, what);
            return new Comparison(op.flip(), p[0], p[1]);
        }
        Expression[] p = Coercion.forComparison(left, right, what);
        return new Comparison(op, p[0], p[1]);
    }

    private static boolean integerLike(SqlType t) {
        return t.isInteger() || t == SqlType.BOOLEAN;
    }

    private static Expression arithmetic(BinaryOp op, Expression left, Expression right) {
        if (io.respsql.sql.Dialect.postgres()) { // pgbench: "abalance + $1", $1 an untyped parameter
            left = unknownAsNumber(left, right.type());
            right = unknownAsNumber(right, left.type());
        }
        SqlType a = left.type();
        SqlType b = right.type();
        if (a == SqlType.NULL || b == SqlType.NULL) {
            SqlType other = a == SqlType.NULL ? b : a;
            if (other == SqlType.NULL || integerLike(other)) {
                return Literal.ofNull(SqlType.BIGINT);
            }
            if (other == SqlType.DOUBLE || other == SqlType.DATE || other == SqlType.TIMESTAMP || other == SqlType.INTERVAL) {
                return Literal.ofNull(other);
            }
            if (other == SqlType.NUMERIC) {
                return new NumericNodes.Const(true, 0, 0, null);
            }
            throw cannotTake(op, a, b);
        }
        if (a == SqlType.NUMERIC || b == SqlType.NUMERIC) {
            SqlType other = a == SqlType.NUMERIC ? b : a;
            if (other == SqlType.NUMERIC || other.isInteger()) {
                return new NumericNodes.Arith(op, NumericNodes.numeric(left), NumericNodes.numeric(right));
            }
            if (other == SqlType.DOUBLE) {
                return new ArithmeticOp.DoubleOp(op, left, right, true); // numeric and float8: float8 (PostgreSQL)
            }
            if (other == SqlType.INTERVAL) {
                Expression time = TimeFunctions.arithmetic(op, left, right); // interval * / numeric: in float8
                if (time != null) {
                    return time;
                }
            }
            throw cannotTake(op, a, b);
        }
        Expression time = TimeFunctions.arithmetic(op, left, right);
        if (time != null) {
            return time;
        }
        if (io.respsql.sql.Dialect.postgres()) {
            if (a.isInteger() && b.isInteger()) {
                SqlType t = a == SqlType.INT && b == SqlType.INT ? SqlType.INT : SqlType.BIGINT;
                return new ArithmeticOp.LongOp(t, op, left, right, true);
            }
            if (a.isNumeric() && b.isNumeric()) {
                return new ArithmeticOp.DoubleOp(op, left, right, true);
            }
        }
        if (integerLike(a) && integerLike(b)) {
            return new ArithmeticOp.LongOp(SqlType.BIGINT, op, left, right);
        }
        if (Coercion.numberLike(a) && Coercion.numberLike(b)) {
            return new ArithmeticOp.DoubleOp(op, left, right);
        }
        if (io.respsql.sql.Dialect.postgres() && (a == SqlType.DATE && b.isInteger() && (op == BinaryOp.ADD || op == BinaryOp.SUB)
                || a.isInteger() && b == SqlType.DATE && op == BinaryOp.ADD || a == SqlType.DATE && b == SqlType.DATE && op == BinaryOp.SUB)) {
            return new DateArith(a == SqlType.DATE && b == SqlType.DATE ? SqlType.BIGINT : SqlType.DATE, op, left, right); // regress25
        }
        if (a == SqlType.DATE && b.isInteger() && (op == BinaryOp.ADD || op == BinaryOp.SUB)) {
            return new ArithmeticOp.LongOp(SqlType.DATE, op, left, right);
        }
        if (a.isInteger() && b == SqlType.DATE && op == BinaryOp.ADD) {
            return new ArithmeticOp.LongOp(SqlType.DATE, op, left, right);
        }
        if (a == SqlType.DATE && b == SqlType.DATE && op == BinaryOp.SUB) {
            return new ArithmeticOp.LongOp(SqlType.BIGINT, op, left, right);
        }
        throw cannotTake(op, a, b);
    }

    /**
     * A string literal beside a number in arithmetic, read as that number's type, as PostgreSQL
     * resolves an unknown-typed literal (and a parameter sent with type OID 0, which the pgwire
     * listener binds as a string literal): {@code int_col + '5'} is int + int, {@code int_col + '5.5'}
     * is 22P02. Anything else is returned as it is.
     */
    private static Expression unknownAsNumber(Expression e, SqlType other) {
        if (!(e instanceof Literal) || e.type() != SqlType.TEXT
                || !(other.isNumeric() || other == SqlType.NUMERIC)) {
            return e;
        }
        EvalContext ctx = new EvalContext(1);
        byte[] a = e.evalText(ctx);
        if (ctx.isNull) {
            return Literal.ofNull(other);
        }
        String s = TextBuf.string(a, ctx.textOffset, ctx.textLength).trim();
        if (other == SqlType.NUMERIC) {
            return Coercion.textConstantAs(e, SqlType.NUMERIC, "numeric");
        }
        try {
            if (other == SqlType.DOUBLE) {
                double d = Doubles.special(s);
                return Literal.ofDouble(d != 0.0 ? d : Double.parseDouble(s));
            }
            long v = Long.parseLong(s.startsWith("+") ? s.substring(1) : s);
            if (other == SqlType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
                throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"" + s + "\" is out of range for type integer");
            }
            return Literal.ofLong(other, v);
        } catch (NumberFormatException ex) {
            throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type "
                    + (other == SqlType.DOUBLE ? "double precision" : other == SqlType.INT ? "integer" : "bigint")
                    + ": \"" + s + "\"");
        }
    }

    private static SqlException cannotTake(BinaryOp op, SqlType a, SqlType b) {
        return new SqlException(SqlState.UNDEFINED_FUNCTION, "operator '" + op.symbol + "' cannot take " + a.sqlName() + " and " + b.sqlName());
    }

    public static Expression negate(Expression e) {
        SqlType t = e.type();
        if (t == SqlType.NULL) {
            return Literal.ofNull(SqlType.BIGINT);
        }
        if (t == SqlType.NUMERIC) {
            return fold(new NumericNodes.Negate(e));
        }
        if (t == SqlType.INTERVAL) {
            return fold(new TimeFunctions.IntervalNegate(e));
        }
        if (!Coercion.numberLike(t)) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "operator '-' cannot take " + t.sqlName());
        }
        return fold(new ArithmeticOp.Negate(e, io.respsql.sql.Dialect.postgres()));
    }

    public static Expression not(Expression e) {
        return fold(new Logic.Not(Coercion.condition(e, "NOT")));
    }

    /**
     * {@code e} as a condition (WHERE, ON, HAVING, CASE WHEN): BOOLEAN as is, a bare NULL as a
     * BOOLEAN NULL, a number true when not zero (SQLite's {@code WHERE a}); other types are an
     * error naming {@code clause} ("argument of WHERE must be BOOLEAN, not TEXT").
     */
    public static Expression asCondition(Expression e, String clause) {
        return Coercion.condition(e, clause);
    }

    public static Expression isNull(Expression e, boolean negated) {
        return fold(new NullTest.IsNull(e, negated));
    }

    /** {@code IS [NOT] DISTINCT FROM}: NULL equals NULL, never UNKNOWN. */
    public static Expression isDistinct(Expression left, Expression right, boolean negated) {
        Expression[] p = Coercion.forComparison(left, right, negated ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM");
        return fold(new NullTest.IsDistinct(p[0], p[1], negated));
    }

    public static Expression between(Expression e, Expression low, Expression high, boolean negated) {
        Expression[] lo = Coercion.forComparison(e, low, "BETWEEN");
        Expression[] hi = Coercion.forComparison(e, high, "BETWEEN");
        return fold(new Between(lo, hi, negated));
    }

    /** Constant lists are probed through a hash set; NULL in the list makes a miss UNKNOWN. */
    public static Expression inList(Expression e, List<Expression> values, boolean negated) {
        if (values.isEmpty()) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "IN needs at least one value");
        }
        Expression[][] pairs = new Expression[values.size()][];
        boolean constant = e.type() != SqlType.NULL && e.type() != SqlType.NUMERIC;
        boolean anyDouble = e.type() == SqlType.DOUBLE;
        List<Expression> coerced = new ArrayList<>(values.size());
        for (int i = 0; i < pairs.length; i++) {
            pairs[i] = Coercion.forComparison(e, values.get(i), "IN");
            Expression v = pairs[i][1];
            coerced.add(v);
            if (pairs[i][0] != e || !(v instanceof Literal) || v.type() == SqlType.NUMERIC) {
                constant = false;
            }
            anyDouble |= v.type() == SqlType.DOUBLE;
        }
        if (constant && e.type() != SqlType.INTERVAL) {
            int kind = e.type() == SqlType.TEXT ? ValueCompare.TEXT : anyDouble ? ValueCompare.DOUBLE : ValueCompare.LONG;
            return fold(new InList(e, coerced, kind, negated));
        }
        return fold(new InList(e, values, pairs, negated));
    }

    /** {@code escape} may be null. {@code %} any run, {@code _} one character (of UTF-8 text). */
    public static Expression like(Expression e, Expression pattern, Expression escape, boolean negated) {
        return like(e, pattern, escape, negated, false);
    }

    /**
     * LIKE, or ILIKE ({@code caseless}). In PostgreSQL's dialect LIKE is case-sensitive and a
     * backslash is the escape when none is written; SQLite's LIKE ignores ASCII case.
     */
    public static Expression like(Expression e, Expression pattern, Expression escape, boolean negated, boolean caseless) {
        boolean pg = io.respsql.sql.Dialect.postgres();
        if (pg && escape == null) {
            escape = Literal.ofText(new byte[] {'\\'});
        }
        return fold(new Like(e, pattern, escape, negated, caseless || !pg, caseless));
    }

    /**
     * CASE: {@code operand} null for a searched CASE ({@code whens} are conditions), else each
     * when is compared with it; {@code otherwise} null means ELSE NULL. Result type: the common type.
     */
    public static Expression caseWhen(Expression operand, List<Expression> whens, List<Expression> thens,
                                      Expression otherwise) {
        if (whens.size() != thens.size() || whens.isEmpty()) {
            throw new IllegalArgumentException("CASE needs as many THENs as WHENs, at least one");
        }
        SqlType t = SqlType.NULL;
        List<Expression> results = new ArrayList<>(thens);
        if (otherwise != null) {
            results.add(otherwise);
        }
        for (Expression r : results) {
            SqlType c = commonType(t, r.type());
            if (c == null) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, "CASE results have no common type: " + t.sqlName() + " and " + r.type().sqlName());
            }
            t = c;
        }
        List<Expression> conditions = new ArrayList<>(whens.size());
        for (Expression w : whens) {
            conditions.add(operand == null ? Coercion.condition(w, "CASE WHEN") : binary(BinaryOp.EQ, operand, w));
        }
        List<Expression> coerced = new ArrayList<>(thens.size());
        for (Expression r : thens) {
            coerced.add(Coercion.toType(r, t));
        }
        Expression other = otherwise == null ? Literal.ofNull(t) : Coercion.toType(otherwise, t);
        StringBuilder shown = new StringBuilder("CASE");
        if (operand != null) {
            shown.append(' ').append(operand.describe());
        }
        for (int i = 0; i < whens.size(); i++) {
            shown.append(" WHEN ").append(whens.get(i).describe()).append(" THEN ").append(thens.get(i).describe());
        }
        if (otherwise != null) {
            shown.append(" ELSE ").append(otherwise.describe());
        }
        shown.append(" END");
        return fold(new Case(t, conditions, coerced, other, shown.toString()));
    }

    /** CAST; an impossible conversion of a value is an error naming the value and the type. */
    public static Expression cast(Expression e, SqlType target) {
        if (target == SqlType.NULL) {
            throw new IllegalArgumentException("CAST to NULL");
        }
        SqlType from = e.type();
        if (from == SqlType.NULL) {
            return Literal.ofNull(target);
        }
        if (from == target) {
            return e;
        }
        if (target.isArray()) {
            return ArrayNodes.cast(e, target); // arrays
        }
        if (from.isArray()) {
            if (target == SqlType.TEXT) {
                return new ArrayNodes.AsText(e);
            }
            throw new SqlException(SqlState.CANNOT_COERCE, "cannot cast type " + pgName(from) + " to " + pgName(target));
        }
        if (target == SqlType.NUMERIC) {
            return fold(NumericNodes.numeric(e));
        }
        if (from == SqlType.NUMERIC) {
            if (target == SqlType.TEXT) {
                return fold(new NumericNodes.AsText(e));
            }
            if (target.isInteger() || target == SqlType.DOUBLE) {
                return fold(new NumericNodes.FromNumeric(e, target, target == SqlType.INT ? 32 : target == SqlType.BIGINT ? 64 : 0));
            }
            throw new SqlException(SqlState.CANNOT_COERCE, "cannot cast type numeric to " + pgName(target));
        }
        if (!Casts.allowed(from, target)) {
            throw new SqlException(SqlState.CANNOT_COERCE, "cannot cast " + from.sqlName() + " to " + target.sqlName());
        }
        if (target == SqlType.INTERVAL) {
            return intervalCast(e, Interval.NONE);
        }
        return fold(new Casts.Cast(e, target));
    }

    /**
     * CAST to a type written by name ({@link #typeOf}), with SQLite's NUMERIC affinity for
     * NUMERIC and DECIMAL: a number stays what it is (CAST(7 AS DECIMAL) is the integer 7, as
     * the corpus expects), anything else becomes DOUBLE. Unknown names are an error naming them.
     */
    public static Expression castTo(Expression e, String typeName) {
        int qualifier = intervalQualifier(typeName);
        if (qualifier >= 0) {
            return e.type() == SqlType.NULL ? Literal.ofNull(SqlType.INTERVAL) : intervalCast(e, qualifier);
        }
        if (io.respsql.sql.Dialect.postgres()) {
            return pgCastTo(e, typeName);
        }
        SqlType target = typeOf(typeName);
        if (target == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "unknown type '" + typeName + "'");
        }
        String n = typeName.trim().toUpperCase(Locale.ROOT);
        if ((n.equals("NUMERIC") || n.equals("DECIMAL")) && (e.type().isNumeric() || e.type() == SqlType.NULL)) {
            return e.type() == SqlType.NULL ? Literal.ofNull(SqlType.DOUBLE) : e;
        }
        return cast(e, target);
    }

    /**
     * CAST and {@code ::} in PostgreSQL's dialect: INTEGER/INT4 is the 32-bit INT, SMALLINT/INT2
     * an INT held to 16 bits, BIGINT/INT8 BIGINT, NUMERIC/DECIMAL (and REAL) a DOUBLE for now; a
     * cast to an integer type is range-checked (22003) and text must be a number as a whole.
     */
    /**
     * CAST / {@code ::} with the type's modifiers as written ({@code numeric(10,2)}: length 10, scale
     * 2; -1 when absent): NUMERIC's casts in the PostgreSQL dialect, else {@link #castTo(Expression, String)}.
     */
    public static Expression castTo(Expression e, String typeName, int length, int scale) {
        SqlType array = arrayTypeOf(typeName); // arrays
        if (array != null) {
            return cast(e, array);
        }
        if (io.respsql.sql.Dialect.postgres()) {
            String n = typeName.trim().toUpperCase(Locale.ROOT);
            if (n.equals("CHAR") || n.equals("CHARACTER") || n.equals("BPCHAR")) { // charn: char(n), bare char = char(1)
                Expression text = castTo(e, "TEXT");
                return text.type() == SqlType.NULL ? text : Bpchar.cast(text, length >= 0 ? length : n.equals("BPCHAR") ? -1 : 1);
            }
            if (n.equals("NUMERIC") || n.equals("DECIMAL")) {
                return fold(NumericNodes.numeric(e, numericTypmod(length, scale)));
            }
            if (e.type() == SqlType.NUMERIC) {
                SqlType target = pgTypeOf(typeName);
                if (target == SqlType.TEXT) {
                    return fold(new NumericNodes.AsText(e));
                }
                if (target == SqlType.INT || target == SqlType.BIGINT || target == SqlType.DOUBLE) {
                    int bits = target == SqlType.BIGINT ? 64 : target == SqlType.DOUBLE ? 0 : pgIntBits(typeName);
                    return fold(new NumericNodes.FromNumeric(e, target, bits));
                }
            }
        }
        return castTo(e, typeName);
    }

    /** PostgreSQL's typmod of numeric(p[,s]) ({@code (p << 16) | s}), -1 without p; 22023 out of range. */
    public static int numericTypmod(int precision, int scale) {
        if (precision < 0) {
            return -1;
        }
        int s = Math.max(scale, 0);
        if (precision < 1 || precision > 1000) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "NUMERIC precision " + precision + " must be between 1 and 1000");
        }
        if (s > precision) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "NUMERIC scale " + s + " must be between 0 and precision " + precision);
        }
        return (precision << 16) | s;
    }

    private static Expression pgCastTo(Expression e, String typeName) {
        SqlType target = pgTypeOf(typeName);
        if (target == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "type \"" + typeName.toLowerCase(Locale.ROOT) + "\" does not exist");
        }
        SqlType from = e.type();
        if (from == SqlType.NULL) {
            return Literal.ofNull(target);
        }
        int bits = target == SqlType.BIGINT ? 64 : pgIntBits(typeName);
        if (from == target && (target != SqlType.INT || bits == 32)) {
            return e;
        }
        if (!Casts.allowed(from, target)) {
            throw new SqlException(SqlState.CANNOT_COERCE, "cannot cast type " + pgName(from) + " to " + pgName(target));
        }
        return fold(new Casts.Cast(e, target, true, bits));
    }

    /**
     * The lowest field of an INTERVAL type name ({@code INTERVAL}, {@code INTERVAL DAY},
     * {@code INTERVAL DAY TO SECOND}, {@code INTERVAL(3)} as written): {@link Interval#NONE} for a
     * plain INTERVAL, -1 when the name is no INTERVAL.
     */
    public static int intervalField(String typeName) {
        return Math.max(intervalQualifier(typeName), Interval.NONE);
    }

    static int intervalQualifier(String typeName) {
        String n = typeName.trim().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        if (!n.startsWith("INTERVAL")) {
            return -1;
        }
        n = n.substring(8).trim();
        int precision = -1;
        int p = n.indexOf('(');
        if (p >= 0) {
            int close = n.indexOf(')', p);
            try {
                precision = Math.min(6, Integer.parseInt(n.substring(p + 1, close < 0 ? n.length() : close).trim()));
            } catch (NumberFormatException e) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: INTERVAL precision in '" + typeName + "'");
            }
            n = n.substring(0, p).trim();
        }
        int f;
        if (n.isEmpty()) {
            f = Interval.NONE;
        } else if (n.equals("MINUTE TO SECOND")) {
            f = Interval.MINUTE_TO_SECOND;
        } else {
            int to = n.lastIndexOf(' ');
            f = Interval.field(to < 0 ? n : n.substring(to + 1));
        }
        if (f < 0) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: unknown INTERVAL field in '" + typeName + "'");
        }
        return precision < 0 ? f : f | (precision + 1) << 4;
    }

    /** TEXT (or INTERVAL) to INTERVAL: a constant is read now (its error is the statement's), else per row. */
    private static Expression intervalCast(Expression e, int qualifier) {
        SqlType from = e.type();
        if (from == SqlType.INTERVAL && qualifier == Interval.NONE) {
            return e;
        }
        if (from != SqlType.TEXT && from != SqlType.INTERVAL) {
            throw new SqlException(SqlState.CANNOT_COERCE, io.respsql.sql.Dialect.postgres()
                    ? "cannot cast type " + pgName(from) + " to interval" : "cannot cast " + from.sqlName() + " to INTERVAL");
        }
        if (from == SqlType.INTERVAL) {
            e = fold(new Casts.Cast(e, SqlType.TEXT));
        }
        return fold(new TimeFunctions.IntervalCast(e, qualifier));
    }

    /**
     * What a sort orders {@code e} by: itself, or for an INTERVAL the bytes that decide its order
     * (its normalised span: '1 mon' and '30 days' are peers, as in PostgreSQL).
     */
    public static Expression orderKey(Expression e) {
        if (e.type().isArray()) {
            return new ArrayNodes.OrderKey(e); // arrays: array_cmp's order as bytes
        }
        return e.type() == SqlType.INTERVAL ? new TimeFunctions.IntervalOrder(e) : e;
    }

    /** The integer width PostgreSQL's type name means: 16 for smallint/int2, else 32. */
    private static int pgIntBits(String typeName) {
        String n = typeName.trim().toUpperCase(Locale.ROOT);
        return n.equals("SMALLINT") || n.equals("INT2") ? 16 : 32;
    }

    /** The type PostgreSQL's name means among RespSQL's types, or null when unknown. */
    public static SqlType pgTypeOf(String typeBaseName) {
        String n = typeBaseName.trim().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        SqlType array = arrayTypeOf(n); // arrays
        if (array != null) {
            return array;
        }
        switch (n) {
            case "INT", "INTEGER", "INT4", "SMALLINT", "INT2":
                return SqlType.INT;
            case "BIGINT", "INT8":
                return SqlType.BIGINT;
            case "TIMESTAMP WITHOUT TIME ZONE":
                return SqlType.TIMESTAMP;
            case "BPCHAR", "NAME":
                return SqlType.TEXT;
            default:
                return typeOf(n);
        }
    }

    // ---- prepared ----

    /**
     * A TEXT constant as the value of {@code target} it is compared as (PostgreSQL's unknown-typed
     * literal beside a column: {@code aid = '5'} compares with 5), for an index key; the
     * comparison's own error when it is none.
     */
    public static Expression textConstantAs(Expression textConst, SqlType target, String what) {
        return Coercion.textConstantAs(textConst, target, what);
    }

    /** PostgreSQL's name of {@code t}, for its error texts. */
    public static String pgName(SqlType t) {
        if (t.isArray()) {
            return pgName(t.element()) + "[]";
        }
        switch (t) {
            case INT:
                return "integer";
            case BIGINT:
                return "bigint";
            case DOUBLE:
                return "double precision";
            case BOOLEAN:
                return "boolean";
            case TEXT:
                return "text";
            case DATE:
                return "date";
            case TIMESTAMP:
                return "timestamp without time zone";
            case NUMERIC:
                return "numeric";
            case INTERVAL:
                return "interval";
            default:
                return "unknown";
        }
    }

    /**
     * A scalar function by upper-case name: COALESCE, IFNULL, NULLIF, ABS, ROUND, LOWER, UPPER,
     * LENGTH (CHAR_LENGTH), SUBSTR/SUBSTRING, TRIM/LTRIM/RTRIM, REPLACE, INSTR. Aggregates are
     * not functions here (the binder routes them to the aggregate operator).
     */
    public static Expression function(String name, List<Expression> args) {
        Expression array = ArrayNodes.function(name, args); // arrays
        if (array != null) {
            return fold(array);
        }
        return fold(Functions.build(name, args));
    }

    /** Whether {@link #function} knows {@code name} (upper case). */
    public static boolean isFunction(String name) {
        return Functions.NAMES.contains(name) || RegexFunctions.NAMES.contains(name) // textfn: regexp_*
                || ArrayNodes.NAMES.contains(name); // arrays
    }

    /**
     * The type both operands are brought to for comparison or a CASE/COALESCE/UNION result
     * (INT with BIGINT is BIGINT, integer with DOUBLE is DOUBLE, NULL with X is X, DATE with
     * TIMESTAMP is TIMESTAMP); null when there is none (TEXT with INT in a CASE result).
     */
    public static SqlType commonType(SqlType a, SqlType b) {
        if (a == b) {
            return a;
        }
        if (a == SqlType.NULL) {
            return b;
        }
        if (b == SqlType.NULL) {
            return a;
        }
        if (a.isArray() || b.isArray()) { // arrays: of the elements' common type
            SqlType e = a.isArray() && b.isArray() ? commonType(a.element(), b.element()) : null;
            return e == null ? null : SqlType.arrayOf(e);
        }
        if (a.isInteger() && b.isInteger()) {
            return SqlType.BIGINT;
        }
        if ((a == SqlType.NUMERIC && b.isInteger()) || (b == SqlType.NUMERIC && a.isInteger())) {
            return SqlType.NUMERIC;
        }
        if ((a == SqlType.NUMERIC && b == SqlType.DOUBLE) || (b == SqlType.NUMERIC && a == SqlType.DOUBLE)) {
            return SqlType.DOUBLE;
        }
        if (a.isNumeric() && b.isNumeric()) {
            return SqlType.DOUBLE;
        }
        if (Coercion.temporal(a) && Coercion.temporal(b)) {
            return SqlType.TIMESTAMP;
        }
        return null;
    }

    /**
     * The SqlType of a type name as CAST writes it (case-insensitive; multi-word names with
     * single spaces), or null when unknown. Every integer name is BIGINT: CAST(x AS INTEGER)
     * is 64-bit, as in SQLite. NUMERIC/DECIMAL are DOUBLE (no exact decimal type).
     */
    public static SqlType typeOf(String typeBaseName) {
        String n = typeBaseName.trim().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        SqlType array = arrayTypeOf(n); // arrays
        if (array != null) {
            return array;
        }
        switch (n) {
            case "INT":
            case "INTEGER":
            case "SMALLINT":
            case "TINYINT":
            case "MEDIUMINT":
            case "BIGINT":
            case "LONG":
            case "INT2":
            case "INT4":
            case "INT8":
            case "SIGNED":
            case "UNSIGNED":
                return SqlType.BIGINT;
            case "REAL":
            case "FLOAT":
            case "FLOAT4":
            case "FLOAT8":
            case "DOUBLE":
            case "DOUBLE PRECISION":
            case "NUMERIC":
            case "DECIMAL":
                return SqlType.DOUBLE;
            case "TEXT":
            case "VARCHAR":
            case "CHAR":
            case "CHARACTER":
            case "CHARACTER VARYING":
            case "VARYING CHARACTER":
            case "NCHAR":
            case "NVARCHAR":
            case "STRING":
            case "CLOB":
                return SqlType.TEXT;
            case "BOOLEAN":
            case "BOOL":
                return SqlType.BOOLEAN;
            case "DATE":
                return SqlType.DATE;
            case "TIMESTAMP":
            case "DATETIME":
            case "TIMESTAMP WITHOUT TIME ZONE":
            case "TIMESTAMPTZ": // PostgreSQL's, held as UTC (the session's TimeZone is UTC)
            case "TIMESTAMP WITH TIME ZONE":
                return SqlType.TIMESTAMP;
            case "INTERVAL":
                return SqlType.INTERVAL;
            default:
                return null;
        }
    }

    // ---- arrays ----

    /**
     * The array type a type name means ({@code INT[]}, {@code TEXT[][]}, {@code INTEGER ARRAY},
     * PostgreSQL's internal {@code _INT4}), or null when it names no array.
     */
    public static SqlType arrayTypeOf(String typeName) {
        String n = typeName.trim().toUpperCase(Locale.ROOT);
        String base;
        if (n.endsWith("]")) {
            int b = n.indexOf('[');
            if (b < 0) {
                return null;
            }
            base = n.substring(0, b).trim();
        } else if (n.endsWith(" ARRAY")) {
            base = n.substring(0, n.length() - 6).trim();
        } else if (n.startsWith("_") && n.length() > 1) {
            base = n.substring(1);
        } else {
            return null;
        }
        if (base.equals("NUMERIC") || base.equals("DECIMAL")) {
            return SqlType.NUMERIC_ARRAY;
        }
        if (base.equals("FLOAT4") || base.equals("REAL") || base.equals("FLOAT8") || base.equals("FLOAT")
                || base.equals("DOUBLE PRECISION")) {
            return SqlType.DOUBLE_ARRAY;
        }
        if (base.startsWith("VARCHAR") || base.startsWith("CHARACTER VARYING") || base.startsWith("CHAR")
                || base.startsWith("BPCHAR")) {
            return SqlType.TEXT_ARRAY;
        }
        if (base.startsWith("TIMESTAMP")) {
            return SqlType.TIMESTAMP_ARRAY;
        }
        SqlType e = pgTypeOf(base);
        return e == null || e == SqlType.INTERVAL || e.isArray() ? null : SqlType.arrayOf(e);
    }

    /** The expression type of an array column of storage type {@code t}. */
    public static SqlType arrayTypeOfStorage(io.respsql.storage.ColumnType t) {
        switch (t) {
            case INT_ARRAY:
                return SqlType.INT_ARRAY;
            case BIGINT_ARRAY:
                return SqlType.BIGINT_ARRAY;
            case FLOAT_ARRAY:
                return SqlType.DOUBLE_ARRAY;
            case BOOLEAN_ARRAY:
                return SqlType.BOOLEAN_ARRAY;
            case DATE_ARRAY:
                return SqlType.DATE_ARRAY;
            case TIMESTAMP_ARRAY:
                return SqlType.TIMESTAMP_ARRAY;
            case NUMERIC_ARRAY:
                return SqlType.NUMERIC_ARRAY;
            default:
                return SqlType.TEXT_ARRAY;
        }
    }

    // ---- folding -----------------------------------------------------------------------------

    /** {@code e} replaced by its value when it is constant and computing it does not throw. */
    static Expression fold(Expression e) {
        if (e instanceof Literal || !e.isConstant()) {
            return e;
        }
        EvalContext ctx = new EvalContext(1);
        try {
            switch (e.type()) {
                case NULL:
                    return Literal.ofNull(SqlType.NULL);
                case NUMERIC: {
                    if (e instanceof NumericNodes.Const) {
                        return e;
                    }
                    long u = e.evalNumeric(ctx);
                    return ctx.isNull ? new NumericNodes.Const(true, 0, 0, null) : NumericNodes.Const.of(ctx, u);
                }
                case DOUBLE: {
                    double d = e.evalDouble(ctx);
                    return ctx.isNull ? Literal.ofNull(SqlType.DOUBLE) : Literal.ofDouble(d);
                }
                case INTERVAL: {
                    byte[] a = e.evalText(ctx);
                    return ctx.isNull ? Literal.ofNull(SqlType.INTERVAL)
                            : Literal.ofInterval(Arrays.copyOfRange(a, ctx.textOffset, ctx.textOffset + ctx.textLength));
                }
                case TEXT: {
                    byte[] a = e.evalText(ctx);
                    return ctx.isNull ? Literal.ofNull(SqlType.TEXT)
                            : Literal.ofText(Arrays.copyOfRange(a, ctx.textOffset, ctx.textOffset + ctx.textLength));
                }
                case INT_ARRAY:
                case BIGINT_ARRAY:
                case DOUBLE_ARRAY:
                case TEXT_ARRAY:
                case BOOLEAN_ARRAY:
                case DATE_ARRAY:
                case TIMESTAMP_ARRAY:
                case NUMERIC_ARRAY: { // arrays
                    byte[] a = e.evalText(ctx);
                    return ctx.isNull ? Literal.ofNull(e.type())
                            : Literal.ofArray(e.type(), Arrays.copyOfRange(a, ctx.textOffset, ctx.textOffset + ctx.textLength));
                }
                default: {
                    long v = e.evalLong(ctx);
                    return ctx.isNull ? Literal.ofNull(e.type()) : Literal.ofLong(e.type(), v);
                }
            }
        } catch (SqlException ex) {
            return e; // raised when the statement runs
        }
    }
}
