package io.respsql.expr;

import io.respsql.sql.tree.Expr.BinaryOp;
import io.respsql.storage.Column;

import java.util.List;

/**
 * The one way the binder builds expression nodes. Each factory checks its operands' types and
 * throws {@link io.respsql.sql.SqlException} naming the construct at fault ("operator '+' cannot
 * take TEXT and INT", "function 'ABS' takes 1 argument, got 2", "unknown function 'FOO'").
 * Constant operands are folded where that is exact.
 *
 * <p>Semantics (where SQLite's corpus and PostgreSQL agree they are both; where they differ the
 * corpus wins and README lists it): NULL in, NULL out, except AND/OR/IS/COALESCE/CASE;
 * integer arithmetic is 64-bit, overflow an error, division truncates toward zero, division or
 * modulo by zero is NULL (the corpus; PostgreSQL errors); INT op DOUBLE is DOUBLE; TEXT compares
 * bytewise; a number compared with TEXT compares the text read as a number when it is one.
 */
public final class Expressions {
    private Expressions() {
    }

    // ---- leaves ------------------------------------------------------------------------------

    public static Expression constLong(SqlType type, long v) {
        throw todo();
    }

    public static Expression constDouble(double v) {
        throw todo();
    }

    public static Expression constText(String v) {
        throw todo();
    }

    /** A NULL of {@code type} ({@link SqlType#NULL} for a bare {@code NULL} literal). */
    public static Expression constNull(SqlType type) {
        throw todo();
    }

    /** Column {@code c} of relation number {@code relation}; slot -1 reads as NULL (outer join). */
    public static Expression column(Column c, int relation, String label) {
        throw todo();
    }

    // ---- operators ---------------------------------------------------------------------------

    /** ADD SUB MUL DIV MOD, comparisons EQ..GE, AND, OR, CONCAT. */
    public static Expression binary(BinaryOp op, Expression left, Expression right) {
        throw todo();
    }

    public static Expression negate(Expression e) {
        throw todo();
    }

    public static Expression not(Expression e) {
        throw todo();
    }

    public static Expression isNull(Expression e, boolean negated) {
        throw todo();
    }

    /** {@code IS [NOT] DISTINCT FROM}: NULL equals NULL, never UNKNOWN. */
    public static Expression isDistinct(Expression left, Expression right, boolean negated) {
        throw todo();
    }

    public static Expression between(Expression e, Expression low, Expression high, boolean negated) {
        throw todo();
    }

    /** Constant lists are probed through a hash set; NULL in the list makes a miss UNKNOWN. */
    public static Expression inList(Expression e, List<Expression> values, boolean negated) {
        throw todo();
    }

    /** {@code escape} may be null. {@code %} any run, {@code _} one character (of UTF-8 text). */
    public static Expression like(Expression e, Expression pattern, Expression escape, boolean negated) {
        throw todo();
    }

    /**
     * CASE: {@code operand} null for a searched CASE ({@code whens} are conditions), else each
     * when is compared with it; {@code otherwise} null means ELSE NULL. Result type: the common type.
     */
    public static Expression caseWhen(Expression operand, List<Expression> whens, List<Expression> thens,
                                      Expression otherwise) {
        throw todo();
    }

    /** CAST; an impossible conversion of a value is an error naming the value and the type. */
    public static Expression cast(Expression e, SqlType target) {
        throw todo();
    }

    /**
     * A scalar function by upper-case name: COALESCE, IFNULL, NULLIF, ABS, ROUND, LOWER, UPPER,
     * LENGTH, SUBSTR/SUBSTRING, TRIM/LTRIM/RTRIM, and the others Expressions knows. Aggregates are
     * not functions here (the binder routes them to the aggregate operator).
     */
    public static Expression function(String name, List<Expression> args) {
        throw todo();
    }

    /** Whether {@link #function} knows {@code name} (upper case). */
    public static boolean isFunction(String name) {
        return false;
    }

    /**
     * The type both operands are brought to for comparison or a CASE/COALESCE/UNION result
     * (INT with BIGINT is BIGINT, integer with DOUBLE is DOUBLE, NULL with X is X); null when
     * there is none (TEXT with INT in a CASE result).
     */
    public static SqlType commonType(SqlType a, SqlType b) {
        throw todo();
    }

    private static UnsupportedOperationException todo() {
        return new UnsupportedOperationException("expression factory not built yet");
    }
}
