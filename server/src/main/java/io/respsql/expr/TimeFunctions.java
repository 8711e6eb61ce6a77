package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr.BinaryOp;

import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's date/time operators and functions (issue 25): INTERVAL arithmetic, now() and the
 * CURRENT_* values, EXTRACT/date_part, date_trunc, to_char, to_date/to_timestamp, make_*, age,
 * justify_*, isfinite. Every node evaluates without allocating (an INTERVAL result is written into
 * the node's own {@link Interval#BYTES}-byte buffer).
 */
final class TimeFunctions {
    private TimeFunctions() {
    }

    static final long MPD = Interval.MPD;

    static final java.util.Set<String> NAMES = java.util.Set.of("NOW", "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME",
            "LOCALTIMESTAMP", "LOCALTIME", "TRANSACTION_TIMESTAMP", "STATEMENT_TIMESTAMP", "CLOCK_TIMESTAMP", "DATE_PART",
            "EXTRACT", "DATE_TRUNC", "TO_CHAR", "TO_DATE", "TO_TIMESTAMP", "MAKE_DATE", "MAKE_TIMESTAMP", "MAKE_INTERVAL",
            "AGE", "JUSTIFY_DAYS", "JUSTIFY_HOURS", "JUSTIFY_INTERVAL", "ISFINITE");

    // ---- reading arguments ------------------------------------------------------------------

    /** A DATE or TIMESTAMP argument as microseconds; sets ctx.isNull. */
    static long micros(Expression e, EvalContext ctx) {
        long v = e.evalLong(ctx);
        return e.type() == SqlType.DATE ? Temporal.dateToTimestamp(v) : v;
    }

    static boolean temporal(SqlType t) {
        return t == SqlType.DATE || t == SqlType.TIMESTAMP;
    }

    /** An INTERVAL-typed node: the result goes into its own buffer. */
    abstract static class IntervalNode extends NaryNode {
        final byte[] out = new byte[Interval.BYTES];
        final Interval.Value v = new Interval.Value();
        final Interval.Value w = new Interval.Value();

        IntervalNode(String name, Expression... args) {
            super(SqlType.INTERVAL, name, args);
        }

        final byte[] emit(EvalContext ctx, Interval.Value r) {
            Interval.encode(r.months, r.days, r.micros, out, 0);
            ctx.isNull = false;
            ctx.textOffset = 0;
            ctx.textLength = Interval.BYTES;
            return out;
        }

        static byte[] nul(EvalContext ctx) {
            ctx.isNull = true;
            ctx.textOffset = 0;
            ctx.textLength = 0;
            return TextBuf.EMPTY;
        }

        /** Reads an INTERVAL argument into {@code into}; false when NULL. */
        static boolean read(Expression e, EvalContext ctx, Interval.Value into) {
            byte[] a = e.evalText(ctx);
            if (ctx.isNull) {
                return false;
            }
            into.read(a, ctx.textOffset);
            return true;
        }
    }

    /** An INTERVAL's order-deciding bytes ({@link Interval#KEY_BYTES}), as TEXT: a sort key. */
    static final class IntervalOrder extends NaryNode {
        IntervalOrder(Expression e) {
            super(SqlType.TEXT, "ORDER", new Expression[] {e});
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            byte[] a = args[0].evalText(ctx);
            if (!ctx.isNull) {
                ctx.textLength = Interval.KEY_BYTES;
            }
            return a;
        }

        @Override
        public String describe() {
            return args[0].describe();
        }
    }

    // ---- casts ------------------------------------------------------------------------------

    /** TEXT to INTERVAL (PostgreSQL's input forms), with an optional qualifier ({@code INTERVAL '1' DAY}). */
    static final class IntervalCast extends IntervalNode {
        final int qualifier;

        IntervalCast(Expression arg, int qualifier) {
            super("CAST", arg);
            this.qualifier = qualifier;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            byte[] a = args[0].evalText(ctx);
            if (ctx.isNull) {
                return nul(ctx);
            }
            if (qualifier == Interval.NONE && ctx.textLength == Interval.BYTES && args[0].type() == SqlType.INTERVAL) {
                return a;
            }
            Interval.parse(a, ctx.textOffset, ctx.textLength, qualifier, v);
            return emit(ctx, v);
        }

        @Override
        public String describe() {
            return "CAST(" + args[0].describe() + " AS INTERVAL)";
        }
    }

    /** A constant text read as an INTERVAL at bind time (an error there is PostgreSQL's input error). */
    static Expression intervalConstant(String text, int qualifier) {
        byte[] t = TextBuf.utf8(text);
        Interval.Value v = Interval.parse(t, 0, t.length, qualifier, new Interval.Value());
        return Literal.ofInterval(Interval.encode(v.months, v.days, v.micros));
    }

    // ---- operators --------------------------------------------------------------------------

    /**
     * The operators with INTERVAL, DATE and TIMESTAMP PostgreSQL has; null when the pair is none of
     * them (the caller goes on to its own rules).
     */
    static Expression arithmetic(BinaryOp op, Expression l, Expression r) {
        SqlType a = l.type();
        SqlType b = r.type();
        boolean add = op == BinaryOp.ADD;
        boolean sub = op == BinaryOp.SUB;
        if (a == SqlType.INTERVAL && b == SqlType.INTERVAL && (add || sub)) {
            return new IntervalPlus(l, r, sub);
        }
        if (temporal(a) && b == SqlType.INTERVAL && (add || sub)) {
            return new TimestampPlus(l, r, sub);
        }
        if (a == SqlType.INTERVAL && temporal(b) && add) {
            return new TimestampPlus(r, l, false);
        }
        if (a == SqlType.TIMESTAMP && temporal(b) && sub || a == SqlType.DATE && b == SqlType.TIMESTAMP && sub) {
            return new TimestampMinus(l, r);
        }
        if (a == SqlType.INTERVAL && b == SqlType.NUMERIC || b == SqlType.INTERVAL && a == SqlType.NUMERIC) {
            // interval * or / numeric: computed in float8, as PostgreSQL's interval_mul takes float8
            return arithmetic(op, a == SqlType.NUMERIC ? Expressions.numericAsDouble(l) : l,
                    b == SqlType.NUMERIC ? Expressions.numericAsDouble(r) : r);
        }
        if (a == SqlType.INTERVAL && (b.isNumeric() || b == SqlType.NULL) && (op == BinaryOp.MUL || op == BinaryOp.DIV)) {
            return new IntervalScale(l, r, op == BinaryOp.DIV);
        }
        if (b == SqlType.INTERVAL && a.isNumeric() && op == BinaryOp.MUL) {
            return new IntervalScale(r, l, false);
        }
        if (a == SqlType.INTERVAL || b == SqlType.INTERVAL) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "operator does not exist: " + Expressions.pgName(a) + " "
                    + op.symbol + " " + Expressions.pgName(b));
        }
        return null;
    }

    static final class IntervalPlus extends IntervalNode {
        final boolean sub;

        IntervalPlus(Expression l, Expression r, boolean sub) {
            super(sub ? "-" : "+", l, r);
            this.sub = sub;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            if (!read(args[0], ctx, v) || !read(args[1], ctx, w)) {
                return nul(ctx);
            }
            try {
                if (sub) {
                    v.set(v.months - w.months, v.days - w.days, Math.subtractExact(v.micros, w.micros));
                } else {
                    v.set(v.months + w.months, v.days + w.days, Math.addExact(v.micros, w.micros));
                }
            } catch (ArithmeticException e) {
                throw Interval.outOfRange();
            }
            return emit(ctx, v);
        }

        @Override
        public String describe() {
            return "(" + args[0].describe() + (sub ? " - " : " + ") + args[1].describe() + ")";
        }
    }

    static final class IntervalNegate extends IntervalNode {
        IntervalNegate(Expression e) {
            super("-", e);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            if (!read(args[0], ctx, v)) {
                return nul(ctx);
            }
            if (v.micros == Long.MIN_VALUE || v.months == Integer.MIN_VALUE || v.days == Integer.MIN_VALUE) {
                throw Interval.outOfRange();
            }
            return emit(ctx, v.set(-v.months, -v.days, -v.micros));
        }

        @Override
        public String describe() {
            return "(-" + args[0].describe() + ")";
        }
    }

    /** DATE/TIMESTAMP ± INTERVAL: a TIMESTAMP. */
    static final class TimestampPlus extends NaryNode {
        final boolean sub;
        final Interval.Value v = new Interval.Value();

        TimestampPlus(Expression ts, Expression iv, boolean sub) {
            super(SqlType.TIMESTAMP, sub ? "-" : "+", new Expression[] {ts, iv});
            this.sub = sub;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            long t = micros(args[0], ctx);
            if (ctx.isNull) {
                return 0;
            }
            if (!IntervalNode.read(args[1], ctx, v)) {
                return 0;
            }
            if (Temporal.infiniteTimestamp(t)) {
                return t; // infinity plus or minus any interval
            }
            if (sub) {
                if (v.micros == Long.MIN_VALUE) {
                    throw Interval.outOfRange();
                }
                return Interval.addToTimestamp(t, -v.months, -v.days, -v.micros);
            }
            return Interval.addToTimestamp(t, v.months, v.days, v.micros);
        }

        @Override
        public String describe() {
            return "(" + args[0].describe() + (sub ? " - " : " + ") + args[1].describe() + ")";
        }
    }

    /** TIMESTAMP - TIMESTAMP: an INTERVAL of days and time. */
    static final class TimestampMinus extends IntervalNode {
        TimestampMinus(Expression l, Expression r) {
            super("-", l, r);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long a = micros(args[0], ctx);
            if (ctx.isNull) {
                return nul(ctx);
            }
            long b = micros(args[1], ctx);
            if (ctx.isNull) {
                return nul(ctx);
            }
            if (Temporal.infiniteTimestamp(a) || Temporal.infiniteTimestamp(b)) {
                throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "cannot subtract infinite timestamps");
            }
            return emit(ctx, Interval.between(a, b, v));
        }

        @Override
        public String describe() {
            return "(" + args[0].describe() + " - " + args[1].describe() + ")";
        }
    }

    /** INTERVAL * number, number * INTERVAL, INTERVAL / number. */
    static final class IntervalScale extends IntervalNode {
        final boolean div;

        IntervalScale(Expression iv, Expression factor, boolean div) {
            super(div ? "/" : "*", iv, factor);
            this.div = div;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            if (!read(args[0], ctx, v)) {
                return nul(ctx);
            }
            double f = args[1].evalDouble(ctx);
            if (ctx.isNull) {
                return nul(ctx);
            }
            return emit(ctx, div ? Interval.divide(v, f) : Interval.multiply(v, f));
        }

        @Override
        public String describe() {
            return "(" + args[0].describe() + (div ? " / " : " * ") + args[1].describe() + ")";
        }
    }

    // ---- the statement's time ---------------------------------------------------------------

    static final int NOW = 0, CURRENT_DATE = 1, CLOCK = 2, CURRENT_TIME = 3;

    /** now() and its kin: the statement's time ({@link StatementTime}); clock_timestamp() the wall clock. Never folded. */
    static final class Now extends Expression {
        final int kind;
        final String name;
        final TextBuf buf = new TextBuf();

        Now(int kind, String name) {
            super(kind == CURRENT_DATE ? SqlType.DATE : kind == CURRENT_TIME ? SqlType.TEXT : SqlType.TIMESTAMP);
            this.kind = kind;
            this.name = name;
        }

        private long time(EvalContext ctx) {
            if (kind == CLOCK) {
                return StatementTime.current().clock();
            }
            if (ctx.statementMicros == 0) {
                ctx.statementMicros = StatementTime.current().micros();
            }
            return ctx.statementMicros;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            ctx.isNull = false;
            long t = time(ctx);
            return kind == CURRENT_DATE ? Math.floorDiv(t, MPD) : t;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long t = time(ctx);
            buf.reset();
            long tod = Math.floorMod(t, MPD);
            Temporal.appendTimestamp(tod, buf);
            // the time part of 1970-01-01 hh:mm:ss
            int skip = 11;
            System.arraycopy(buf.a, skip, buf.a, 0, buf.len - skip);
            buf.len -= skip;
            if (name.equals("CURRENT_TIME")) {
                buf.put((byte) '+');
                buf.put((byte) '0');
                buf.put((byte) '0');
            }
            return buf.result(ctx);
        }

        @Override
        public boolean isConstant() {
            return false;
        }

        @Override
        public String describe() {
            return name.startsWith("CURRENT_") || name.startsWith("LOCAL") ? name : name + "()";
        }
    }

    /** The statement's time, for 'now' and 'today' read as a timestamp or date. */
    static long statementMicros(EvalContext ctx) {
        if (ctx == null) {
            return StatementTime.current().micros();
        }
        if (ctx.statementMicros == 0) {
            ctx.statementMicros = StatementTime.current().micros();
        }
        return ctx.statementMicros;
    }

    // ---- fields -----------------------------------------------------------------------------

    static final int F_MICROSECONDS = 0, F_MILLISECONDS = 1, F_SECOND = 2, F_MINUTE = 3, F_HOUR = 4, F_DAY = 5, F_WEEK = 6,
            F_MONTH = 7, F_QUARTER = 8, F_YEAR = 9, F_DECADE = 10, F_CENTURY = 11, F_MILLENNIUM = 12, F_DOW = 13, F_ISODOW = 14,
            F_DOY = 15, F_EPOCH = 16, F_JULIAN = 17, F_ISOYEAR = 18, F_TIMEZONE = 19, F_TIMEZONE_H = 20, F_TIMEZONE_M = 21;

    static int field(String unit) {
        switch (unit.trim().toLowerCase(Locale.ROOT)) {
            case "microsecond", "microseconds", "us", "usec", "usecs", "useconds":
                return F_MICROSECONDS;
            case "millisecond", "milliseconds", "ms", "msec", "msecs", "mseconds":
                return F_MILLISECONDS;
            case "second", "seconds", "s", "sec", "secs":
                return F_SECOND;
            case "minute", "minutes", "m", "min", "mins":
                return F_MINUTE;
            case "hour", "hours", "h", "hr", "hrs":
                return F_HOUR;
            case "day", "days", "d":
                return F_DAY;
            case "week", "weeks", "w":
                return F_WEEK;
            case "month", "months", "mon", "mons":
                return F_MONTH;
            case "quarter", "qtr":
                return F_QUARTER;
            case "year", "years", "y", "yr", "yrs":
                return F_YEAR;
            case "decade", "decades", "dec", "decs":
                return F_DECADE;
            case "century", "centuries", "c", "cent":
                return F_CENTURY;
            case "millennium", "millennia", "mil", "mils", "millenniums":
                return F_MILLENNIUM;
            case "dow":
                return F_DOW;
            case "isodow":
                return F_ISODOW;
            case "doy":
                return F_DOY;
            case "epoch":
                return F_EPOCH;
            case "julian", "j":
                return F_JULIAN;
            case "isoyear":
                return F_ISOYEAR;
            case "timezone":
                return F_TIMEZONE;
            case "timezone_hour":
                return F_TIMEZONE_H;
            case "timezone_minute":
                return F_TIMEZONE_M;
            default:
                return -1;
        }
    }

    static SqlException badUnit(String unit, SqlType t) {
        return new SqlException(SqlState.INVALID_PARAMETER_VALUE, "unit \"" + unit.toLowerCase(Locale.ROOT) + "\" not recognized for type "
                + Expressions.pgName(t));
    }

    static SqlException unsupportedUnit(String unit, SqlType t) {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "unit \"" + unit.toLowerCase(Locale.ROOT) + "\" not supported for type "
                + Expressions.pgName(t));
    }

    /** The unit a constant first argument names (date_part('year', x)); null when it is not constant. */
    static String constantUnit(Expression e) {
        if (!e.isConstant() || e.type() != SqlType.TEXT) {
            return null;
        }
        EvalContext ctx = new EvalContext(1);
        byte[] a = e.evalText(ctx);
        return ctx.isNull ? null : TextBuf.string(a, ctx.textOffset, ctx.textLength);
    }

    /** ISO 8601 week-numbering year and week of a day number, packed year * 64 + week. */
    static long isoWeek(long days) {
        // the Thursday of this week decides the year
        long dow = Math.floorMod(days + 3, 7); // 0 = Monday (1970-01-01 was a Thursday)
        long thursday = days - dow + 3;
        long y = Temporal.year(Temporal.civil(thursday));
        long jan1 = Temporal.daysFromCivil(y, 1, 1);
        long week = (thursday - jan1) / 7 + 1;
        return y * 64 + week;
    }

    /** EXTRACT(field FROM x) and date_part(field, x): a DOUBLE (PostgreSQL's EXTRACT gives numeric). */
    static final class DatePart extends NaryNode {
        final int field;
        final boolean extract;
        final Interval.Value v = new Interval.Value();

        DatePart(String name, int field, Expression unit, Expression x, boolean extract) {
            super(SqlType.DOUBLE, name, new Expression[] {unit, x});
            this.field = field;
            this.extract = extract;
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            Expression x = args[1];
            if (x.type() == SqlType.INTERVAL) {
                if (!IntervalNode.read(x, ctx, v)) {
                    return 0;
                }
                return ofInterval(field, v);
            }
            long t = micros(x, ctx);
            if (ctx.isNull) {
                return 0;
            }
            if (Temporal.infiniteTimestamp(t)) { // PostgreSQL 15: the fields that grow with time are infinite, the others NULL
                switch (field) {
                    case F_YEAR, F_DECADE, F_CENTURY, F_MILLENNIUM, F_JULIAN, F_ISOYEAR, F_EPOCH:
                        return t > 0 ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
                    default:
                        ctx.isNull = true;
                        return 0;
                }
            }
            return ofTimestamp(field, t);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            return (long) evalDouble(ctx);
        }

        @Override
        public String describe() {
            return extract ? "EXTRACT(" + args[0].describe() + " FROM " + args[1].describe() + ")" : super.describe();
        }
    }

    static double ofTimestamp(int field, long t) {
        long days = Math.floorDiv(t, MPD);
        long tod = t - days * MPD;
        long c = Temporal.civil(days);
        long y = Temporal.year(c);
        int m = Temporal.month(c);
        int d = Temporal.day(c);
        long usec = tod % 60_000_000L;
        switch (field) {
            case F_MICROSECONDS:
                return usec;
            case F_MILLISECONDS:
                return usec / 1000.0;
            case F_SECOND:
                return usec / 1e6;
            case F_MINUTE:
                return tod / 60_000_000L % 60;
            case F_HOUR:
                return tod / 3_600_000_000L;
            case F_DAY:
                return d;
            case F_MONTH:
                return m;
            case F_QUARTER:
                return (m - 1) / 3 + 1;
            case F_YEAR:
                return y > 0 ? y : y - 1; // no year 0: 1 BC is -1
            case F_DECADE:
                return y >= 0 ? Math.floorDiv(y, 10) : -((8 - (y - 1)) / 10);
            case F_CENTURY:
                return y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100);
            case F_MILLENNIUM:
                return y > 0 ? (y + 999) / 1000 : -((999 - (y - 1)) / 1000);
            case F_DOW:
                return Math.floorMod(days + 4, 7); // 0 = Sunday
            case F_ISODOW:
                return Math.floorMod(days + 3, 7) + 1;
            case F_DOY:
                return days - Temporal.daysFromCivil(y, 1, 1) + 1;
            case F_WEEK:
                return isoWeek(days) & 63;
            case F_ISOYEAR: {
                long iy = isoWeek(days) >> 6;
                return iy > 0 ? iy : iy - 1;
            }
            case F_EPOCH:
                return t / 1e6;
            case F_JULIAN:
                return days + 2440588 + tod / (double) MPD;
            case F_TIMEZONE:
            case F_TIMEZONE_H:
            case F_TIMEZONE_M:
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "unit \"timezone\" not supported for type timestamp without time zone");
            default:
                throw new IllegalStateException("field " + field);
        }
    }

    static double ofInterval(int field, Interval.Value v) {
        long micros = v.micros;
        switch (field) {
            case F_MICROSECONDS:
                return micros % 60_000_000L;
            case F_MILLISECONDS:
                return micros % 60_000_000L / 1000.0;
            case F_SECOND:
                return micros % 60_000_000L / 1e6;
            case F_MINUTE:
                return micros / 60_000_000L % 60;
            case F_HOUR:
                return micros / 3_600_000_000L;
            case F_DAY:
                return v.days;
            case F_MONTH:
                return v.months % 12;
            case F_QUARTER:
                return v.months % 12 / 3 + 1;
            case F_YEAR:
                return v.months / 12;
            case F_DECADE:
                return v.months / 120;
            case F_CENTURY:
                return v.months / 1200;
            case F_MILLENNIUM:
                return v.months / 12000;
            case F_EPOCH:
                return Interval.epoch(v.months, v.days, v.micros);
            default:
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "unit not supported for type interval");
        }
    }

    /** date_trunc(unit, ts): the timestamp truncated to the unit (weeks start on Monday). */
    static final class DateTrunc extends NaryNode {
        final int field;
        final Interval.Value v = new Interval.Value();
        final byte[] out = new byte[Interval.BYTES];

        DateTrunc(int field, Expression unit, Expression x) {
            super(x.type() == SqlType.INTERVAL ? SqlType.INTERVAL : SqlType.TIMESTAMP, "DATE_TRUNC", new Expression[] {unit, x});
            this.field = field;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            long t = micros(args[1], ctx);
            if (ctx.isNull) {
                return 0;
            }
            return Temporal.infiniteTimestamp(t) ? t : trunc(field, t);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            if (!IntervalNode.read(args[1], ctx, v)) {
                return IntervalNode.nul(ctx);
            }
            long months = v.months;
            long days = v.days;
            long us = v.micros;
            switch (field) {
                case F_MILLENNIUM: months = months / 12000 * 12000; days = 0; us = 0; break;
                case F_CENTURY: months = months / 1200 * 1200; days = 0; us = 0; break;
                case F_DECADE: months = months / 120 * 120; days = 0; us = 0; break;
                case F_YEAR: months = months / 12 * 12; days = 0; us = 0; break;
                case F_QUARTER: months = months / 3 * 3; days = 0; us = 0; break;
                case F_MONTH: days = 0; us = 0; break;
                case F_DAY: us = 0; break;
                case F_HOUR: us = us / 3_600_000_000L * 3_600_000_000L; break;
                case F_MINUTE: us = us / 60_000_000L * 60_000_000L; break;
                case F_SECOND: us = us / 1_000_000L * 1_000_000L; break;
                case F_MILLISECONDS: us = us / 1000 * 1000; break;
                case F_MICROSECONDS: break;
                default:
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "unit not supported for type interval");
            }
            Interval.encode(months, days, us, out, 0);
            ctx.isNull = false;
            ctx.textOffset = 0;
            ctx.textLength = Interval.BYTES;
            return out;
        }
    }

    static long trunc(int field, long t) {
        long days = Math.floorDiv(t, MPD);
        long tod = t - days * MPD;
        long c = Temporal.civil(days);
        long y = Temporal.year(c);
        int m = Temporal.month(c);
        switch (field) {
            case F_MICROSECONDS:
                return t;
            case F_MILLISECONDS:
                return Math.floorDiv(t, 1000) * 1000;
            case F_SECOND:
                return Math.floorDiv(t, 1_000_000L) * 1_000_000L;
            case F_MINUTE:
                return Math.floorDiv(t, 60_000_000L) * 60_000_000L;
            case F_HOUR:
                return Math.floorDiv(t, 3_600_000_000L) * 3_600_000_000L;
            case F_DAY:
                return days * MPD;
            case F_WEEK:
                return (days - Math.floorMod(days + 3, 7)) * MPD;
            case F_MONTH:
                return Temporal.daysFromCivil(y, m, 1) * MPD;
            case F_QUARTER:
                return Temporal.daysFromCivil(y, (m - 1) / 3 * 3 + 1, 1) * MPD;
            case F_YEAR:
                return Temporal.daysFromCivil(y, 1, 1) * MPD;
            case F_DECADE:
                return Temporal.daysFromCivil(y > 0 ? y / 10 * 10 : -((8 - (y - 1)) / 10) * 10 + 1, 1, 1) * MPD;
            case F_CENTURY:
                return Temporal.daysFromCivil(y > 0 ? ((y + 99) / 100) * 100 - 99 : -((99 - (y - 1)) / 100) * 100 + 1, 1, 1) * MPD;
            case F_MILLENNIUM:
                return Temporal.daysFromCivil(y > 0 ? ((y + 999) / 1000) * 1000 - 999 : -((999 - (y - 1)) / 1000) * 1000 + 1, 1, 1) * MPD;
            default:
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "unit not supported for type timestamp without time zone");
        }
    }

    // ---- age, justify, make_* -----------------------------------------------------------------

    /** age(a, b) (and age(a) from today's midnight): years, months and days apart, as PostgreSQL's timestamp_age. */
    static final class Age extends IntervalNode {
        Age(Expression a, Expression b) {
            super("AGE", b == null ? new Expression[] {a} : new Expression[] {a, b});
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long t1;
            long t2;
            if (args.length == 1) {
                t1 = Math.floorDiv(statementMicros(ctx), MPD) * MPD;
                t2 = micros(args[0], ctx);
                if (ctx.isNull) {
                    return nul(ctx);
                }
            } else {
                t1 = micros(args[0], ctx);
                if (ctx.isNull) {
                    return nul(ctx);
                }
                t2 = micros(args[1], ctx);
                if (ctx.isNull) {
                    return nul(ctx);
                }
            }
            return emit(ctx, age(t1, t2, v));
        }
    }

    private static final int[][] DAY_TAB = {{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}, {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}};

    static Interval.Value age(long dt1, long dt2, Interval.Value out) {
        long d1 = Math.floorDiv(dt1, MPD);
        long tod1 = dt1 - d1 * MPD;
        long d2 = Math.floorDiv(dt2, MPD);
        long tod2 = dt2 - d2 * MPD;
        long c1 = Temporal.civil(d1);
        long c2 = Temporal.civil(d2);
        long fsec = tod1 % 1_000_000 - tod2 % 1_000_000;
        long sec = tod1 / 1_000_000 % 60 - tod2 / 1_000_000 % 60;
        long min = tod1 / 60_000_000 % 60 - tod2 / 60_000_000 % 60;
        long hour = tod1 / 3_600_000_000L - tod2 / 3_600_000_000L;
        long mday = Temporal.day(c1) - Temporal.day(c2);
        long mon = Temporal.month(c1) - Temporal.month(c2);
        long year = Temporal.year(c1) - Temporal.year(c2);
        boolean flip = dt1 < dt2;
        if (flip) {
            fsec = -fsec;
            sec = -sec;
            min = -min;
            hour = -hour;
            mday = -mday;
            mon = -mon;
            year = -year;
        }
        while (fsec < 0) {
            fsec += 1_000_000;
            sec--;
        }
        while (sec < 0) {
            sec += 60;
            min--;
        }
        while (min < 0) {
            min += 60;
            hour--;
        }
        while (hour < 0) {
            hour += 24;
            mday--;
        }
        while (mday < 0) {
            long c = flip ? c1 : c2;
            long y = Temporal.year(c);
            mday += DAY_TAB[Temporal.leap(y) ? 1 : 0][Temporal.month(c) - 1];
            mon--;
        }
        while (mon < 0) {
            mon += 12;
            year--;
        }
        if (flip) {
            fsec = -fsec;
            sec = -sec;
            min = -min;
            hour = -hour;
            mday = -mday;
            mon = -mon;
            year = -year;
        }
        return out.set(year * 12 + mon, mday, ((hour * 60 + min) * 60 + sec) * 1_000_000 + fsec);
    }

    static final class Justify extends IntervalNode {
        final int which; // 0 days, 1 hours, 2 interval

        Justify(String name, Expression e) {
            super(name, e);
            this.which = name.equals("JUSTIFY_DAYS") ? 0 : name.equals("JUSTIFY_HOURS") ? 1 : 2;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            if (!read(args[0], ctx, v)) {
                return nul(ctx);
            }
            return emit(ctx, which == 0 ? Interval.justifyDays(v) : which == 1 ? Interval.justifyHours(v) : Interval.justifyInterval(v));
        }
    }

    static SqlException fieldOutOfRange() {
        return new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "date field value out of range");
    }

    /** make_date(y, m, d) and make_timestamp(y, m, d, h, mi, s). */
    static final class Make extends NaryNode {
        private final long[] f = new long[5];

        Make(String name, SqlType type, Expression[] args) {
            super(type, name, args);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            if (!Eval.longs(args, 0, 3, f, ctx)) {
                return 0;
            }
            long y = f[0];
            long m = f[1];
            long d = f[2];
            if (y == 0 || m < 1 || m > 12 || d < 1 || d > Temporal.monthDays(y < 0 ? y + 1 : y, (int) m)) {
                throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "date field value out of range: " + y + "-"
                        + (m < 10 ? "0" : "") + m + "-" + (d < 10 ? "0" : "") + d);
            }
            long days = Temporal.daysFromCivil(y < 0 ? y + 1 : y, (int) m, (int) d);
            if (type == SqlType.DATE) {
                return days;
            }
            if (!Eval.longs(args, 3, 5, f, ctx)) {
                return 0;
            }
            long h = f[3];
            long mi = f[4];
            double s = args[5].evalDouble(ctx);
            if (ctx.isNull) {
                return 0;
            }
            if (h < 0 || h > 24 || mi < 0 || mi > 59 || !(s >= 0 && s <= 60) || h == 24 && (mi != 0 || s != 0)) {
                throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "time field value out of range: " + h + ":" + mi + ":"
                        + TextForm.doubleText(s));
            }
            long us = (long) Math.rint(s * 1e6);
            return Temporal.checkTimestamp(days * MPD + (h * 60 + mi) * 60_000_000L + us);
        }
    }

    /** make_interval(years, months, weeks, days, hours, mins, secs), each defaulting to 0. */
    static final class MakeInterval extends IntervalNode {
        private final long[] f = new long[6];

        MakeInterval(Expression[] args) {
            super("MAKE_INTERVAL", args);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            java.util.Arrays.fill(f, 0);
            if (!Eval.longs(args, 0, Math.min(args.length, 6), f, ctx)) {
                return nul(ctx);
            }
            double secs = 0;
            if (args.length == 7) {
                secs = args[6].evalDouble(ctx);
                if (ctx.isNull) {
                    return nul(ctx);
                }
            }
            try {
                long months = Math.addExact(Math.multiplyExact(f[0], 12), f[1]);
                long days = Math.addExact(Math.multiplyExact(f[2], 7), f[3]);
                long us = Math.addExact(Math.addExact(Math.multiplyExact(f[4], 3_600_000_000L), Math.multiplyExact(f[5], 60_000_000L)),
                        (long) Math.rint(secs * 1e6));
                return emit(ctx, v.set(months, days, us));
            } catch (ArithmeticException e) {
                throw Interval.outOfRange();
            }
        }
    }

    static final class IsFinite extends NaryNode {
        IsFinite(Expression e) {
            super(SqlType.BOOLEAN, "ISFINITE", new Expression[] {e});
        }

        @Override
        public long evalLong(EvalContext ctx) {
            if (temporal(args[0].type())) { // infinity and -infinity are not finite
                long t = micros(args[0], ctx);
                return ctx.isNull ? 0 : Temporal.infiniteTimestamp(t) ? 0 : 1;
            }
            Eval.any(args[0], ctx);
            return 1;
        }
    }

    /** to_timestamp(double): seconds since the epoch. */
    static final class FromEpoch extends NaryNode {
        FromEpoch(Expression e) {
            super(SqlType.TIMESTAMP, "TO_TIMESTAMP", new Expression[] {e});
        }

        @Override
        public long evalLong(EvalContext ctx) {
            double s = args[0].evalDouble(ctx);
            if (ctx.isNull) {
                return 0;
            }
            if (Double.isNaN(s)) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "timestamp cannot be NaN");
            }
            double us = Math.rint(s * 1e6);
            if (!(us >= Temporal.MIN_TIMESTAMP && us < Temporal.END_TIMESTAMP)) {
                throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"" + TextForm.doubleText(s) + "\"");
            }
            return (long) us;
        }
    }

    // ---- the builder ------------------------------------------------------------------------

    private static void arity(String name, List<Expression> args, int min, int max) {
        if (args.size() < min || args.size() > max) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name.toLowerCase(Locale.ROOT) + " takes "
                    + (min == max ? min + "" : min + " to " + max) + " arguments, got " + args.size());
        }
    }

    private static Expression temporalArg(String name, List<Expression> args, int i) {
        Expression e = args.get(i);
        if (e.type() == SqlType.TEXT && e.isConstant()) {
            return Coercion.textConstantAs(e, SqlType.TIMESTAMP, "function " + name.toLowerCase(Locale.ROOT));
        }
        if (!temporal(e.type()) && e.type() != SqlType.NULL) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name.toLowerCase(Locale.ROOT) + " does not exist for type "
                    + Expressions.pgName(e.type()));
        }
        return e;
    }

    private static Expression intervalArg(String name, List<Expression> args, int i) {
        Expression e = args.get(i);
        if (e.type() == SqlType.TEXT && e.isConstant()) {
            String s = constantUnit(e);
            return s == null ? Literal.ofNull(SqlType.INTERVAL) : intervalConstant(s, Interval.NONE);
        }
        if (e.type() == SqlType.NULL) {
            return Literal.ofNull(SqlType.INTERVAL);
        }
        if (e.type() != SqlType.INTERVAL) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name.toLowerCase(Locale.ROOT) + "(" + Expressions.pgName(e.type())
                    + ") does not exist");
        }
        return e;
    }

    /** The node for a date/time function, or null when {@code name} is none of them. */
    static Expression build(String name, List<Expression> args) {
        if (!NAMES.contains(name) && !name.equals("NOW")) {
            return buildFor(name, args);
        }
        // a NUMERIC argument (a literal such as 1.5 is NUMERIC in the PostgreSQL dialect) is read as
        // the float8 these functions compute with, as PostgreSQL's implicit numeric -> float8 cast
        List<Expression> read = args;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).type() == SqlType.NUMERIC) {
                if (read == args) {
                    read = new java.util.ArrayList<>(args);
                }
                read.set(i, Expressions.numericAsDouble(args.get(i)));
            }
        }
        return buildFor(name, read);
    }

    private static Expression buildFor(String name, List<Expression> args) {
        switch (name) {
            case "NOW":
            case "CURRENT_TIMESTAMP":
            case "LOCALTIMESTAMP":
            case "TRANSACTION_TIMESTAMP":
            case "STATEMENT_TIMESTAMP":
                arity(name, args, 0, name.startsWith("CURRENT") || name.startsWith("LOCAL") ? 1 : 0);
                return new Now(NOW, name);
            case "CLOCK_TIMESTAMP":
                arity(name, args, 0, 0);
                return new Now(CLOCK, name);
            case "CURRENT_DATE":
                arity(name, args, 0, 0);
                return new Now(CURRENT_DATE, name);
            case "CURRENT_TIME":
            case "LOCALTIME":
                arity(name, args, 0, 1);
                return new Now(CURRENT_TIME, name);
            case "DATE_PART":
            case "EXTRACT": {
                arity(name, args, 2, 2);
                String unit = constantUnit(args.get(0));
                if (unit == null) {
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "function " + name.toLowerCase(Locale.ROOT)
                            + " needs a constant unit");
                }
                Expression x = args.get(1);
                if (x.type() == SqlType.TEXT && x.isConstant()) {
                    x = Coercion.textConstantAs(x, SqlType.TIMESTAMP, "function date_part");
                }
                SqlType t = x.type();
                if (!temporal(t) && t != SqlType.INTERVAL && t != SqlType.NULL) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function date_part(unknown, " + Expressions.pgName(t)
                            + ") does not exist");
                }
                int f = field(unit);
                if (f < 0) {
                    throw badUnit(unit, t == SqlType.NULL ? SqlType.TIMESTAMP : t);
                }
                if (t == SqlType.NULL) {
                    return Literal.ofNull(SqlType.DOUBLE);
                }
                if (name.equals("EXTRACT") && t == SqlType.DATE && (f <= F_HOUR || f == F_TIMEZONE || f == F_TIMEZONE_H || f == F_TIMEZONE_M)) {
                    throw unsupportedUnit(unit, t);
                }
                if (t == SqlType.INTERVAL && (f == F_WEEK || f == F_DOW || f == F_ISODOW || f == F_DOY || f == F_JULIAN || f == F_ISOYEAR
                        || f >= F_TIMEZONE)) {
                    throw unsupportedUnit(unit, t);
                }
                return new DatePart(name, f, args.get(0), x, name.equals("EXTRACT"));
            }
            case "DATE_TRUNC": {
                arity(name, args, 2, 2);
                String unit = constantUnit(args.get(0));
                if (unit == null) {
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "function date_trunc needs a constant unit");
                }
                Expression x = args.get(1);
                if (x.type() != SqlType.INTERVAL) {
                    x = temporalArg(name, args, 1);
                }
                if (x.type() == SqlType.DATE) {
                    x = Expressions.cast(x, SqlType.TIMESTAMP);
                }
                int f = field(unit);
                if (f < 0) {
                    throw badUnit(unit, x.type() == SqlType.NULL ? SqlType.TIMESTAMP : x.type());
                }
                if (f > F_MILLENNIUM && f != F_WEEK) {
                    throw unsupportedUnit(unit, x.type());
                }
                if (x.type() == SqlType.NULL) {
                    return Literal.ofNull(SqlType.TIMESTAMP);
                }
                return new DateTrunc(f, args.get(0), x);
            }
            case "TO_CHAR": {
                arity(name, args, 2, 2);
                Expression x = args.get(0);
                if (x.type() == SqlType.TEXT && x.isConstant()) {
                    x = Coercion.textConstantAs(x, SqlType.TIMESTAMP, "function to_char");
                }
                if (!temporal(x.type()) && x.type() != SqlType.INTERVAL && x.type() != SqlType.NULL) {
                    return null; // numbers: not this file's
                }
                return new DateFormat.ToChar(x, args.get(1));
            }
            case "TO_DATE":
                arity(name, args, 2, 2);
                return new DateFormat.Parse(SqlType.DATE, args.get(0), args.get(1));
            case "TO_TIMESTAMP":
                arity(name, args, 1, 2);
                if (args.size() == 1) {
                    Expression e = args.get(0);
                    if (!e.type().isNumeric() && e.type() != SqlType.NULL) {
                        throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function to_timestamp(" + Expressions.pgName(e.type()) + ") does not exist");
                    }
                    return new FromEpoch(e);
                }
                return new DateFormat.Parse(SqlType.TIMESTAMP, args.get(0), args.get(1));
            case "MAKE_DATE":
                arity(name, args, 3, 3);
                return new Make(name, SqlType.DATE, args.toArray(new Expression[0]));
            case "MAKE_TIMESTAMP":
                arity(name, args, 6, 6);
                return new Make(name, SqlType.TIMESTAMP, args.toArray(new Expression[0]));
            case "MAKE_INTERVAL":
                arity(name, args, 0, 7);
                return new MakeInterval(args.toArray(new Expression[0]));
            case "AGE":
                arity(name, args, 1, 2);
                return new Age(temporalArg(name, args, 0), args.size() == 2 ? temporalArg(name, args, 1) : null);
            case "JUSTIFY_DAYS":
            case "JUSTIFY_HOURS":
            case "JUSTIFY_INTERVAL":
                arity(name, args, 1, 1);
                return new Justify(name, intervalArg(name, args, 0));
            case "ISFINITE":
                arity(name, args, 1, 1);
                return new IsFinite(args.get(0));
            default:
                return null;
        }
    }
}
