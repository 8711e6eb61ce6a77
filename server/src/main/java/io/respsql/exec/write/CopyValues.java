package io.respsql.exec.write;

import io.respsql.expr.NumberText;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;

import java.nio.charset.StandardCharsets;

/**
 * A COPY field into a column's type, as PostgreSQL's input functions read it: integers (blanks
 * around them allowed) without a String, the other types through the quoted-literal rules
 * ({@link ValueRules}), which are those of {@code '...'} into the column. Errors are PostgreSQL's
 * ({@code invalid input syntax for type integer: "x"}, 22P02; out of range, 22003).
 */
final class CopyValues {
    private CopyValues() {
    }

    /** For NUMERIC fields (one per thread: COPY runs on the event loop; no allocation per field). */
    private static final ThreadLocal<io.respsql.expr.EvalContext> NUMERIC_CTX =
            ThreadLocal.withInitial(() -> new io.respsql.expr.EvalContext(1));

    static void convert(Column c, byte[] b, int off, int len, Cell out) {
        ColumnType t = c.type();
        if (t.isDecimal()) {
            // as an INSERT stores it: rounded to the column's scale, 22003 past its precision
            io.respsql.expr.EvalContext ctx = NUMERIC_CTX.get();
            long u = io.respsql.expr.Numeric.parseForColumn(ctx, b, off, len, c.typeModifier());
            if (t == ColumnType.NUMERIC) {
                out.setLong(ctx.numBig == io.respsql.expr.Numeric.NAN ? io.respsql.expr.Numeric.STORED_NAN : u);
            } else {
                out.setText(io.respsql.expr.Numeric.textBytes(u, ctx));
            }
            return;
        }
        if (t == ColumnType.INT || t == ColumnType.BIGINT) {
            integer(c, b, off, len, out);
            return;
        }
        String s = new String(b, off, len, StandardCharsets.UTF_8);
        if (t == ColumnType.FLOAT && s.isBlank()) {
            throw invalid(c, s);
        }
        try {
            ValueRules.quoted(c, s, "'" + s + "'", out);
        } catch (SqlException e) {
            if (SqlState.NUMERIC_VALUE_OUT_OF_RANGE.equals(e.sqlState())) {
                throw new SqlException(e.sqlState(), "value \"" + s + "\" is out of range for type " + typeName(t));
            }
            throw invalid(c, s);
        } catch (RuntimeException e) {
            throw invalid(c, s);
        }
    }

    private static void integer(Column c, byte[] b, int off, int len, Cell out) {
        int end = off + len;
        int i = NumberText.skipSpaces(b, off, end);
        end = NumberText.trimSpaces(b, i, end);
        boolean negative = false;
        if (i < end && (b[i] == '-' || b[i] == '+')) {
            negative = b[i] == '-';
            i++;
        }
        if (i == end) {
            throw invalid(c, new String(b, off, len, StandardCharsets.UTF_8));
        }
        long v = 0;
        boolean overflow = false;
        for (; i < end; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw invalid(c, new String(b, off, len, StandardCharsets.UTF_8));
            }
            if (v < -922337203685477580L || v == -922337203685477580L && d > (negative ? 8 : 7)) {
                overflow = true;
            }
            v = v * 10 - d; // accumulated negative: -2^63 fits
        }
        if (!negative) {
            v = -v;
        }
        if (overflow || c.type() == ColumnType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \""
                    + new String(b, off, len, StandardCharsets.UTF_8) + "\" is out of range for type " + typeName(c.type()));
        }
        out.setLong(v);
    }

    private static SqlException invalid(Column c, String s) {
        return new SqlException(SqlState.INVALID_TEXT_REPRESENTATION,
                "invalid input syntax for type " + typeName(c.type()) + ": \"" + s + "\"");
    }

    /** PostgreSQL's name of the type, as its errors say it. */
    static String typeName(ColumnType t) {
        return switch (t) {
            case INT -> "integer";
            case BIGINT -> "bigint";
            case FLOAT -> "double precision";
            case BOOLEAN -> "boolean";
            case DATE -> "date";
            case TIMESTAMP -> "timestamp";
            default -> t.name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
