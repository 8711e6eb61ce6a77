package io.respsql.sql;

import java.util.List;

/**
 * Expression syntax tree, before names are resolved. Every node keeps its source span so an
 * unquoted 2010-style text value ({@code name=marie anne}) can be taken verbatim from the text.
 */
public sealed interface Expr {
    int start();

    int end();

    /** A numeric literal as written; {@code integral} when it has no fraction or exponent. */
    record Num(String text, boolean integral, int start, int end) implements Expr {
    }

    record Str(String value, int start, int end) implements Expr {
    }

    /** A name: a column ({@code qualifier} is its table or null), or an unquoted text value. */
    record Ident(String qualifier, String name, int start, int end) implements Expr {
    }

    /** Unquoted text spanning several tokens, taken verbatim ({@code VALUES (1, hello world)}). */
    record Raw(String text, int start, int end) implements Expr {
    }

    record Neg(Expr operand, int start, int end) implements Expr {
    }

    /** Arithmetic: op is one of + - * / %. */
    record Arith(char op, Expr left, Expr right, int start, int end) implements Expr {
    }

    record Compare(CompareOp op, Expr left, Expr right, int start, int end) implements Expr {
    }

    record Between(Expr operand, Expr low, Expr high, boolean negated, int start, int end) implements Expr {
    }

    record In(Expr operand, List<Expr> values, boolean negated, int start, int end) implements Expr {
    }

    record And(Expr left, Expr right, int start, int end) implements Expr {
    }

    record Or(Expr left, Expr right, int start, int end) implements Expr {
    }

    record Not(Expr operand, int start, int end) implements Expr {
    }

    /** COUNT(*) has a null argument. */
    record Aggregate(AggregateFn fn, Expr argument, int start, int end) implements Expr {
    }

    enum CompareOp {
        EQ("="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">=");

        public final String symbol;

        CompareOp(String symbol) {
            this.symbol = symbol;
        }

        /** The operator seen from the other side: {@code 5 < x} is {@code x > 5}. */
        public CompareOp flip() {
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

        /** values() copies its array on every call. */
        private static final CompareOp[] ALL = values();

        public static CompareOp of(String symbol) {
            for (CompareOp op : ALL) {
                if (op.symbol.equals(symbol)) {
                    return op;
                }
            }
            return null;
        }
    }

    enum AggregateFn {
        COUNT, SUM, MIN, MAX, AVG;

        /** values() copies its array on every call. */
        static final AggregateFn[] ALL = values();
    }
}
