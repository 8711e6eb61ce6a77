package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.util.List;
import java.util.Set;

/** The scalar functions by name: arity and argument checks, then the node. */
final class Functions {
    private Functions() {
    }

    static final Set<String> NAMES = Set.of("COALESCE", "IFNULL", "NULLIF", "ABS", "ROUND", "LOWER", "UPPER", "LENGTH",
            "CHAR_LENGTH", "CHARACTER_LENGTH", "SUBSTR", "SUBSTRING", "TRIM", "LTRIM", "RTRIM", "REPLACE", "INSTR");

    static String describe(String name, Expression[] args) {
        StringBuilder b = new StringBuilder(name).append('(');
        for (int i = 0; i < args.length; i++) {
            b.append(i == 0 ? "" : ", ").append(args[i].describe());
        }
        return b.append(')').toString();
    }

    private static void arity(String name, List<Expression> args, int min, int max) {
        int n = args.size();
        if (n >= min && n <= max) {
            return;
        }
        String want;
        if (min == max) {
            want = min + (min == 1 ? " argument" : " arguments");
        } else if (max == Integer.MAX_VALUE) {
            want = "at least " + min + (min == 1 ? " argument" : " arguments");
        } else {
            want = min + " to " + max + " arguments";
        }
        throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function '" + name + "' takes " + want + ", got " + n);
    }

    private static Expression number(String name, List<Expression> args, int i) {
        Expression e = args.get(i);
        if (!e.type().isNumeric() && e.type() != SqlType.NULL) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function '" + name + "' argument " + (i + 1) + " must be a number, not " + e.type().sqlName());
        }
        return e;
    }

    static Expression build(String name, List<Expression> args) {
        switch (name) {
            case "COALESCE":
            case "IFNULL": {
                if (name.equals("IFNULL")) {
                    arity(name, args, 2, 2);
                } else {
                    arity(name, args, 1, Integer.MAX_VALUE);
                }
                SqlType t = SqlType.NULL;
                for (Expression a : args) {
                    SqlType c = Expressions.commonType(t, a.type());
                    if (c == null) {
                        throw new SqlException(SqlState.DATATYPE_MISMATCH, "function '" + name + "' arguments have no common type: " + t.sqlName()
                                + " and " + a.type().sqlName());
                    }
                    t = c;
                }
                Expression[] coerced = new Expression[args.size()];
                for (int i = 0; i < coerced.length; i++) {
                    coerced[i] = Coercion.toType(args.get(i), t);
                }
                return new NullFunctions.Coalesce(name, t, coerced);
            }
            case "NULLIF": {
                arity(name, args, 2, 2);
                Expression[] pair = Coercion.forComparison(args.get(0), args.get(1), "function 'NULLIF'");
                return new NullFunctions.NullIf(args.get(0), args.get(1), pair);
            }
            case "ABS":
                arity(name, args, 1, 1);
                return new NumericFunctions.Abs(number(name, args, 0));
            case "ROUND":
                arity(name, args, 1, 2);
                return new NumericFunctions.Round(number(name, args, 0), args.size() == 2 ? number(name, args, 1) : null);
            case "LOWER":
            case "UPPER":
                arity(name, args, 1, 1);
                return new TextFunctions.CaseMap(name.equals("UPPER"), args.get(0));
            case "LENGTH":
            case "CHAR_LENGTH":
            case "CHARACTER_LENGTH":
                arity(name, args, 1, 1);
                return new TextFunctions.Length(args.get(0));
            case "SUBSTR":
            case "SUBSTRING":
                arity(name, args, 2, 3);
                return new TextFunctions.Substr(name, args.get(0), number(name, args, 1),
                        args.size() == 3 ? number(name, args, 2) : null);
            case "TRIM":
            case "LTRIM":
            case "RTRIM":
                arity(name, args, 1, 2);
                return new TextFunctions.Trim(name, !name.equals("RTRIM"), !name.equals("LTRIM"), args.get(0),
                        args.size() == 2 ? args.get(1) : null);
            case "REPLACE":
                arity(name, args, 3, 3);
                return new TextFunctions.Replace(args.get(0), args.get(1), args.get(2));
            case "INSTR":
                arity(name, args, 2, 2);
                return new TextFunctions.Instr(args.get(0), args.get(1));
            default:
                throw new SqlException(SqlState.UNDEFINED_FUNCTION, "unknown function '" + name + "'");
        }
    }
}
