package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr.BinaryOp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * PostgreSQL's array constructors, operators and functions (issue 25/26) over {@link PgArray}'s
 * values. Each node computes its value as an object ({@link Node#value}: null for NULL, a String
 * for an array's or an element's text, a Long, a Boolean) and {@link Node} turns it into the
 * evaluation its type asks for. Array queries allocate per row; no other query meets these nodes.
 */
final class ArrayNodes {
    private ArrayNodes() {
    }

    /** The names {@link #function} builds (upper case); the parser's internal ones too. */
    static final Set<String> NAMES = Set.of("ARRAY", "ARRAY_SUBSCRIPT", "ARRAY_SLICE", "ARRAY_LENGTH", "CARDINALITY",
            "ARRAY_UPPER", "ARRAY_LOWER", "ARRAY_NDIMS", "ARRAY_DIMS", "ARRAY_TO_STRING", "STRING_TO_ARRAY",
            "ARRAY_APPEND", "ARRAY_PREPEND", "ARRAY_CAT", "ARRAY_POSITION", "ARRAY_POSITIONS", "ARRAY_REMOVE",
            "ARRAY_REPLACE", "ARRAY_SET", "ARRAY_OR_EMPTY", "ARRAY_CONTAINS", "ARRAY_CONTAINED", "ARRAY_OVERLAP",
            "ARRAY_ANY_EQ", "ARRAY_ANY_NE", "ARRAY_ANY_LT", "ARRAY_ANY_LE", "ARRAY_ANY_GT", "ARRAY_ANY_GE",
            "ARRAY_ALL_EQ", "ARRAY_ALL_NE", "ARRAY_ALL_LT", "ARRAY_ALL_LE", "ARRAY_ALL_GT", "ARRAY_ALL_GE");

    /** A node of an array function: its value as an object, evaluated as its type needs. */
    abstract static class Node extends NaryNode {
        private byte[] text = TextBuf.EMPTY;

        Node(SqlType type, String name, Expression[] args) {
            super(type, name, args);
        }

        /** The value: null for NULL; a String (array or element text), Long, Boolean or Double. */
        abstract Object value(EvalContext ctx);

        @Override
        public byte[] evalText(EvalContext ctx) {
            Object v = value(ctx);
            if (v == null) {
                ctx.isNull = true;
                ctx.textOffset = 0;
                ctx.textLength = 0;
                return TextBuf.EMPTY;
            }
            ctx.isNull = false;
            text = v.toString().getBytes(StandardCharsets.UTF_8);
            ctx.textOffset = 0;
            ctx.textLength = text.length;
            return text;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            Object v = value(ctx);
            if (v == null) {
                ctx.isNull = true;
                return 0;
            }
            ctx.isNull = false;
            if (v instanceof Long l) {
                return l;
            }
            if (v instanceof Boolean b) {
                return b ? 1 : 0;
            }
            String s = (String) v;
            switch (type) {
                case BOOLEAN:
                    return s.equals("t") ? 1 : 0;
                case DATE: {
                    byte[] a = s.getBytes(StandardCharsets.UTF_8);
                    long d = Temporal.parseDate(a, 0, a.length);
                    return d != Temporal.INVALID ? d : Math.floorDiv(Temporal.special(a, 0, a.length, true), Temporal.MICROS_PER_DAY);
                }
                case TIMESTAMP: {
                    byte[] a = s.getBytes(StandardCharsets.UTF_8);
                    long t = Temporal.parseTimestamp(a, 0, a.length);
                    return t != Temporal.INVALID ? t : Temporal.special(a, 0, a.length, false);
                }
                default:
                    return Long.parseLong(s);
            }
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            if (type != SqlType.DOUBLE) {
                if (type == SqlType.NUMERIC) {
                    long u = evalNumeric(ctx);
                    return ctx.isNull ? 0 : Numeric.toDouble(u, ctx.numScale, ctx.numBig);
                }
                return evalLong(ctx);
            }
            Object v = value(ctx);
            if (v == null) {
                ctx.isNull = true;
                return 0;
            }
            ctx.isNull = false;
            if (v instanceof Double d) {
                return d;
            }
            String s = v.toString();
            switch (s) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    return Double.parseDouble(s);
            }
        }

        @Override
        public long evalNumeric(EvalContext ctx) {
            if (type != SqlType.NUMERIC) {
                return super.evalNumeric(ctx);
            }
            Object v = value(ctx);
            if (v == null) {
                ctx.isNull = true;
                ctx.numScale = 0;
                ctx.numBig = null;
                return 0;
            }
            long u = Numeric.parse(ctx, v.toString());
            ctx.isNull = false;
            return u;
        }
    }

    /** The array value of {@code e} (an array type), or null for NULL. */
    static PgArray.Value arrayOf(Expression e, EvalContext ctx) {
        if (e.type() == SqlType.NULL) {
            ctx.isNull = true;
            return null;
        }
        byte[] a = e.evalText(ctx);
        if (ctx.isNull) {
            return null;
        }
        return PgArray.read(a, ctx.textOffset, ctx.textLength);
    }

    private static SqlException noFunction(String name, List<Expression> args) {
        StringBuilder b = new StringBuilder();
        for (Expression a : args) {
            b.append(b.length() == 0 ? "" : ", ").append(Expressions.pgName(a.type()));
        }
        return new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name.toLowerCase(Locale.ROOT) + "(" + b
                + ") does not exist");
    }

    private static void arity(String name, List<Expression> args, int min, int max) {
        if (args.size() < min || args.size() > max) {
            throw noFunction(name, args);
        }
    }

    private static Expression array(String name, List<Expression> args, int i) {
        Expression e = args.get(i);
        if (e.type().isArray() || e.type() == SqlType.NULL) {
            return e;
        }
        if (e.type() == SqlType.TEXT && e.isConstant()) {
            return e; // an untyped literal: read when the other arguments tell its type
        }
        throw noFunction(name, args);
    }

    private static Expression integer(String name, List<Expression> args, int i) {
        Expression e = args.get(i);
        if (!e.type().isInteger() && e.type() != SqlType.NULL) {
            if (e.type() == SqlType.TEXT && e.isConstant()) {
                return Expressions.cast(e, SqlType.INT);
            }
            throw noFunction(name, args);
        }
        return e;
    }

    /** The array type of an argument list's array (its first array-typed one), TEXT_ARRAY when none is typed. */
    private static SqlType arrayType(List<Expression> args) {
        for (Expression e : args) {
            if (e.type().isArray()) {
                return e.type();
            }
        }
        return SqlType.TEXT_ARRAY;
    }

    /** {@code e} brought to array type {@code t}: a text constant read as one, a NULL typed, another array's elements converted. */
    static Expression toArray(Expression e, SqlType t) {
        if (e.type() == t) {
            return e;
        }
        if (e.type() == SqlType.NULL) {
            return Literal.ofNull(t);
        }
        return cast(e, t);
    }

    /** {@code e} brought to element type {@code t} (a text constant read as one; numbers widened). */
    static Expression toElement(Expression e, SqlType t, String name, List<Expression> args) {
        SqlType from = e.type();
        if (from == t || from == SqlType.NULL) {
            return e;
        }
        if (from == SqlType.TEXT && e.isConstant()) {
            return Expressions.cast(e, t);
        }
        SqlType c = Expressions.commonType(from, t);
        if (c == null) {
            throw noFunction(name, args);
        }
        return e; // read as text and converted by canonicalElement
    }

    // ---- builder -----------------------------------------------------------------------------

    /** The node for {@code name}, or null when it is no array function. */
    static Expression function(String name, List<Expression> args) {
        if (!NAMES.contains(name)) {
            return null;
        }
        switch (name) {
            case "ARRAY":
                return constructor(args);
            case "ARRAY_SUBSCRIPT": {
                Expression a = array(name, args, 0);
                SqlType t = a.type() == SqlType.NULL ? SqlType.TEXT_ARRAY : a.type();
                Expression[] all = args.toArray(new Expression[0]);
                for (int i = 1; i < all.length; i++) {
                    all[i] = integer(name, args, i);
                }
                return new Subscript(t.element(), all);
            }
            case "ARRAY_SLICE": {
                Expression a = array(name, args, 0);
                SqlType t = a.type() == SqlType.NULL ? SqlType.TEXT_ARRAY : a.type();
                Expression[] all = args.toArray(new Expression[0]);
                for (int i = 1; i < all.length; i++) {
                    all[i] = integer(name, args, i);
                }
                return new Slice(t, all);
            }
            case "ARRAY_LENGTH":
            case "ARRAY_UPPER":
            case "ARRAY_LOWER":
                arity(name, args, 2, 2);
                array(name, args, 0);
                return new Dimension(name, args.get(0), integer(name, args, 1));
            case "CARDINALITY":
            case "ARRAY_NDIMS":
            case "ARRAY_DIMS":
                arity(name, args, 1, 1);
                array(name, args, 0);
                return new Dimension(name, args.get(0), null);
            case "ARRAY_TO_STRING":
                arity(name, args, 2, 3);
                if (args.get(0).type() == SqlType.TEXT && !args.get(0).isConstant()) {
                    return args.get(0); // the catalog's text-typed "arrays" (reloptions): NULL or one text already
                }
                array(name, args, 0);
                return new ToString(args.toArray(new Expression[0]));
            case "STRING_TO_ARRAY":
                arity(name, args, 2, 3);
                return new FromString(args.toArray(new Expression[0]));
            case "ARRAY_APPEND":
            case "ARRAY_PREPEND":
            case "ARRAY_CAT":
            case "ARRAY_REMOVE":
            case "ARRAY_REPLACE":
            case "ARRAY_POSITION":
            case "ARRAY_POSITIONS":
                return edit(name, args);
            case "ARRAY_OR_EMPTY": { // ARRAY(query) without rows: '{}'
                arity(name, args, 1, 1);
                Expression a = array(name, args, 0);
                return new Node(a.type() == SqlType.NULL ? SqlType.TEXT_ARRAY : a.type(), name, new Expression[] {a}) {
                    @Override
                    Object value(EvalContext ctx) {
                        PgArray.Value v = arrayOf(args[0], ctx);
                        return v == null ? "{}" : v.text();
                    }
                };
            }
            case "ARRAY_SET": {
                SqlType t = array(name, args, 0).type();
                if (!t.isArray()) {
                    throw noFunction(name, args);
                }
                Expression[] all = args.toArray(new Expression[0]);
                all[1] = toElement(args.get(1), t.element(), name, args);
                for (int i = 2; i < all.length; i++) {
                    all[i] = integer(name, args, i);
                }
                return new SetElement(t, all);
            }
            case "ARRAY_CONTAINS":
            case "ARRAY_CONTAINED":
            case "ARRAY_OVERLAP": {
                arity(name, args, 2, 2);
                SqlType t = arrayType(args);
                Expression a = toArray(array(name, args, 0), t);
                Expression b = toArray(array(name, args, 1), t);
                if (a.type() != b.type() && a.type().element() != null
                        && Expressions.commonType(a.type().element(), b.type().element()) == null) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "operator does not exist: " + Expressions.pgName(a.type())
                            + " " + (name.equals("ARRAY_CONTAINS") ? "@>" : name.equals("ARRAY_CONTAINED") ? "<@" : "&&") + " "
                            + Expressions.pgName(b.type()));
                }
                return new SetTest(name, a, b);
            }
            default: {
                // ARRAY_ANY_EQ ... ARRAY_ALL_GE: x op ANY/ALL (array)
                arity(name, args, 2, 2);
                boolean all = name.startsWith("ARRAY_ALL_");
                BinaryOp op = BinaryOp.valueOf(name.substring(all ? 10 : 10));
                Expression arr = args.get(1);
                Expression x = args.get(0);
                if (!arr.type().isArray()) {
                    if (arr.type() == SqlType.NULL || arr.type() == SqlType.TEXT && arr.isConstant()) {
                        SqlType elem = x.type() == SqlType.NULL ? SqlType.TEXT : x.type();
                        SqlType at = SqlType.arrayOf(elem);
                        if (at == null) {
                            throw new SqlException(SqlState.DATATYPE_MISMATCH, "op ANY/ALL (array) requires array on right side");
                        }
                        arr = toArray(arr, at);
                    } else {
                        throw new SqlException(SqlState.DATATYPE_MISMATCH, "op ANY/ALL (array) requires array on right side");
                    }
                }
                SqlType elem = arr.type().element();
                if (x.type() == SqlType.TEXT && x.isConstant() && elem != SqlType.TEXT) {
                    x = Expressions.cast(x, elem);
                }
                SqlType common = x.type() == SqlType.NULL ? elem : Expressions.commonType(x.type(), elem);
                if (common == null) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "operator does not exist: " + Expressions.pgName(x.type())
                            + " " + op.symbol + " " + Expressions.pgName(elem));
                }
                return new AnyAll(all, op, common, x, arr);
            }
        }
    }

    /** {@code ARRAY[e, ...]}: elements of their common type; arrays as elements make one more dimension. */
    static Expression constructor(List<Expression> args) {
        if (args.isEmpty()) {
            throw new SqlException(SqlState.INDETERMINATE_DATATYPE, "cannot determine type of empty array");
        }
        SqlType t = SqlType.NULL;
        for (Expression a : args) {
            SqlType at = a.type();
            if (at == SqlType.NULL || at == SqlType.TEXT && a.isConstant() && t != SqlType.NULL && t != SqlType.TEXT) {
                continue;
            }
            SqlType c = t == SqlType.NULL ? at : t == at ? t
                    : t.isArray() && at.isArray() ? SqlType.arrayOf(Expressions.commonType(t.element(), at.element()))
                    : Expressions.commonType(t, at);
            if (c == null) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, "ARRAY types " + Expressions.pgName(t) + " and "
                        + Expressions.pgName(at) + " cannot be matched");
            }
            t = c;
        }
        if (t == SqlType.NULL) {
            t = SqlType.TEXT;
        }
        Expression[] elems = new Expression[args.size()];
        for (int i = 0; i < elems.length; i++) {
            Expression a = args.get(i);
            if (a.type() == SqlType.TEXT && a.isConstant() && t != SqlType.TEXT) {
                a = t.isArray() ? toArray(a, t) : Expressions.cast(a, t);
            } else if (a.type() == SqlType.NULL) {
                a = Literal.ofNull(t);
            } else if (t == SqlType.NUMERIC && a.type() != SqlType.NUMERIC) {
                a = NumericNodes.numeric(a);
            } else if (t.isArray() && a.type() != t) {
                a = toArray(a, t);
            }
            elems[i] = a;
        }
        if (t.isArray()) {
            return new Constructor(t, elems, true);
        }
        SqlType at = SqlType.arrayOf(t);
        if (at == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "could not find array type for data type " + Expressions.pgName(t));
        }
        return new Constructor(at, elems, false);
    }

    static final class Constructor extends Node {
        final boolean nested;

        Constructor(SqlType type, Expression[] args, boolean nested) {
            super(type, "ARRAY", args);
            this.nested = nested;
        }

        @Override
        Object value(EvalContext ctx) {
            if (!nested) {
                String[] items = new String[args.length];
                for (int i = 0; i < args.length; i++) {
                    items[i] = PgArray.elementText(args[i], ctx);
                }
                return PgArray.format(items, new int[] {items.length});
            }
            List<String> items = new ArrayList<>();
            int[] inner = null;
            for (Expression a : args) {
                PgArray.Value v = arrayOf(a, ctx);
                if (v == null) {
                    v = PgArray.EMPTY; // PostgreSQL: a NULL sub-array is taken as empty
                }
                if (inner == null) {
                    inner = v.dims;
                } else if (!java.util.Arrays.equals(inner, v.dims)) {
                    throw new SqlException(SqlState.ARRAY_SUBSCRIPT_ERROR,
                            "multidimensional arrays must have array expressions with matching dimensions");
                }
                items.addAll(java.util.Arrays.asList(v.items));
            }
            if (items.isEmpty()) {
                return "{}";
            }
            int[] dims = new int[inner.length + 1];
            dims[0] = args.length;
            System.arraycopy(inner, 0, dims, 1, inner.length);
            return PgArray.format(items.toArray(new String[0]), dims);
        }

        @Override
        public String describe() {
            StringBuilder b = new StringBuilder("ARRAY[");
            for (int i = 0; i < args.length; i++) {
                b.append(i == 0 ? "" : ", ").append(args[i].describe());
            }
            return b.append(']').toString();
        }
    }

    /** {@code a[i][j]...}: the element, NULL when out of bounds or when the subscripts are fewer than the dimensions. */
    static final class Subscript extends Node {
        Subscript(SqlType element, Expression[] args) {
            super(element, "ARRAY_SUBSCRIPT", args);
        }

        @Override
        Object value(EvalContext ctx) {
            PgArray.Value v = arrayOf(args[0], ctx);
            if (v == null) {
                return null;
            }
            int n = args.length - 1;
            if (n != v.dims.length) {
                return null;
            }
            int at = 0;
            for (int d = 0; d < n; d++) {
                long i = args[d + 1].evalLong(ctx);
                if (ctx.isNull || i < 1 || i > v.dims[d]) {
                    return null;
                }
                at = at * v.dims[d] + (int) (i - 1);
            }
            return v.items[at];
        }

        @Override
        public String describe() {
            StringBuilder b = new StringBuilder(args[0].describe());
            for (int i = 1; i < args.length; i++) {
                b.append('[').append(args[i].describe()).append(']');
            }
            return b.toString();
        }
    }

    /** {@code a[lo:hi]...}: bounds per dimension (pairs of arguments), clamped to the array's; empty when none is left. */
    static final class Slice extends Node {
        Slice(SqlType type, Expression[] args) {
            super(type, "ARRAY_SLICE", args);
        }

        @Override
        Object value(EvalContext ctx) {
            PgArray.Value v = arrayOf(args[0], ctx);
            if (v == null) {
                return null;
            }
            int n = (args.length - 1) / 2;
            long[] lo = new long[n];
            long[] hi = new long[n];
            for (int d = 0; d < n; d++) {
                lo[d] = args[1 + 2 * d].evalLong(ctx);
                if (ctx.isNull) {
                    return null;
                }
                hi[d] = args[2 + 2 * d].evalLong(ctx);
                if (ctx.isNull) {
                    return null;
                }
            }
            if (v.dims.length == 0 || n > v.dims.length) {
                return "{}";
            }
            int nd = v.dims.length;
            int[] from = new int[nd];
            int[] len = new int[nd];
            for (int d = 0; d < nd; d++) {
                long l = d < n ? Math.max(lo[d], 1) : 1;
                long h = d < n ? Math.min(hi[d], v.dims[d]) : v.dims[d];
                if (h < l) {
                    return "{}";
                }
                from[d] = (int) l - 1;
                len[d] = (int) (h - l + 1);
            }
            int total = 1;
            for (int x : len) {
                total *= x;
            }
            String[] out = new String[total];
            int[] idx = new int[nd];
            for (int k = 0; k < total; k++) {
                int at = 0;
                for (int d = 0; d < nd; d++) {
                    at = at * v.dims[d] + from[d] + idx[d];
                }
                out[k] = v.items[at];
                for (int d = nd - 1; d >= 0; d--) {
                    if (++idx[d] < len[d]) {
                        break;
                    }
                    idx[d] = 0;
                }
            }
            return PgArray.format(out, len);
        }

        @Override
        public String describe() {
            StringBuilder b = new StringBuilder(args[0].describe());
            for (int i = 1; i + 1 < args.length; i += 2) {
                b.append('[').append(args[i].describe()).append(':').append(args[i + 1].describe()).append(']');
            }
            return b.toString();
        }
    }

    /** array_length, array_upper, array_lower (of a dimension), cardinality, array_ndims, array_dims. */
    static final class Dimension extends Node {
        Dimension(String name, Expression a, Expression dim) {
            super(name.equals("ARRAY_DIMS") ? SqlType.TEXT : SqlType.INT, name,
                    dim == null ? new Expression[] {a} : new Expression[] {a, dim});
        }

        @Override
        Object value(EvalContext ctx) {
            PgArray.Value v = arrayOf(args[0], ctx);
            if (v == null) {
                return null;
            }
            switch (name) {
                case "CARDINALITY":
                    return (long) v.items.length;
                case "ARRAY_NDIMS":
                    return v.dims.length == 0 ? null : (Object) (long) v.dims.length;
                case "ARRAY_DIMS": {
                    if (v.dims.length == 0) {
                        return null;
                    }
                    StringBuilder b = new StringBuilder();
                    for (int d : v.dims) {
                        b.append("[1:").append(d).append(']');
                    }
                    return b.toString();
                }
                default: {
                    long d = args[1].evalLong(ctx);
                    if (ctx.isNull || d < 1 || d > v.dims.length) {
                        return null;
                    }
                    int len = v.dims[(int) d - 1];
                    return name.equals("ARRAY_LOWER") ? 1L : (long) len;
                }
            }
        }
    }

    /**
     * {@code SET a[i] = x} as ARRAY_SET(a, x, i...): the element replaced; a one-dimensional array
     * (or NULL, read as empty) grows to {@code i}, NULLs filling the gap. Lower bounds stay 1, so a
     * subscript below 1 is refused.
     */
    static final class SetElement extends Node {
        SetElement(SqlType type, Expression[] args) {
            super(type, "ARRAY_SET", args);
        }

        @Override
        Object value(EvalContext ctx) {
            PgArray.Value v = arrayOf(args[0], ctx);
            if (v == null) {
                v = PgArray.EMPTY;
            }
            String x = PgArray.elementText(args[1], ctx);
            if (x != null && args[1].type() != type.element()) {
                x = PgArray.canonicalElement(x, type.element());
            }
            int n = args.length - 2;
            long[] at = new long[n];
            for (int d = 0; d < n; d++) {
                at[d] = args[2 + d].evalLong(ctx);
                if (ctx.isNull) {
                    throw new SqlException(SqlState.NULL_VALUE_NOT_ALLOWED, "array subscript in assignment must not be null");
                }
                if (at[d] < 1 || at[d] > 1_000_000) {
                    throw new SqlException(SqlState.ARRAY_SUBSCRIPT_ERROR, "array subscript out of range");
                }
            }
            if (n == 1 && v.dims.length <= 1) {
                int i = (int) at[0];
                String[] items = java.util.Arrays.copyOf(v.items, Math.max(v.items.length, i));
                items[i - 1] = x;
                return PgArray.format(items, new int[] {items.length});
            }
            if (n != v.dims.length) {
                throw new SqlException(SqlState.ARRAY_SUBSCRIPT_ERROR, "wrong number of array subscripts");
            }
            int pos = 0;
            for (int d = 0; d < n; d++) {
                if (at[d] > v.dims[d]) {
                    throw new SqlException(SqlState.ARRAY_SUBSCRIPT_ERROR, "array subscript out of range");
                }
                pos = pos * v.dims[d] + (int) (at[d] - 1);
            }
            String[] items = v.items.clone();
            items[pos] = x;
            return PgArray.format(items, v.dims);
        }
    }

    /** array_to_string(a, delimiter [, null text]): NULL elements skipped unless a null text is given. */
    static final class ToString extends Node {
        ToString(Expression[] args) {
            super(SqlType.TEXT, "ARRAY_TO_STRING", args);
        }

        @Override
        Object value(EvalContext ctx) {
            PgArray.Value v = arrayOf(args[0], ctx);
            if (v == null) {
                return null;
            }
            String delim = PgArray.elementText(args[1], ctx);
            if (delim == null) {
                return null;
            }
            String nullText = args.length > 2 ? PgArray.elementText(args[2], ctx) : null;
            StringBuilder b = new StringBuilder();
            boolean first = true;
            for (String s : v.items) {
                if (s == null && nullText == null) {
                    continue;
                }
                if (!first) {
                    b.append(delim);
                }
                first = false;
                b.append(s == null ? nullText : s);
            }
            return b.toString();
        }
    }

    /** string_to_array(text, delimiter [, null text]): a NULL delimiter splits into characters, an empty one keeps the whole. */
    static final class FromString extends Node {
        FromString(Expression[] args) {
            super(SqlType.TEXT_ARRAY, "STRING_TO_ARRAY", args);
        }

        @Override
        Object value(EvalContext ctx) {
            String s = PgArray.elementText(args[0], ctx);
            if (s == null) {
                return null;
            }
            String delim = PgArray.elementText(args[1], ctx);
            String nullText = args.length > 2 ? PgArray.elementText(args[2], ctx) : null;
            List<String> items = new ArrayList<>();
            if (s.isEmpty()) {
                return "{}";
            }
            if (delim == null) {
                s.codePoints().forEach(c -> items.add(new String(Character.toChars(c))));
            } else if (delim.isEmpty()) {
                items.add(s);
            } else {
                int from = 0;
                while (true) {
                    int at = s.indexOf(delim, from);
                    if (at < 0) {
                        items.add(s.substring(from));
                        break;
                    }
                    items.add(s.substring(from, at));
                    from = at + delim.length();
                }
            }
            if (nullText != null) {
                items.replaceAll(x -> x.equals(nullText) ? null : x);
            }
            return PgArray.Value.of(items).text();
        }
    }

    private static Expression edit(String name, List<Expression> args) {
        switch (name) {
            case "ARRAY_APPEND": {
                arity(name, args, 2, 2);
                SqlType t = arrayTypeFor(args.get(0), args.get(1), name, args);
                return new Edit(name, t, toArray(args.get(0), t), toElement(args.get(1), t.element(), name, args));
            }
            case "ARRAY_PREPEND": {
                arity(name, args, 2, 2);
                SqlType t = arrayTypeFor(args.get(1), args.get(0), name, args);
                return new Edit(name, t, toElement(args.get(0), t.element(), name, args), toArray(args.get(1), t));
            }
            case "ARRAY_CAT": {
                arity(name, args, 2, 2);
                SqlType t = arrayType(args);
                if (args.get(0).type().isArray() && args.get(1).type().isArray() && args.get(0).type() != args.get(1).type()) {
                    SqlType c = Expressions.commonType(args.get(0).type().element(), args.get(1).type().element());
                    if (c == null) {
                        throw noFunction(name, args);
                    }
                    t = SqlType.arrayOf(c);
                }
                return new Edit(name, t, toArray(array(name, args, 0), t), toArray(array(name, args, 1), t));
            }
            case "ARRAY_REMOVE": {
                arity(name, args, 2, 2);
                SqlType t = arrayTypeFor(args.get(0), args.get(1), name, args);
                return new Edit(name, t, toArray(args.get(0), t), toElement(args.get(1), t.element(), name, args));
            }
            case "ARRAY_REPLACE": {
                arity(name, args, 3, 3);
                SqlType t = arrayTypeFor(args.get(0), args.get(1), name, args);
                return new Edit(name, t, toArray(args.get(0), t), toElement(args.get(1), t.element(), name, args),
                        toElement(args.get(2), t.element(), name, args));
            }
            case "ARRAY_POSITION": {
                arity(name, args, 2, 3);
                SqlType t = arrayTypeFor(args.get(0), args.get(1), name, args);
                Expression[] a = args.size() == 3
                        ? new Expression[] {toArray(args.get(0), t), toElement(args.get(1), t.element(), name, args), integer(name, args, 2)}
                        : new Expression[] {toArray(args.get(0), t), toElement(args.get(1), t.element(), name, args)};
                return new Edit(name, SqlType.INT, t.element(), a);
            }
            default: { // ARRAY_POSITIONS
                arity(name, args, 2, 2);
                SqlType t = arrayTypeFor(args.get(0), args.get(1), name, args);
                return new Edit(name, SqlType.INT_ARRAY, t.element(),
                        new Expression[] {toArray(args.get(0), t), toElement(args.get(1), t.element(), name, args)});
            }
        }
    }

    /** The array type of {@code arr} beside an element {@code elem}: the array's, or the element's array type. */
    private static SqlType arrayTypeFor(Expression arr, Expression elem, String name, List<Expression> args) {
        if (arr.type().isArray()) {
            return arr.type();
        }
        if (arr.type() == SqlType.NULL || arr.type() == SqlType.TEXT && arr.isConstant()) {
            SqlType e = elem.type() == SqlType.NULL ? SqlType.TEXT : elem.type();
            SqlType t = SqlType.arrayOf(e);
            if (t != null) {
                return t;
            }
        }
        throw noFunction(name, args);
    }

    /** array_append/prepend/cat/remove/replace/position/positions. */
    static final class Edit extends Node {
        final SqlType element;

        Edit(String name, SqlType type, Expression... args) {
            this(name, type, type.element(), args);
        }

        Edit(String name, SqlType type, SqlType element, Expression[] args) {
            super(type, name, args);
            this.element = element;
        }

        private String elem(Expression e, EvalContext ctx) {
            String s = PgArray.elementText(e, ctx);
            return s == null || e.type() == element ? s : PgArray.canonicalElement(s, element);
        }

        private boolean same(String a, String b) {
            return a == null ? b == null : b != null && PgArray.equalElements(a, b, element);
        }

        @Override
        Object value(EvalContext ctx) {
            switch (name) {
                case "ARRAY_APPEND":
                case "ARRAY_PREPEND": {
                    boolean append = name.equals("ARRAY_APPEND");
                    PgArray.Value v = arrayOf(args[append ? 0 : 1], ctx);
                    String e = elem(args[append ? 1 : 0], ctx);
                    if (v == null) {
                        v = PgArray.EMPTY;
                    }
                    if (v.dims.length > 1) {
                        throw new SqlException(SqlState.DATATYPE_MISMATCH, "argument must be empty or one-dimensional array");
                    }
                    List<String> items = new ArrayList<>(java.util.Arrays.asList(v.items));
                    if (append) {
                        items.add(e);
                    } else {
                        items.add(0, e);
                    }
                    return PgArray.Value.of(items).text();
                }
                case "ARRAY_CAT": {
                    PgArray.Value a = arrayOf(args[0], ctx);
                    PgArray.Value b = arrayOf(args[1], ctx);
                    if (a == null && b == null) {
                        return null;
                    }
                    return cat(a == null ? PgArray.EMPTY : a, b == null ? PgArray.EMPTY : b).text();
                }
                case "ARRAY_REMOVE": {
                    PgArray.Value v = arrayOf(args[0], ctx);
                    if (v == null) {
                        return null;
                    }
                    String e = elem(args[1], ctx);
                    if (v.dims.length > 1) {
                        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "removing elements from multidimensional arrays is not supported");
                    }
                    List<String> items = new ArrayList<>();
                    for (String s : v.items) {
                        if (!same(s, e)) {
                            items.add(s);
                        }
                    }
                    return PgArray.Value.of(items).text();
                }
                case "ARRAY_REPLACE": {
                    PgArray.Value v = arrayOf(args[0], ctx);
                    if (v == null) {
                        return null;
                    }
                    String from = elem(args[1], ctx);
                    String to = elem(args[2], ctx);
                    String[] items = v.items.clone();
                    for (int i = 0; i < items.length; i++) {
                        if (same(items[i], from)) {
                            items[i] = to;
                        }
                    }
                    return PgArray.format(items, v.dims);
                }
                case "ARRAY_POSITION": {
                    PgArray.Value v = arrayOf(args[0], ctx);
                    if (v == null) {
                        return null;
                    }
                    if (v.dims.length > 1) {
                        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "searching for elements in multidimensional arrays is not supported");
                    }
                    String e = elem(args[1], ctx);
                    int start = 0;
                    if (args.length > 2) {
                        long s = args[2].evalLong(ctx);
                        if (ctx.isNull) {
                            throw new SqlException(SqlState.NULL_VALUE_NOT_ALLOWED, "initial position must not be null");
                        }
                        start = (int) Math.max(0, Math.min(Integer.MAX_VALUE, s - 1));
                    }
                    for (int i = start; i < v.items.length; i++) {
                        if (same(v.items[i], e)) {
                            return (long) (i + 1);
                        }
                    }
                    return null;
                }
                default: { // ARRAY_POSITIONS
                    PgArray.Value v = arrayOf(args[0], ctx);
                    if (v == null) {
                        return null;
                    }
                    if (v.dims.length > 1) {
                        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "searching for elements in multidimensional arrays is not supported");
                    }
                    String e = elem(args[1], ctx);
                    List<String> at = new ArrayList<>();
                    for (int i = 0; i < v.items.length; i++) {
                        if (same(v.items[i], e)) {
                            at.add(Integer.toString(i + 1));
                        }
                    }
                    return PgArray.Value.of(at).text();
                }
            }
        }
    }

    /** array_cat's dimension rules: equal dimensions concatenate along the first; one dimension fewer is appended as one row. */
    static PgArray.Value cat(PgArray.Value a, PgArray.Value b) {
        if (a.items.length == 0) {
            return b;
        }
        if (b.items.length == 0) {
            return a;
        }
        String[] items = new String[a.items.length + b.items.length];
        System.arraycopy(a.items, 0, items, 0, a.items.length);
        System.arraycopy(b.items, 0, items, a.items.length, b.items.length);
        int[] dims;
        if (a.dims.length == b.dims.length) {
            for (int d = 1; d < a.dims.length; d++) {
                if (a.dims[d] != b.dims[d]) {
                    throw catError();
                }
            }
            dims = a.dims.clone();
            dims[0] += b.dims[0];
        } else if (a.dims.length == b.dims.length + 1) {
            for (int d = 0; d < b.dims.length; d++) {
                if (a.dims[d + 1] != b.dims[d]) {
                    throw catError();
                }
            }
            dims = a.dims.clone();
            dims[0] += 1;
        } else if (b.dims.length == a.dims.length + 1) {
            for (int d = 0; d < a.dims.length; d++) {
                if (b.dims[d + 1] != a.dims[d]) {
                    throw catError();
                }
            }
            dims = b.dims.clone();
            dims[0] += 1;
        } else {
            throw catError();
        }
        return new PgArray.Value(items, dims);
    }

    private static SqlException catError() {
        return new SqlException(SqlState.ARRAY_SUBSCRIPT_ERROR, "cannot concatenate incompatible arrays");
    }

    /** {@code a @> b}, {@code a <@ b}, {@code a && b} (NULL elements match nothing). */
    static final class SetTest extends Node {
        final SqlType element;

        SetTest(String name, Expression a, Expression b) {
            super(SqlType.BOOLEAN, name, new Expression[] {a, b});
            this.element = a.type().isArray() ? a.type().element() : b.type().element();
        }

        private boolean contains(PgArray.Value big, PgArray.Value small) {
            for (String s : small.items) {
                boolean found = false;
                if (s != null) {
                    for (String t : big.items) {
                        if (t != null && PgArray.equalElements(s, t, element)) {
                            found = true;
                            break;
                        }
                    }
                }
                if (!found) {
                    return false;
                }
            }
            return true;
        }

        @Override
        Object value(EvalContext ctx) {
            PgArray.Value a = arrayOf(args[0], ctx);
            if (a == null) {
                return null;
            }
            PgArray.Value b = arrayOf(args[1], ctx);
            if (b == null) {
                return null;
            }
            switch (name) {
                case "ARRAY_CONTAINS":
                    return contains(a, b);
                case "ARRAY_CONTAINED":
                    return contains(b, a);
                default: {
                    for (String s : a.items) {
                        if (s == null) {
                            continue;
                        }
                        for (String t : b.items) {
                            if (t != null && PgArray.equalElements(s, t, element)) {
                                return true;
                            }
                        }
                    }
                    return false;
                }
            }
        }

        @Override
        public String describe() {
            String op = name.equals("ARRAY_CONTAINS") ? "@>" : name.equals("ARRAY_CONTAINED") ? "<@" : "&&";
            return "(" + args[0].describe() + " " + op + " " + args[1].describe() + ")";
        }
    }

    /** {@code x op ANY (array)} / {@code x op ALL (array)}: three-valued, as PostgreSQL. */
    static final class AnyAll extends Node {
        final boolean all;
        final BinaryOp op;
        final SqlType common;

        AnyAll(boolean all, BinaryOp op, SqlType common, Expression x, Expression arr) {
            super(SqlType.BOOLEAN, all ? "ALL" : "ANY", new Expression[] {x, arr});
            this.all = all;
            this.op = op;
            this.common = common;
        }

        @Override
        Object value(EvalContext ctx) {
            PgArray.Value v = arrayOf(args[1], ctx);
            if (v == null) {
                return null;
            }
            if (v.items.length == 0) {
                return all;
            }
            String x = PgArray.elementText(args[0], ctx);
            if (x == null) {
                return null;
            }
            boolean sawNull = false;
            for (String s : v.items) {
                if (s == null) {
                    sawNull = true;
                    continue;
                }
                boolean r = Comparison.test(op, PgArray.compareElements(x, s, common));
                if (r && !all) {
                    return true;
                }
                if (!r && all) {
                    return false;
                }
            }
            return sawNull ? null : all;
        }

        @Override
        public String describe() {
            return "(" + args[0].describe() + " " + op.symbol + " " + name + " (" + args[1].describe() + "))";
        }
    }

    // ---- casts, comparison, concatenation, order ------------------------------------------------

    /** CAST to array type {@code target}: from text (array_in), from another array type (each element converted). */
    static Expression cast(Expression e, SqlType target) {
        SqlType from = e.type();
        if (from == target) {
            return e;
        }
        if (from == SqlType.NULL) {
            return Literal.ofNull(target);
        }
        if (from != SqlType.TEXT && !from.isArray()) {
            throw new SqlException(SqlState.CANNOT_COERCE, "cannot cast type " + Expressions.pgName(from) + " to "
                    + Expressions.pgName(target));
        }
        return Expressions.fold(new ArrayCast(target, e));
    }

    static final class ArrayCast extends Node {
        ArrayCast(SqlType target, Expression arg) {
            super(target, "CAST", new Expression[] {arg});
        }

        @Override
        Object value(EvalContext ctx) {
            Expression a = args[0];
            byte[] b = a.evalText(ctx);
            if (ctx.isNull) {
                return null;
            }
            String s = new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8);
            PgArray.Value v = PgArray.parse(s, a.type() == SqlType.TEXT || a.type().element() == SqlType.TEXT
                    || type.element() == SqlType.TEXT ? type.element() : type.element());
            return v.text();
        }

        @Override
        public String describe() {
            return "CAST(" + args[0].describe() + " AS " + type.sqlName() + ")";
        }
    }

    /** An array retyped as TEXT (its text is its value). */
    static final class AsText extends UnaryNode {
        AsText(Expression arg) {
            super(SqlType.TEXT, arg);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            return arg.evalText(ctx);
        }

        @Override
        public String describe() {
            return "CAST(" + arg.describe() + " AS TEXT)";
        }
    }

    /** Comparison of two arrays ({@link PgArray#compare}); sets {@code ctx.isNull} when either is NULL. */
    static int compare(Expression left, Expression right, EvalContext ctx) {
        PgArray.Value a = arrayOf(left, ctx);
        if (a == null) {
            return 0;
        }
        PgArray.Value b = arrayOf(right, ctx);
        if (b == null) {
            return 0;
        }
        SqlType elem = left.type().isArray() ? left.type().element() : right.type().element();
        if (right.type().isArray() && right.type() != left.type()) {
            SqlType c = Expressions.commonType(elem, right.type().element());
            elem = c == null ? SqlType.TEXT : c;
        }
        return PgArray.compare(a, b, elem);
    }

    /** {@code a || b} with an array on either side: array_cat, or array_append/prepend of an element. */
    static Expression concat(Expression left, Expression right) {
        SqlType l = left.type();
        SqlType r = right.type();
        List<Expression> args = List.of(left, right);
        if (l.isArray() && r.isArray()) {
            return function("ARRAY_CAT", args);
        }
        if (l.isArray()) {
            if (r == SqlType.NULL) {
                return left; // an untyped NULL is an array: array_cat with NULL
            }
            if (r == SqlType.TEXT && right.isConstant() && l != SqlType.TEXT_ARRAY) {
                String s = constText(right);
                if (s != null && s.trim().startsWith("{")) {
                    return function("ARRAY_CAT", List.of(left, cast(right, l)));
                }
            }
            return function("ARRAY_APPEND", args);
        }
        if (l == SqlType.NULL) {
            return right;
        }
        if (l == SqlType.TEXT && left.isConstant() && r != SqlType.TEXT_ARRAY) {
            String s = constText(left);
            if (s != null && s.trim().startsWith("{")) {
                return function("ARRAY_CAT", List.of(cast(left, r), right));
            }
        }
        return function("ARRAY_PREPEND", args);
    }

    private static String constText(Expression e) {
        EvalContext ctx = new EvalContext(1);
        byte[] a = e.evalText(ctx);
        return ctx.isNull ? null : new String(a, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8);
    }

    /** What a sort orders an array by: a TEXT key whose byte order is array_cmp's ({@link PgArray#orderKey}). */
    static final class OrderKey extends UnaryNode {
        private byte[] key = TextBuf.EMPTY;

        OrderKey(Expression arg) {
            super(SqlType.TEXT, arg);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            PgArray.Value v = arrayOf(arg, ctx);
            if (v == null) {
                ctx.isNull = true;
                ctx.textOffset = 0;
                ctx.textLength = 0;
                return TextBuf.EMPTY;
            }
            ctx.isNull = false;
            key = PgArray.orderKey(v, arg.type().element());
            ctx.textOffset = 0;
            ctx.textLength = key.length;
            return key;
        }

        @Override
        public String describe() {
            return arg.describe();
        }
    }
}
