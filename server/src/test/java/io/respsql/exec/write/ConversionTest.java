package io.respsql.exec.write;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Interval;
import io.respsql.expr.ParamValues;
import io.respsql.expr.Parameter;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.Table;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A value's conversion into its column, chosen once for the column's type and the value's type (as
 * a plan binds it) and then used for value after value, NULL included, as a run uses it: the
 * values, and the errors with their messages and SQLSTATEs, are ValueRules' rules.
 */
class ConversionTest {
    private final Table t = new Table("t", List.of("i", "b", "f", "s", "o", "v"),
            List.of(ColumnType.INT, ColumnType.BIGINT, ColumnType.FLOAT, ColumnType.TEXT, ColumnType.BOOLEAN,
                    ColumnType.INTERVAL), 0);
    private final ParamValues params = new ParamValues(1);
    private final EvalContext ctx = new EvalContext(1);
    private final Cell out = new Cell();

    ConversionTest() {
        ctx.params = params;
    }

    private Column col(String name) {
        return t.column(name);
    }

    /** Parameter 0's next value, then the conversion run with it. */
    private Cell run(Conversion c, Parameter p, Runnable set) {
        params.reset(1);
        set.run();
        c.convert(p, ctx, null, out);
        return out;
    }

    private SqlException refused(Conversion c, Parameter p, Runnable set) {
        return assertThrows(SqlException.class, () -> run(c, p, set));
    }

    private static String text(Cell c) {
        return new String(c.text, c.textOff, c.textLen, StandardCharsets.UTF_8);
    }

    @Test
    void integersIntoAnIntColumnAreCheckedAgainstItsRangeRunAfterRun() {
        Parameter p = new Parameter(0, SqlType.BIGINT);
        Conversion c = Conversion.of(col("i"), p);
        assertEquals(7, run(c, p, () -> params.setLong(0, 7)).l);
        SqlException e = refused(c, p, () -> params.setLong(0, 2_147_483_648L));
        assertEquals("value 2147483648 is out of range for INT column 'i'", e.getMessage());
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, e.sqlState());
        assertTrue(run(c, p, () -> params.setNull(0)).isNull);
        assertEquals(-2_147_483_648L, run(c, p, () -> params.setLong(0, -2_147_483_648L)).l);
        // the same conversion into a BIGINT column takes what INT refused
        Conversion wide = Conversion.of(col("b"), p);
        assertEquals(2_147_483_648L, run(wide, p, () -> params.setLong(0, 2_147_483_648L)).l);
    }

    @Test
    void doublesGoIntoIntegerColumnsOnlyWhenWhole() {
        Parameter p = new Parameter(0, SqlType.DOUBLE);
        Conversion c = Conversion.of(col("i"), p);
        assertEquals(3, run(c, p, () -> params.setDouble(0, 3.0)).l);
        SqlException e = refused(c, p, () -> params.setDouble(0, 2.5));
        assertEquals("value 2.5 is not a whole number for INT column 'i'", e.getMessage());
        assertEquals(SqlState.INVALID_TEXT_REPRESENTATION, e.sqlState());
        assertEquals(0.1, run(Conversion.of(col("f"), p), p, () -> params.setDouble(0, 0.1)).d);
        assertEquals("0.1", text(run(Conversion.of(col("s"), p), p, () -> params.setDouble(0, 0.1))));
        assertEquals("value 1.5 is not a valid BOOLEAN for column 'o'",
                refused(Conversion.of(col("o"), p), p, () -> params.setDouble(0, 1.5)).getMessage());
    }

    @Test
    void integersWidenToFloatAndPrintIntoText() {
        Parameter p = new Parameter(0, SqlType.BIGINT);
        assertEquals(5.0, run(Conversion.of(col("f"), p), p, () -> params.setLong(0, 5)).d);
        assertEquals("42", text(run(Conversion.of(col("s"), p), p, () -> params.setLong(0, 42))));
        Conversion bool = Conversion.of(col("o"), p);
        assertEquals(1, run(bool, p, () -> params.setLong(0, 1)).l);
        assertEquals("value 2 is not a valid BOOLEAN for column 'o'", refused(bool, p, () -> params.setLong(0, 2)).getMessage());
    }

    @Test
    void textIsReadAsTheColumnsTypeAndNamedAsWrittenWhenItIsNot() {
        Parameter p = new Parameter(0, SqlType.TEXT);
        Conversion c = Conversion.of(col("i"), p);
        assertEquals(12, run(c, p, () -> params.setText(0, "12".getBytes(StandardCharsets.UTF_8))).l);
        SqlException e = refused(c, p, () -> params.setText(0, "x".getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("'x'"), e.getMessage());
        Conversion keep = Conversion.of(col("s"), p);
        assertEquals("héllo", text(run(keep, p, () -> params.setText(0, "héllo".getBytes(StandardCharsets.UTF_8)))));
        assertTrue(run(keep, p, () -> params.setNull(0)).isNull);
    }

    @Test
    void intervalsGoIntoIntervalAndTextColumnsOnly() {
        Parameter p = new Parameter(0, SqlType.INTERVAL);
        byte[] day = Interval.encode(0, 1, 0);
        Cell v = run(Conversion.of(col("v"), p), p, () -> params.setText(0, day));
        assertEquals(day.length, v.textLen);
        assertEquals(Interval.toString(day, 0), text(run(Conversion.of(col("s"), p), p, () -> params.setText(0, day))));
        SqlException e = refused(Conversion.of(col("i"), p), p, () -> params.setText(0, day));
        assertEquals("value '" + Interval.toString(day, 0) + "' is not a valid INT for column 'i'", e.getMessage());
    }

    @Test
    void aValueIsNamedAsItWasWrittenWhenShown() {
        Parameter p = new Parameter(0, SqlType.BIGINT);
        params.reset(1);
        params.setLong(0, 9_999_999_999L);
        SqlException e = assertThrows(SqlException.class,
                () -> Conversion.of(col("i"), p).convert(p, ctx, "9999999999 + 0", out));
        assertEquals("value 9999999999 + 0 is out of range for INT column 'i'", e.getMessage());
    }
}
