package io.respsql.exec.write;

import io.respsql.sql.SqlException;
import io.respsql.sql.tree.Expr;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.Table;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The exact-or-error conversion of INSERT/UPDATE values (the 2010 rules, plus NULL and the SQL types). */
class ValueRulesTest {
    private final Table t = new Table("t", List.of("i", "b", "f", "s"),
            List.of(ColumnType.INT, ColumnType.BIGINT, ColumnType.FLOAT, ColumnType.TEXT), 0);
    private final Column i = t.column("i");
    private final Column b = t.column("b");
    private final Column f = t.column("f");
    private final Column s = t.column("s");
    private final Cell cell = new Cell();

    /** A literal spanning all of {@code sql}. */
    private static Expr lit(Expr.LiteralKind kind, String text, String sql) {
        return new Expr.Literal(kind, text, 0, sql.length());
    }

    private Cell convert(Column c, Expr e, String sql) {
        assertTrue(ValueRules.literal(c, e, sql, false, cell));
        return cell;
    }

    private String error(Column c, Expr e, String sql) {
        return assertThrows(SqlException.class, () -> ValueRules.literal(c, e, sql, false, cell)).getMessage();
    }

    @Test
    void integersKeepLeadingZerosInDecimalAndAreRangeChecked() {
        assertEquals(1, convert(i, lit(Expr.LiteralKind.INTEGER, "000000000001", "000000000001"), "000000000001").l);
        Expr neg = new Expr.Unary(Expr.UnaryOp.MINUS, new Expr.Literal(Expr.LiteralKind.INTEGER, "5", 1, 2), 0, 2);
        assertEquals(-5, convert(i, neg, "-5").l);
        assertEquals("value 2147483648 is out of range for INT column 'i'",
                error(i, lit(Expr.LiteralKind.INTEGER, "2147483648", "2147483648"), "2147483648"));
        assertEquals(2147483648L, convert(b, lit(Expr.LiteralKind.INTEGER, "2147483648", "2147483648"), "2147483648").l);
        Expr min = new Expr.Unary(Expr.UnaryOp.MINUS, new Expr.Literal(Expr.LiteralKind.INTEGER, "9223372036854775808", 1, 20), 0, 20);
        assertEquals(Long.MIN_VALUE, convert(b, min, "-9223372036854775808").l);
        Expr minInt = new Expr.Unary(Expr.UnaryOp.MINUS, new Expr.Literal(Expr.LiteralKind.INTEGER, "2147483649", 1, 11), 0, 11);
        assertEquals("value -2147483649 is out of range for INT column 'i'", error(i, minInt, "-2147483649"));
        assertEquals("value 99999999999999999999 is out of range for BIGINT column 'b'",
                error(b, lit(Expr.LiteralKind.INTEGER, "99999999999999999999", "99999999999999999999"), "99999999999999999999"));
    }

    @Test
    void aFloatGoesIntoAnIntegerColumnOnlyWhenWhole() {
        assertEquals(4, convert(i, lit(Expr.LiteralKind.DECIMAL, "4.0", "4.0"), "4.0").l);
        assertEquals("value 1.5 is not a whole number for INT column 'i'", error(i, lit(Expr.LiteralKind.DECIMAL, "1.5", "1.5"), "1.5"));
        assertEquals(7.0, convert(f, lit(Expr.LiteralKind.INTEGER, "7", "7"), "7").d);
        assertEquals("value 1e999 is out of range for FLOAT column 'f'", error(f, lit(Expr.LiteralKind.DECIMAL, "1e999", "1e999"), "1e999"));
    }

    @Test
    void quotedNumbersAreAcceptedForNumberColumnsAndOtherTextIsNot() {
        assertEquals(5, convert(i, lit(Expr.LiteralKind.STRING, "5", "'5'"), "'5'").l);
        assertEquals(2.5, convert(f, lit(Expr.LiteralKind.STRING, "2.5", "'2.5'"), "'2.5'").d);
        assertEquals("value 'abc' is not a valid INT for column 'i'", error(i, lit(Expr.LiteralKind.STRING, "abc", "'abc'"), "'abc'"));
        // PostgreSQL's float8 words are FLOAT values (issue 22); other words are not
        assertTrue(Double.isNaN(convert(f, lit(Expr.LiteralKind.STRING, "NaN", "'NaN'"), "'NaN'").d));
        assertEquals(Double.NEGATIVE_INFINITY, convert(f, lit(Expr.LiteralKind.STRING, "-inf", "'-inf'"), "'-inf'").d);
        assertEquals("value 'NaNx' is not a valid FLOAT for column 'f'", error(f, lit(Expr.LiteralKind.STRING, "NaNx", "'NaNx'"), "'NaNx'"));
        assertEquals("\"1e-999\" is out of range for type double precision", error(f, lit(Expr.LiteralKind.STRING, "1e-999", "'1e-999'"), "'1e-999'"));
        assertEquals("value abc is not a valid INT for column 'i'", error(i, new Expr.Column(null, "abc", 0, 3), "abc"));
    }

    @Test
    void unquotedTextIsStoredVerbatimForTextColumns() {
        String sql = "foo-bar";
        Expr e = new Expr.Binary(Expr.BinaryOp.SUB, new Expr.Column(null, "foo", 0, 3), new Expr.Column(null, "bar", 4, 7), 0, 7);
        assertEquals("foo-bar", new String(convert(s, e, sql).text, StandardCharsets.UTF_8));
        assertEquals("hello world", new String(convert(s, new Expr.Raw("hello world", 0, 11), "hello world").text, StandardCharsets.UTF_8));
        assertEquals("007", new String(convert(s, lit(Expr.LiteralKind.INTEGER, "007", "007"), "007").text, StandardCharsets.UTF_8));
        assertEquals("it's", new String(convert(s, lit(Expr.LiteralKind.STRING, "it's", "'it''s'"), "'it''s'").text, StandardCharsets.UTF_8));
    }

    @Test
    void nullIsNullForEveryType() {
        for (Column c : List.of(i, b, f, s)) {
            assertTrue(convert(c, lit(Expr.LiteralKind.NULL, "NULL", "NULL"), "NULL").isNull);
        }
    }

    @Test
    void expressionsThatNeedBindingAreLeftToTheBinder() {
        String sql = "1+2";
        Expr e = new Expr.Binary(Expr.BinaryOp.ADD, new Expr.Literal(Expr.LiteralKind.INTEGER, "1", 0, 1),
                new Expr.Literal(Expr.LiteralKind.INTEGER, "2", 2, 3), 0, 3);
        assertFalse(ValueRules.literal(i, e, sql, false, cell));
        // UPDATE (row scope): a name may be a column, so it is bound, not read as text.
        assertFalse(ValueRules.literal(s, new Expr.Column(null, "name", 0, 4), "name", true, cell));
    }

    @Test
    void datesAndTimestampsReadTheirSqlText() {
        assertEquals(19875L, Temporals.date("2024-06-01"));
        assertEquals(19875L * 86_400_000_000L + 3_600_000_000L + 500_000L, Temporals.timestamp("2024-06-01 01:00:00.5"));
        assertEquals("2024-06-01 01:00:00.500000", Temporals.timestampText(Temporals.timestamp("2024-06-01 01:00:00.5")));
        assertEquals(null, Temporals.date("2024-13-01"));
    }

    /** The plain forms read without java.time's parser give exactly java.time's answers, refusals too. */
    @org.junit.jupiter.api.Test
    void fastDateAndTimestampAgreeWithJavaTime() {
        java.util.Random r = new java.util.Random(3);
        String[] fixed = {"2024-02-29", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "0000-01-01", "9999-12-31",
            "2024-06-01 24:00:00", "2024-06-01 23:59:60", "2024-06-01T12:30:59", "2024-06-01 12:60:00", "2024-06-0a",
            "2024-06-01 1:00:000", "+2024-06-01", "2024-06-01 12:30:00"};
        java.util.List<String> texts = new java.util.ArrayList<>(java.util.List.of(fixed));
        for (int i = 0; i < 20000; i++) {
            texts.add(String.format("%04d-%02d-%02d", r.nextInt(10000), r.nextInt(14), r.nextInt(33)));
            texts.add(String.format("%04d-%02d-%02d%c%02d:%02d:%02d", 1900 + r.nextInt(200), r.nextInt(14), r.nextInt(33),
                    r.nextBoolean() ? ' ' : 'T', r.nextInt(26), r.nextInt(62), r.nextInt(62)));
        }
        for (String t : texts) {
            Long date;
            try {
                date = java.time.LocalDate.parse(t).toEpochDay();
            } catch (java.time.format.DateTimeParseException e) {
                date = null;
            }
            assertEquals(date, Temporals.date(t), t);
            Long ts;
            try {
                ts = t.length() == 10 ? java.time.LocalDate.parse(t).toEpochDay() * 86_400_000_000L
                        : java.time.LocalDateTime.parse(t.replace(' ', 'T')).toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L;
            } catch (java.time.format.DateTimeParseException e) {
                ts = null;
            }
            assertEquals(ts, Temporals.timestamp(t), t);
        }
    }
}
