package io.respsql.catalog;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.Expressions;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.ReadableCatalog;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.LongBinaryOperator;

/**
 * PostgreSQL's catalog functions, bound against the catalog: {@code current_schema()},
 * {@code current_database()}, {@code version()}, {@code format_type(oid, typmod)},
 * {@code pg_table_is_visible(oid)}, {@code pg_get_userbyid(oid)}, {@code pg_get_expr(text, oid)},
 * {@code pg_get_indexdef(oid[, column, pretty])}, {@code pg_get_constraintdef(oid[, pretty])},
 * {@code pg_partition_ancestors(oid)} (no partitioning: the table itself), {@code obj_description}/{@code col_description}
 * (no comments: NULL), and the casts {@code 'name'::regclass}, {@code '16384'::regclass} and {@code oid::regclass}
 * (the relation's name as text), {@code oid::regtype} / {@code 'int4'::regtype}, {@code oid::regnamespace}.
 */
public final class SystemFunctions {
    /** What {@code version()} says: a PostgreSQL release clients accept, and what answers. */
    public static final String VERSION = "PostgreSQL 15.8 (RespSQL) on x86_64-pc-linux-gnu, compiled by javac, 64-bit";

    private SystemFunctions() {
    }

    /** The function {@code name} (upper case, {@code PG_CATALOG.} already dropped) over {@code args}, or null when it is none of these. */
    public static Expression bind(ReadableCatalog catalog, String name, List<Expression> args) {
        String n = name.toUpperCase(Locale.ROOT);
        if (n.startsWith("PG_CATALOG.")) {
            n = n.substring(11);
        }
        switch (n) {
            case "CURRENT_SCHEMA":
                arity(n, args, 0);
                return Expressions.constText(SystemRelations.SCHEMA);
            case "CURRENT_DATABASE":
                arity(n, args, 0);
                return Expressions.constText(SystemRelations.DATABASE);
            case "VERSION":
                arity(n, args, 0);
                return Expressions.constText(VERSION);
            case "PG_TABLE_IS_VISIBLE":
            case "PG_TYPE_IS_VISIBLE":
            case "PG_FUNCTION_IS_VISIBLE":
                arity(n, args, 1);
                return new Lookup(n, SqlType.BOOLEAN, args, (a, b) -> 1, null);
            case "PG_GET_USERBYID":
                arity(n, args, 1);
                return new Lookup(n, SqlType.TEXT, args, null, (a, b) -> "respsql");
            case "FORMAT_TYPE":
                arity(n, args, 2);
                return new Lookup(n, SqlType.TEXT, args, null, SystemRelations::formatType);
            case "PG_GET_INDEXDEF": {
                // (oid) or (oid, column, pretty): column 0 the CREATE INDEX statement, k > 0 its k-th column's name
                if (args.isEmpty() || args.size() > 3) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function pg_get_indexdef takes 1 or 3 arguments");
                }
                SystemRelations.Oids oids = new SystemRelations.Oids(catalog);
                return new Lookup(n, SqlType.TEXT, args.subList(0, Math.min(2, args.size())), null,
                        (a, b) -> b > 0 ? oids.indexColumn(catalog, a, (int) b) : oids.indexDef(catalog, a));
            }
            case "PG_GET_CONSTRAINTDEF": {
                if (args.isEmpty() || args.size() > 2) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function pg_get_constraintdef takes 1 or 2 arguments");
                }
                SystemRelations.Oids oids = new SystemRelations.Oids(catalog);
                return new Lookup(n, SqlType.TEXT, args.subList(0, 1), null, (a, b) -> oids.constraintDef(catalog, a));
            }
            case "PG_PARTITION_ANCESTORS":
                // a table without partitions is its own only ancestor (RespSQL has no partitioning)
                arity(n, args, 1);
                return args.get(0).type() == SqlType.TEXT ? cast(catalog, args.get(0), "regclass") : args.get(0);
            case "PG_GET_EXPR":
                if (args.size() < 2 || args.size() > 3) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function pg_get_expr takes 2 or 3 arguments");
                }
                return args.get(0); // a DEFAULT's text is kept as written
            case "REGEX_MATCH":
            case "REGEX_MATCH_CASELESS":
                arity(n, args, 2);
                return io.respsql.expr.RegexFunctions.match(args.get(0), args.get(1), n.endsWith("CASELESS")); // textfn: ARE translated
            case "PG_ENCODING_TO_CHAR":
                arity(n, args, 1);
                return new Lookup(n, SqlType.TEXT, args, null, (a, b) -> a == 6 ? "UTF8" : "SQL_ASCII");
            case "ARRAY_TO_STRING":
                if (args.size() < 2 || args.size() > 3) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function array_to_string takes 2 or 3 arguments");
                }
                return args.get(0); // the catalog's arrays are NULL or one text already
            case "OBJ_DESCRIPTION":
            case "COL_DESCRIPTION":
            case "SHOBJ_DESCRIPTION":
                return Expressions.constNull(SqlType.TEXT);
            default:
                return null;
        }
    }

    /** {@code current_catalog} and the other names SQL calls without parentheses; null for any other name. */
    public static Expression niladic(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "current_catalog" -> Expressions.constText(SystemRelations.DATABASE);
            case "current_schema" -> Expressions.constText(SystemRelations.SCHEMA);
            case "current_user", "session_user", "current_role" -> Expressions.constText("respsql");
            default -> null;
        };
    }

    /** {@code x::regclass} (and {@code oid}, {@code regtype}); null when {@code typeName} is none of them. */
    public static Expression cast(ReadableCatalog catalog, Expression x, String typeName) {
        String t = typeName.toUpperCase(Locale.ROOT);
        if (t.startsWith("PG_CATALOG.")) {
            t = t.substring(11);
        }
        if (t.equals("REGTYPE")) {
            return regtype(x, typeName);
        }
        if (t.equals("REGNAMESPACE")) {
            return new Lookup("REGNAMESPACE", SqlType.TEXT, List.of(x), null, (a, b) -> switch ((int) a) {
                case SystemRelations.PG_CATALOG -> "pg_catalog";
                case SystemRelations.PUBLIC -> "public";
                case SystemRelations.INFORMATION_SCHEMA -> "information_schema";
                default -> Long.toString(a);
            });
        }
        if (!t.equals("REGCLASS") && !t.equals("OID")) {
            return null;
        }
        SystemRelations.Oids oids = new SystemRelations.Oids(catalog);
        if (x.type() == SqlType.TEXT) {
            if (!x.isConstant()) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "a cast to " + typeName.toLowerCase(Locale.ROOT)
                        + " takes a constant name");
            }
            EvalContext ctx = new EvalContext(0);
            byte[] b = x.evalText(ctx);
            if (ctx.isNull) {
                return Expressions.constNull(SqlType.BIGINT);
            }
            String rel = new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8).trim();
            if (!rel.isEmpty() && rel.chars().allMatch(Character::isDigit) && rel.length() < 10) {
                return Expressions.constLong(SqlType.BIGINT, Long.parseLong(rel)); // '16392'::regclass: an oid as text
            }
            if (rel.length() > 1 && rel.startsWith("\"") && rel.endsWith("\"")) {
                rel = rel.substring(1, rel.length() - 1);
            }
            int oid = oids.of(catalog, rel);
            if (oid < 0) {
                throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + rel + "\" does not exist");
            }
            return Expressions.constLong(SqlType.BIGINT, oid);
        }
        if (t.equals("OID")) {
            return x;
        }
        return new Lookup("REGCLASS", SqlType.TEXT, List.of(x), null, (a, b) -> {
            if (a == 0) {
                return "-"; // InvalidOid, as PostgreSQL prints it
            }
            String s = oids.name(catalog, a);
            return s == null ? Long.toString(a) : s;
        });
    }

    /** {@code x::regtype}: a type's name (as format_type writes it) from its oid, or its oid from a constant name. */
    private static Expression regtype(Expression x, String typeName) {
        if (x.type() == SqlType.TEXT) {
            if (!x.isConstant()) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "a cast to " + typeName.toLowerCase(Locale.ROOT)
                        + " takes a constant name");
            }
            EvalContext ctx = new EvalContext(0);
            byte[] b = x.evalText(ctx);
            if (ctx.isNull) {
                return Expressions.constNull(SqlType.BIGINT);
            }
            String name = new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8).trim();
            int oid = name.chars().allMatch(Character::isDigit) && !name.isEmpty() && name.length() < 10
                    ? Integer.parseInt(name) : SystemRelations.typeOidOf(name);
            if (oid < 0) {
                throw new SqlException(SqlState.UNDEFINED_OBJECT, "type \"" + name + "\" does not exist");
            }
            return Expressions.constLong(SqlType.BIGINT, oid);
        }
        return new Lookup("REGTYPE", SqlType.TEXT, List.of(x), null, (a, b) -> {
            if (a == 0) {
                return "-";
            }
            String s = SystemRelations.formatType(a, -1);
            return "???".equals(s) ? Long.toString(a) : s;
        });
    }

    private static void arity(String name, List<Expression> args, int n) {
        if (args.size() != n) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name.toLowerCase(Locale.ROOT) + " takes "
                    + n + " argument(s), not " + args.size());
        }
    }

    interface TextOf {
        String apply(long a, long b);
    }

    /** A function of one or two integer arguments (NULL in, NULL out), to a number or a text. */
    static final class Lookup extends Expression {
        private final String name;
        private final Expression[] args;
        private final LongBinaryOperator number;
        private final TextOf text;

        Lookup(String name, SqlType type, List<Expression> args, LongBinaryOperator number, TextOf text) {
            super(type);
            this.name = name;
            this.args = args.toArray(new Expression[0]);
            this.number = number;
            this.text = text;
        }

        @Override
        public long relations() {
            long r = 0;
            for (Expression a : args) {
                r |= a.relations();
            }
            return r;
        }

        private long arg(int i, EvalContext ctx) {
            if (i >= args.length) {
                ctx.isNull = false;
                return -1;
            }
            Expression a = args[i];
            if (a.type() == SqlType.TEXT) {
                byte[] b = a.evalText(ctx);
                if (ctx.isNull) {
                    return 0;
                }
                try {
                    return Long.parseLong(new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8).trim());
                } catch (NumberFormatException e) {
                    throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type oid: \""
                            + new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8) + "\"");
                }
            }
            if (a.type() == SqlType.DOUBLE) {
                return (long) a.evalDouble(ctx);
            }
            return a.evalLong(ctx);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            long a = arg(0, ctx);
            if (ctx.isNull) {
                return 0;
            }
            long b = arg(1, ctx);
            if (ctx.isNull) {
                return 0;
            }
            return number.applyAsLong(a, b);
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            return evalLong(ctx);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long a = arg(0, ctx);
            if (ctx.isNull) {
                return null;
            }
            long b = arg(1, ctx);
            if (ctx.isNull) {
                return null;
            }
            String s = text.apply(a, b);
            if (s == null) {
                ctx.isNull = true;
                return null;
            }
            byte[] out = s.getBytes(StandardCharsets.UTF_8);
            ctx.isNull = false;
            ctx.textOffset = 0;
            ctx.textLength = out.length;
            return out;
        }

        @Override
        public String describe() {
            StringBuilder sb = new StringBuilder(name.toLowerCase(Locale.ROOT)).append('(');
            for (int i = 0; i < args.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(args[i].describe());
            }
            return sb.append(')').toString();
        }
    }
}
