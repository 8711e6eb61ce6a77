package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Catalog;
import io.respsql.storage.Sequence;
import io.respsql.storage.SequenceScope;
import io.respsql.storage.SequenceSession;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's sequence functions: {@code nextval(name)}, {@code currval(name)},
 * {@code setval(name, value [, is_called])}, {@code lastval()}. Never constant (each call may move
 * a sequence, so nothing folds or hoists it) and evaluated on the event loop only, through this
 * thread's {@link SequenceScope}: the sequence is found by name when the call runs (a cached plan
 * never holds a dropped sequence), a constant name once per schema version.
 */
public final class SequenceCall extends Expression {
    /** {@code SELECT * FROM s}'s columns: last_value and is_called as they are (not PostgreSQL functions). */
    public static final String READ_LAST = "RESPSQL_SEQUENCE_LAST_VALUE";
    public static final String READ_CALLED = "RESPSQL_SEQUENCE_IS_CALLED";
    public static final List<String> NAMES = List.of("NEXTVAL", "CURRVAL", "SETVAL", "LASTVAL", "PG_SEQUENCE_LAST_VALUE",
            READ_LAST, READ_CALLED);

    private final String fn;
    private final Expression name;
    private final Expression value;
    private final Expression called;
    /** The name when it is constant (null otherwise), and the sequence it found under {@link #foundIn}. */
    private final String constantName;
    private Sequence found;
    private Catalog foundCatalog;
    private long foundIn = -1;

    private SequenceCall(String fn, Expression name, Expression value, Expression called) {
        super(fn.equals(READ_CALLED) ? SqlType.BOOLEAN : SqlType.BIGINT);
        this.fn = fn;
        this.name = name;
        this.value = value;
        this.called = called;
        String c = null;
        if (name != null && name.isConstant()) {
            EvalContext ctx = new EvalContext(1);
            byte[] b = name.evalText(ctx);
            c = ctx.isNull ? null : new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8);
        }
        this.constantName = c;
    }

    /** Whether {@code upper} names a sequence function. */
    public static boolean isSequenceFunction(String upper) {
        return NAMES.contains(upper);
    }

    /** Binds a call; arity and argument types checked. */
    public static Expression of(String upper, List<Expression> args) {
        SequenceScope.bound();
        int n = args.size();
        switch (upper) {
            case "LASTVAL":
                if (n != 0) {
                    throw arity(upper, "no arguments", n);
                }
                return new SequenceCall(upper, null, null, null);
            case "NEXTVAL":
            case "CURRVAL":
            case "PG_SEQUENCE_LAST_VALUE":
            case READ_LAST:
            case READ_CALLED:
                if (n != 1) {
                    throw arity(upper, "1 argument", n);
                }
                return new SequenceCall(upper, text(upper, args.get(0)), null, null);
            default: // SETVAL
                if (n != 2 && n != 3) {
                    throw arity(upper, "2 or 3 arguments", n);
                }
                Expression v = args.get(1);
                if (!v.type().isInteger() && v.type() != SqlType.NULL) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function setval(regclass, " + Expressions.pgName(v.type())
                            + ") does not exist");
                }
                Expression c = n == 3 ? args.get(2) : null;
                if (c != null && c.type() != SqlType.BOOLEAN && c.type() != SqlType.NULL) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function setval(regclass, bigint, " + Expressions.pgName(c.type())
                            + ") does not exist");
                }
                return new SequenceCall(upper, text(upper, args.get(0)), v, c);
        }
    }

    private static Expression text(String fn, Expression e) {
        if (e.type() != SqlType.TEXT && e.type() != SqlType.NULL) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + fn.toLowerCase(Locale.ROOT) + "("
                    + Expressions.pgName(e.type()) + ") does not exist");
        }
        return e;
    }

    private static SqlException arity(String fn, String want, int n) {
        return new SqlException(SqlState.UNDEFINED_FUNCTION, "function '" + fn.toLowerCase(Locale.ROOT) + "' takes " + want + ", got " + n);
    }

    @Override
    public boolean isConstant() {
        return false;
    }

    @Override
    public long relations() {
        long r = 0;
        if (name != null) {
            r |= name.relations();
        }
        if (value != null) {
            r |= value.relations();
        }
        if (called != null) {
            r |= called.relations();
        }
        return r;
    }

    @Override
    public long evalLong(EvalContext ctx) {
        SequenceScope scope = SequenceScope.current();
        if (scope == null) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, fn.toLowerCase(Locale.ROOT) + "() cannot run here (a background query)");
        }
        SequenceSession session = scope.session;
        if (fn.equals("LASTVAL")) {
            Sequence last = session.last();
            if (last == null) {
                throw new SqlException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "lastval is not yet defined in this session");
            }
            if (scope.catalog.sequence(last.name()) != last) {
                throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + last.name() + "\" does not exist");
            }
            ctx.isNull = false;
            return session.lastValue();
        }
        Sequence s = sequence(scope.catalog, ctx);
        if (s == null) {
            ctx.isNull = true; // a NULL name: PostgreSQL's functions are strict
            return 0;
        }
        switch (fn) {
            case "NEXTVAL": {
                refuse(scope);
                int r = s.advance();
                if (r != 0) {
                    throw new SqlException(SqlState.SEQUENCE_GENERATOR_LIMIT_EXCEEDED, "nextval: reached "
                            + (r > 0 ? "maximum value of sequence \"" + s.name() + "\" (" + s.max + ")"
                            : "minimum value of sequence \"" + s.name() + "\" (" + s.min + ")"));
                }
                scope.moved(s);
                session.nextval(s, s.lastValue);
                ctx.isNull = false;
                return s.lastValue;
            }
            case "PG_SEQUENCE_LAST_VALUE":
                ctx.isNull = !s.isCalled;
                return s.lastValue;
            case READ_LAST:
                ctx.isNull = false;
                return s.lastValue;
            case READ_CALLED:
                ctx.isNull = false;
                return s.isCalled ? 1 : 0;
            case "CURRVAL": {
                long[] c = session.currval(s);
                if (c == null) {
                    throw new SqlException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "currval of sequence \"" + s.name()
                            + "\" is not yet defined in this session");
                }
                ctx.isNull = false;
                return c[0];
            }
            default: { // SETVAL
                long v = value.evalLong(ctx);
                if (ctx.isNull) {
                    return 0;
                }
                boolean isCalled = true;
                if (called != null) {
                    long b = called.evalLong(ctx);
                    if (ctx.isNull) {
                        return 0;
                    }
                    isCalled = b != 0;
                }
                if (scope.replaying) {
                    s.lastValue = v;
                    s.isCalled = isCalled;
                    scope.moved(s);
                    ctx.isNull = false;
                    return v;
                }
                refuse(scope);
                if (v < s.min || v > s.max) {
                    throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "setval: value " + v + " is out of bounds for sequence \""
                            + s.name() + "\" (" + s.min + ".." + s.max + ")");
                }
                s.lastValue = v;
                s.isCalled = isCalled;
                scope.moved(s);
                if (isCalled) {
                    session.set(s, v);
                }
                ctx.isNull = false;
                return v;
            }
        }
    }

    private void refuse(SequenceScope scope) {
        String why = scope.refusal();
        if (why != null) {
            String text = why.startsWith("READONLY") || why.startsWith("ERR ") ? why.substring(why.indexOf(' ') + 1) : why;
            throw new SqlException(why.startsWith("READONLY") ? SqlState.READ_ONLY_SQL_TRANSACTION : SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    "cannot execute " + fn.toLowerCase(Locale.ROOT) + "(): " + text);
        }
    }

    /** The named sequence; null for a NULL name; an error when there is none. */
    private Sequence sequence(Catalog catalog, EvalContext ctx) {
        String n = constantName;
        if (n != null) {
            if (foundCatalog == catalog && foundIn == catalog.schemaVersion() && found != null) {
                return found;
            }
        } else {
            if (name.isConstant()) {
                ctx.isNull = true;
                return null;
            }
            byte[] b = name.evalText(ctx);
            if (ctx.isNull) {
                return null;
            }
            n = new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8);
        }
        Sequence s = lookup(catalog, n);
        if (constantName != null) {
            found = s;
            foundCatalog = catalog;
            foundIn = catalog.schemaVersion();
        }
        return s;
    }

    /** PostgreSQL's text to regclass: {@code s}, {@code "S"}, {@code public.s}. */
    public static Sequence lookup(Catalog catalog, String text) {
        String n = text.trim();
        int dot = n.indexOf('.');
        if (dot > 0 && !n.startsWith("\"")) {
            String schema = n.substring(0, dot);
            if (schema.equalsIgnoreCase("public") || schema.equalsIgnoreCase("pg_temp")) {
                n = n.substring(dot + 1);
            }
        }
        if (n.length() >= 2 && n.startsWith("\"") && n.endsWith("\"")) {
            n = n.substring(1, n.length() - 1).replace("\"\"", "\"");
        }
        Sequence s = catalog.sequence(n);
        if (s == null) {
            if (catalog.table(n) != null || catalog.view(n) != null) {
                throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "\"" + n + "\" is not a sequence");
            }
            throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + n + "\" does not exist");
        }
        return s;
    }

    @Override
    public String describe() {
        StringBuilder b = new StringBuilder(fn.toLowerCase(Locale.ROOT)).append('(');
        if (name != null) {
            b.append(name.describe());
        }
        if (value != null) {
            b.append(", ").append(value.describe());
        }
        if (called != null) {
            b.append(", ").append(called.describe());
        }
        return b.append(')').toString();
    }
}
