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
            "CHAR_LENGTH", "CHARACTER_LENGTH", "SUBSTR", "SUBSTRING", "TRIM", "LTRIM", "RTRIM", "REPLACE", "INSTR",
            // PostgreSQL's (issue 25), in both dialects: names SQLite's corpus never calls
            "BTRIM", "CONCAT", "CONCAT_WS", "POSITION", "STRPOS", "SPLIT_PART", "LPAD", "RPAD", "LEFT", "RIGHT", "REPEAT",
            "REVERSE", "INITCAP", "TRANSLATE", "ASCII", "CHR", "MD5", "STARTS_WITH",
            "MOD", "POWER", "POW", "SQRT", "CBRT", "EXP", "LN", "LOG", "LOG10", "FLOOR", "CEIL", "CEILING", "TRUNC", "SIGN",
            "DEGREES", "RADIANS", "PI", "GREATEST", "LEAST",
            "OCTET_LENGTH", // charn
            "UNISTR", "TO_HEX"); // regress25

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
        if (!e.type().isNumeric() && e.type() != SqlType.NULL && e.type() != SqlType.NUMERIC) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function '" + name + "' argument " + (i + 1) + " must be a number, not " + e.type().sqlName());
        }
        return e;
    }

    static Expression build(String name, List<Expression> args) {
        Expression numeric = NumericNodes.function(name, args);
        if (numeric != null) {
            return numeric;
        }
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
            case "OCTET_LENGTH": // charn: bytes of the text (a char(n)'s padded by the binder)
                arity(name, args, 1, 1);
                return new Bpchar.OctetLength(args.get(0));
            case "LENGTH":
            case "CHAR_LENGTH":
            case "CHARACTER_LENGTH":
                arity(name, args, 1, 1);
                return new TextFunctions.Length(args.get(0));
            case "SUBSTR":
            case "SUBSTRING":
                arity(name, args, 2, 3);
                if (name.equals("SUBSTRING") && args.get(1).type() == SqlType.TEXT) {
                    return RegexFunctions.substring(args); // textfn: substring(x FROM pattern [FOR escape])
                }
                return new TextFunctions.Substr(name, args.get(0), number(name, args, 1),
                        args.size() == 3 ? number(name, args, 2) : null, io.respsql.sql.Dialect.postgres());
            case "BTRIM":
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
                return postgres(name, args);
        }
    }

    /** An integer argument (a DOUBLE is read truncated, as SQLite's functions read it). */
    private static Expression integer(String name, List<Expression> args, int i) {
        return number(name, args, i);
    }

    private static Expression[] array(List<Expression> args) {
        return args.toArray(new Expression[0]);
    }

    /** PostgreSQL's text and math functions ({@link StringFunctions}, {@link MathFunctions}). */
    private static Expression postgres(String name, List<Expression> args) {
        switch (name) {
            case "CONCAT":
                arity(name, args, 1, Integer.MAX_VALUE);
                return new StringFunctions.Concat(array(args));
            case "CONCAT_WS":
                arity(name, args, 2, Integer.MAX_VALUE);
                return new StringFunctions.ConcatWs(array(args));
            case "POSITION":
                arity(name, args, 2, 2);
                return new TextFunctions.Instr(args.get(1), args.get(0));
            case "STRPOS":
                arity(name, args, 2, 2);
                return new TextFunctions.Instr(args.get(0), args.get(1));
            case "SPLIT_PART":
                arity(name, args, 3, 3);
                return new StringFunctions.SplitPart(args.get(0), args.get(1), integer(name, args, 2));
            case "LPAD":
            case "RPAD":
                arity(name, args, 2, 3);
                integer(name, args, 1);
                return new StringFunctions.Pad(name.equals("LPAD"), array(args));
            case "LEFT":
            case "RIGHT":
                arity(name, args, 2, 2);
                return new StringFunctions.LeftRight(name.equals("LEFT"), args.get(0), integer(name, args, 1));
            case "REPEAT":
                arity(name, args, 2, 2);
                return new StringFunctions.Repeat(args.get(0), integer(name, args, 1));
            case "REVERSE":
                arity(name, args, 1, 1);
                return new StringFunctions.Reverse(args.get(0));
            case "INITCAP":
                arity(name, args, 1, 1);
                return new StringFunctions.Initcap(args.get(0));
            case "TRANSLATE":
                arity(name, args, 3, 3);
                return new StringFunctions.Translate(args.get(0), args.get(1), args.get(2));
            case "ASCII":
                arity(name, args, 1, 1);
                return new StringFunctions.Ascii(args.get(0));
            case "CHR":
                arity(name, args, 1, 1);
                return new StringFunctions.Chr(integer(name, args, 0));
            case "MD5":
                arity(name, args, 1, 1);
                return new StringFunctions.Md5(args.get(0));
            case "UNISTR": // regress25
                arity(name, args, 1, 1);
                return new Regress25Functions.Unistr(args.get(0));
            case "TO_HEX": // regress25
                arity(name, args, 1, 1);
                if (!args.get(0).type().isInteger() && args.get(0).type() != SqlType.NULL) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function to_hex(" + args.get(0).type().sqlName().toLowerCase()
                            + ") does not exist");
                }
                return new Regress25Functions.ToHex(args.get(0));
            case "STARTS_WITH":
                arity(name, args, 2, 2);
                return new StringFunctions.StartsWith(args.get(0), args.get(1));
            case "MOD":
                arity(name, args, 2, 2);
                return Expressions.binary(io.respsql.sql.tree.Expr.BinaryOp.MOD, number(name, args, 0), number(name, args, 1));
            case "POWER":
            case "POW":
                arity(name, args, 2, 2);
                return new MathFunctions.Binary("POWER", number(name, args, 0), number(name, args, 1));
            case "LOG":
                arity(name, args, 1, 2);
                if (args.size() == 2) {
                    return new MathFunctions.Binary("LOG", number(name, args, 0), number(name, args, 1));
                }
                return new MathFunctions.Unary(MathFunctions.Op.LOG10, number(name, args, 0));
            case "TRUNC":
                arity(name, args, 1, 2);
                if (args.size() == 2) {
                    return new MathFunctions.Binary("TRUNC", number(name, args, 0), number(name, args, 1));
                }
                return unaryMath(MathFunctions.Op.TRUNC, number(name, args, 0));
            case "SQRT":
            case "CBRT":
            case "EXP":
            case "LN":
            case "LOG10":
            case "FLOOR":
            case "CEIL":
            case "CEILING":
            case "SIGN":
            case "DEGREES":
            case "RADIANS":
                arity(name, args, 1, 1);
                return unaryMath(MathFunctions.Op.valueOf(name.equals("CEILING") ? "CEIL" : name), number(name, args, 0));
            case "PI":
                arity(name, args, 0, 0);
                return Literal.ofDouble(Math.PI);
            case "GREATEST":
            case "LEAST": {
                arity(name, args, 1, Integer.MAX_VALUE);
                SqlType t = SqlType.NULL;
                for (Expression a : args) {
                    SqlType c = Expressions.commonType(t, a.type());
                    if (c == null) {
                        throw new SqlException(SqlState.DATATYPE_MISMATCH, name + " types " + Expressions.pgName(t) + " and "
                                + Expressions.pgName(a.type()) + " cannot be matched");
                    }
                    t = c;
                }
                if (t == SqlType.NULL) {
                    return Literal.ofNull(SqlType.NULL);
                }
                Expression[] coerced = new Expression[args.size()];
                for (int i = 0; i < coerced.length; i++) {
                    coerced[i] = Coercion.toType(args.get(i), t);
                }
                return new MathFunctions.Extreme(name.equals("GREATEST"), t, coerced);
            }
            default: {
                // ---- textfn ----
                Expression regex = RegexFunctions.build(name, args);
                if (regex != null) {
                    return regex;
                }
                // ---- end textfn ----
                Expression partitionHash = PartitionHash.build(name, args); // partition
                if (partitionHash != null) {
                    return partitionHash;
                }
                Expression time = TimeFunctions.build(name, args);
                if (time != null) {
                    return time;
                }
                throw new SqlException(SqlState.UNDEFINED_FUNCTION, "unknown function '" + name + "'");
            }
        }
    }

    /** FLOOR, CEIL and TRUNC of an integer are the integer; SIGN of one an integer; else the double function. */
    private static Expression unaryMath(MathFunctions.Op op, Expression x) {
        SqlType t = x.type();
        if (t == SqlType.NULL) {
            return Literal.ofNull(SqlType.DOUBLE);
        }
        if (t.isInteger() || t == SqlType.BOOLEAN) {
            switch (op) {
                case FLOOR:
                case CEIL:
                case TRUNC:
                    return x;
                case SIGN:
                    return new MathFunctions.IntegerSign(x);
                default:
                    break;
            }
        }
        return new MathFunctions.Unary(op, x);
    }
}
