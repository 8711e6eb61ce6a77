package io.respsql.sql.tree;

import java.util.List;

/**
 * Expression syntax, before names are resolved: one grammar in which conditions are values
 * ({@code a = 1} is a BOOLEAN expression like any other). Every node keeps its source span
 * ({@code start}..{@code end} in the statement text): errors quote it, and a 2010-style unquoted
 * text value ({@code VALUES (1, marie anne)}) is taken verbatim from it.
 */
public sealed interface Expr {
    int start();

    int end();

    enum LiteralKind {
        /** Digits only, as written (leading zeros kept: the binder reads them as decimal). */
        INTEGER,
        /** A number with a fraction or an exponent. */
        DECIMAL,
        /** A quoted string, unescaped. */
        STRING,
        NULL, TRUE, FALSE
    }

    record Literal(LiteralKind kind, String text, int start, int end) implements Expr {
    }

    /**
     * A parameter: a prepared statement's {@code ?} ({@code kind} null: typed by its context), or
     * a literal a plan cache took out of the text ({@code kind} says which literal it was).
     * {@code index} counts from 0 in text order.
     */
    record Parameter(int index, LiteralKind kind, int start, int end) implements Expr {
    }

    /** {@code TIMESTAMP '2024-06-01 00:00:00'}, {@code DATE '2024-06-01'}: a type name and a string. */
    record TypedLiteral(TypeName type, String text, int start, int end) implements Expr {
    }

    /**
     * A name: a column ({@code qualifier} is its table or alias, or null). Where a column of that
     * name does not exist, the 2010 dialect reads a bare name as an unquoted text value.
     */
    record Column(String qualifier, String name, int start, int end) implements Expr {
    }

    /** Unquoted text spanning several tokens, taken verbatim ({@code VALUES (1, hello world)}). */
    record Raw(String text, int start, int end) implements Expr {
    }

    enum UnaryOp { PLUS, MINUS, NOT }

    record Unary(UnaryOp op, Expr operand, int start, int end) implements Expr {
    }

    enum BinaryOp {
        ADD("+"), SUB("-"), MUL("*"), DIV("/"), MOD("%"), CONCAT("||"),
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">="),
        AND("AND"), OR("OR");

        public final String symbol;

        BinaryOp(String symbol) {
            this.symbol = symbol;
        }

        public boolean isComparison() {
            return ordinal() >= EQ.ordinal() && ordinal() <= GE.ordinal();
        }

        /** The comparison seen from the other side: {@code 5 < x} is {@code x > 5}. */
        public BinaryOp flip() {
            switch (this) {
                case LT:
                    return GT;
                case LE:
                    return GE;
                case GT:
                    return LT;
                case GE:
                    return LE;
                default:
                    return this;
            }
        }
    }

    record Binary(BinaryOp op, Expr left, Expr right, int start, int end) implements Expr {
    }

    /** {@code x IS [NOT] NULL} (also {@code ISNULL}, {@code NOTNULL}). */
    record IsNull(Expr operand, boolean negated, int start, int end) implements Expr {
    }

    /** {@code x IS [NOT] DISTINCT FROM y}, and SQLite's {@code x IS [NOT] y}. */
    record IsDistinct(Expr left, Expr right, boolean negated, int start, int end) implements Expr {
    }

    record Between(Expr operand, Expr low, Expr high, boolean negated, int start, int end) implements Expr {
    }

    record InList(Expr operand, List<Expr> values, boolean negated, int start, int end) implements Expr {
    }

    record InQuery(Expr operand, Query query, boolean negated, int start, int end) implements Expr {
    }

    record Exists(Query query, boolean negated, int start, int end) implements Expr {
    }

    /** A subquery used as a value: one column, at most one row (no row is NULL). */
    record ScalarQuery(Query query, int start, int end) implements Expr {
    }

    /** {@code x [NOT] LIKE pattern [ESCAPE e]}; {@code escape} may be null; {@code caseless} for PostgreSQL's ILIKE. */
    record Like(Expr operand, Expr pattern, Expr escape, boolean negated, boolean caseless, int start, int end) implements Expr {
        public Like(Expr operand, Expr pattern, Expr escape, boolean negated, int start, int end) {
            this(operand, pattern, escape, negated, false, start, end);
        }
    }

    record When(Expr condition, Expr result) {
    }

    /** Simple CASE when {@code operand} is not null, searched CASE otherwise; {@code otherwise} may be null. */
    record Case(Expr operand, List<When> whens, Expr otherwise, int start, int end) implements Expr {
    }

    record Cast(Expr operand, TypeName type, int start, int end) implements Expr {
    }

    /**
     * A call: scalar functions and aggregates alike, told apart by the binder from the name.
     * {@code star} for {@code COUNT(*)} (args empty); {@code distinct} for {@code COUNT(DISTINCT x)};
     * {@code over} is the window of a window function call, else null. {@code name} is upper case.
     */
    record Function(String name, List<Expr> args, boolean distinct, boolean star, Window over, int start, int end,
                    AggregateExtras extras)
            implements Expr {
        public Function(String name, List<Expr> args, boolean distinct, boolean star, Window over, int start, int end) {
            this(name, args, distinct, star, over, start, end, null);
        }

        /** FILTER (WHERE ...) of an aggregate call, else null. */
        public Expr filter() {
            return extras == null ? null : extras.filter();
        }

        /** ORDER BY inside the call ({@code string_agg(x, ',' ORDER BY y)}), or WITHIN GROUP's; empty when none. */
        public List<Query.OrderItem> argOrder() {
            return extras == null ? List.of() : extras.order();
        }

        /** {@code WITHIN GROUP (ORDER BY ...)}: an ordered-set aggregate. */
        public boolean withinGroup() {
            return extras != null && extras.withinGroup();
        }
    }

    // ---- agg ----
    enum GroupingKind { SETS, ROLLUP, CUBE, ROW }

    /**
     * A GROUP BY element of grouping sets (issue 25): {@code GROUPING SETS (...)} (items: elements),
     * {@code ROLLUP (...)}, {@code CUBE (...)} (items: expressions or ROWs) or a parenthesised list
     * {@code (a, b)} / {@code ()} (ROW: one set of those expressions).
     */
    record GroupingSet(GroupingKind kind, List<Expr> items, int start, int end) implements Expr {
    }

    /** An aggregate call's FILTER (WHERE ...) (null when none), its ORDER BY, and whether that was WITHIN GROUP's. */
    record AggregateExtras(Expr filter, List<Query.OrderItem> order, boolean withinGroup) {
    }

    /** {@code OVER (PARTITION BY ... ORDER BY ... frame)}; {@code frame} may be null. */
    record Window(List<Expr> partitionBy, List<Query.OrderItem> orderBy, Frame frame) {
    }

    enum FrameUnit { ROWS, RANGE, GROUPS }

    /** A frame's {@code EXCLUDE} clause ({@code NO_OTHERS} when none is written). */
    enum Exclusion { NO_OTHERS, CURRENT_ROW, GROUP, TIES }

    enum BoundKind { UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING }

    /** {@code offset} is set for PRECEDING/FOLLOWING, else null. */
    record FrameBound(BoundKind kind, Expr offset) {
    }

    /** {@code end} is null when only a start is written ({@code ROWS 2 PRECEDING}). */
    record Frame(FrameUnit unit, FrameBound start, FrameBound end, Exclusion exclude) {
        public Frame(FrameUnit unit, FrameBound start, FrameBound end) {
            this(unit, start, end, Exclusion.NO_OTHERS);
        }
    }
}
