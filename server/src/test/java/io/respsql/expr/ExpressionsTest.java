package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.tree.Expr.BinaryOp;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static io.respsql.expr.ExprFixture.bool;
import static io.respsql.expr.ExprFixture.d;
import static io.respsql.expr.ExprFixture.i;
import static io.respsql.expr.ExprFixture.nul;
import static io.respsql.expr.ExprFixture.txt;
import static io.respsql.sql.tree.Expr.BinaryOp.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExpressionsTest {
    ExprFixture f;
    int r0;
    int r1;

    @BeforeEach
    void setUp() {
        f = new ExprFixture();
        r0 = f.row(7, 2.5, "hello");
        r1 = f.row(-7, 0.5, "");
        f.at(r0);
    }

    Object ev(Expression e) {
        return f.eval(e);
    }

    static Expression bin(BinaryOp op, Expression l, Expression r) {
        return Expressions.binary(op, l, r);
    }

    @Test
    void andOrNotTruthTables() {
        Boolean[] v = {true, false, null};
        for (Boolean x : v) {
            for (Boolean y : v) {
                Boolean and = Boolean.FALSE.equals(x) || Boolean.FALSE.equals(y) ? Boolean.FALSE
                        : x == null || y == null ? null : Boolean.TRUE;
                Boolean or = Boolean.TRUE.equals(x) || Boolean.TRUE.equals(y) ? Boolean.TRUE
                        : x == null || y == null ? null : Boolean.FALSE;
                assertEquals(and, ev(bin(AND, bool(x), bool(y))), x + " AND " + y);
                assertEquals(or, ev(bin(OR, bool(x), bool(y))), x + " OR " + y);
                // the same with a non-constant operand (no folding): a > 0 is TRUE on row 0
                Expression col = bin(GT, f.a, i(0));
                Expression colX = x == null ? bin(EQ, f.a, nul()) : x ? col : Expressions.not(col);
                assertEquals(and, ev(bin(AND, colX, bool(y))), "col " + x + " AND " + y);
                assertEquals(or, ev(bin(OR, colX, bool(y))), "col " + x + " OR " + y);
            }
            assertEquals(x == null ? null : !x, ev(Expressions.not(bool(x))));
        }
    }

    @Test
    void comparisonsWithNullAreNull() {
        assertNull(ev(bin(EQ, f.a, nul())));
        assertNull(ev(bin(LT, nul(), f.b)));
        assertNull(ev(bin(NE, f.s, nul(SqlType.TEXT))));
        assertEquals(true, ev(Expressions.isNull(bin(EQ, f.a, nul()), false)));
        assertEquals(false, ev(Expressions.isNull(f.a, false)));
        assertEquals(true, ev(Expressions.isNull(f.s, true)));
    }

    @Test
    void isDistinctFrom() {
        assertEquals(false, ev(Expressions.isDistinct(nul(), nul(), false)));
        assertEquals(true, ev(Expressions.isDistinct(f.a, nul(), false)));
        assertEquals(false, ev(Expressions.isDistinct(f.a, i(7), false)));
        assertEquals(true, ev(Expressions.isDistinct(f.a, i(7), true)));
        assertEquals(true, ev(Expressions.isDistinct(f.s, txt("hello"), true)));
        assertEquals(false, ev(Expressions.isDistinct(f.b, nul(), true)));
    }

    @Test
    void integerDivisionAndModuloSigns() {
        assertEquals(2L, ev(bin(DIV, i(7), i(3))));
        assertEquals(-2L, ev(bin(DIV, i(-7), i(3))));
        assertEquals(-2L, ev(bin(DIV, i(7), i(-3))));
        assertEquals(1L, ev(bin(MOD, i(7), i(3))));
        assertEquals(-1L, ev(bin(MOD, i(-7), i(3))));
        assertEquals(1L, ev(bin(MOD, i(7), i(-3))));
        // with a column (no folding)
        f.at(r1);
        assertEquals(-2L, ev(bin(DIV, f.a, i(3))));
        assertEquals(-1L, ev(bin(MOD, f.a, i(3))));
        assertEquals(0L, ev(bin(MOD, i(Long.MIN_VALUE), i(-1))));
    }

    @Test
    void divisionAndModuloByZeroAreNull() {
        assertNull(ev(bin(DIV, f.a, i(0))));
        assertNull(ev(bin(MOD, f.a, i(0))));
        assertNull(ev(bin(DIV, f.b, d(0))));
        assertNull(ev(bin(DIV, f.a, d(0.0))));
        assertNull(ev(bin(DIV, i(1), i(0))));
    }

    @Test
    void overflowIsAnErrorAtRunTime() {
        Expression big = bin(ADD, i(Long.MAX_VALUE), i(1)); // constant: kept, not folded
        SqlException e = assertThrows(SqlException.class, () -> ev(big));
        assertEquals("integer overflow in 9223372036854775807 + 1", e.getMessage());
        assertThrows(SqlException.class, () -> ev(bin(MUL, f.a, i(Long.MAX_VALUE / 2))));
        assertThrows(SqlException.class, () -> ev(bin(DIV, i(Long.MIN_VALUE), bin(SUB, f.a, i(8)))));
        assertThrows(SqlException.class, () -> ev(Expressions.negate(bin(SUB, i(Long.MIN_VALUE), bin(SUB, f.a, i(7))))));
        assertThrows(SqlException.class, () -> ev(Expressions.function("ABS", List.of(bin(ADD, i(Long.MIN_VALUE), bin(SUB, f.a, i(7)))))));
        assertEquals(Long.MAX_VALUE, ev(bin(SUB, i(Long.MAX_VALUE), i(0))));
    }

    @Test
    void mixedArithmeticIsDouble() {
        Expression e = bin(ADD, f.a, f.b);
        assertEquals(SqlType.DOUBLE, e.type());
        assertEquals(9.5, ev(e));
        assertEquals(SqlType.BIGINT, bin(MUL, f.a, i(2)).type());
        assertEquals(14L, ev(bin(MUL, f.a, i(2))));
        assertEquals(-7L, ev(Expressions.negate(f.a)));
        assertEquals(-2.5, ev(Expressions.negate(f.b)));
        assertEquals(1.0, ev(bin(MOD, d(5.5), i(2)))); // SQLite: operands as integers
        assertThrows(SqlException.class, () -> bin(ADD, f.s, f.a));
    }

    @Test
    void comparisonsAcrossTypes() {
        assertEquals(true, ev(bin(GT, f.a, f.b)));
        assertEquals(true, ev(bin(EQ, f.a, d(7.0))));
        assertEquals(true, ev(bin(LT, f.s, txt("help"))));
        assertEquals(true, ev(bin(LT, txt("hell"), f.s)));
        assertEquals(false, ev(bin(LT, f.s, txt("hell"))));
        // a TEXT constant that is a number compares numerically
        assertEquals(true, ev(bin(EQ, f.a, txt("7"))));
        assertEquals(true, ev(bin(LT, f.a, txt(" 7.5 "))));
        SqlException e = assertThrows(SqlException.class, () -> bin(EQ, f.a, txt("abc")));
        assertTrue(e.getMessage().contains("INT") && e.getMessage().contains("TEXT"), e.getMessage());
        assertThrows(SqlException.class, () -> bin(EQ, f.a, f.s));
        // BOOLEAN as 0/1
        assertEquals(true, ev(bin(EQ, bin(GT, f.a, i(0)), i(1))));
        // empty text (the column stores no bytes for it)
        f.at(r1);
        assertEquals(true, ev(bin(EQ, f.s, txt(""))));
        assertEquals(true, ev(bin(LT, f.s, txt("a"))));
    }

    @Test
    void datesAndTimestamps() {
        Expression date = Expressions.cast(txt("2024-03-01"), SqlType.DATE);
        assertInstanceOf(Literal.class, date);
        assertEquals(Temporal.daysFromCivil(2024, 3, 1), ev(date));
        Expression ts = Expressions.cast(txt("2024-03-01 00:00:00"), SqlType.TIMESTAMP);
        assertEquals(true, ev(bin(EQ, date, ts)));
        assertEquals(true, ev(bin(LT, date, Expressions.cast(txt("2024-03-01 00:00:00.000001"), SqlType.TIMESTAMP))));
        // DATE vs TEXT constant: the text read as a date / timestamp
        assertEquals(true, ev(bin(EQ, date, txt("2024-03-01"))));
        assertEquals(true, ev(bin(GT, date, txt("2024-02-29 23:59:59"))));
        assertThrows(SqlException.class, () -> bin(EQ, date, txt("2024-02-30")));
        assertEquals("2024-03-01", ev(Expressions.cast(date, SqlType.TEXT)));
        assertEquals("2024-03-02", ev(Expressions.cast(bin(ADD, date, i(1)), SqlType.TEXT)));
        Expression noon = Expressions.cast(txt("2024-03-01T12:34:56.500"), SqlType.TIMESTAMP);
        assertEquals("2024-03-01 12:34:56.5", ev(Expressions.cast(noon, SqlType.TEXT)));
        assertEquals("1969-12-31 23:59:59.999999",
                ev(Expressions.cast(Expressions.constLong(SqlType.TIMESTAMP, -1), SqlType.TEXT)));
        Expression tenAm = Expressions.cast(txt("2024-03-01 10:00"), SqlType.TIMESTAMP);
        assertEquals("2024-03-01", ev(Expressions.cast(Expressions.cast(tenAm, SqlType.DATE), SqlType.TEXT)));
        assertEquals(true, ev(bin(GT, tenAm, date)));
        SqlException e = assertThrows(SqlException.class, () -> ev(Expressions.cast(txt("2024-13-01"), SqlType.DATE)));
        assertEquals("invalid DATE value '2024-13-01'", e.getMessage());
        assertEquals(-1L, ev(bin(SUB, date, Expressions.cast(txt("2024-03-02"), SqlType.DATE))));
    }

    @Test
    void betweenWithThreeValuedLogic() {
        assertEquals(true, ev(Expressions.between(f.a, i(1), i(7), false)));
        assertEquals(false, ev(Expressions.between(f.a, i(8), i(9), false)));
        assertEquals(false, ev(Expressions.between(f.a, i(8), nul(), false))); // x >= 8 is FALSE
        assertNull(ev(Expressions.between(f.a, i(1), nul(), false)));
        assertNull(ev(Expressions.between(f.a, i(1), nul(), true)));
        assertEquals(true, ev(Expressions.between(f.a, i(8), nul(), true)));
        assertEquals(true, ev(Expressions.between(f.s, txt("a"), txt("i"), false)));
        assertEquals(true, ev(Expressions.between(f.b, i(2), d(2.5), false)));
    }

    @Test
    void inListWithNulls() {
        assertEquals(true, ev(Expressions.inList(f.a, List.of(i(1), i(7)), false)));
        assertEquals(false, ev(Expressions.inList(f.a, List.of(i(1), i(2)), false)));
        assertNull(ev(Expressions.inList(f.a, List.of(i(1), nul()), false)));
        assertEquals(true, ev(Expressions.inList(f.a, List.of(nul(), i(7)), false)));
        assertNull(ev(Expressions.inList(f.a, List.of(i(1), nul()), true)));
        assertEquals(false, ev(Expressions.inList(f.a, List.of(i(7), nul()), true)));
        assertEquals(true, ev(Expressions.inList(f.a, List.of(i(1), i(2)), true)));
        assertNull(ev(Expressions.inList(nul(SqlType.INT), List.of(i(1), i(2)), false)));
        assertNull(ev(Expressions.inList(Expressions.function("NULLIF", List.of(f.a, i(7))), List.of(i(1), i(7)), false)));
        // doubles, texts, and a non-constant list
        assertEquals(true, ev(Expressions.inList(f.b, List.of(i(1), d(2.5)), false)));
        assertEquals(true, ev(Expressions.inList(f.a, List.of(d(7.0)), false)));
        assertEquals(false, ev(Expressions.inList(f.a, List.of(d(7.5)), false)));
        assertEquals(true, ev(Expressions.inList(f.s, List.of(txt("x"), txt("hello")), false)));
        assertEquals(false, ev(Expressions.inList(f.s, List.of(txt("x"), txt("hell")), false)));
        assertEquals(true, ev(Expressions.inList(i(7), List.of(i(1), f.a), false)));
        assertNull(ev(Expressions.inList(i(6), List.of(nul(), f.a), false)));
        assertEquals(true, ev(Expressions.inList(i(6), List.of(i(6), f.a, nul()), false)));
        assertEquals(false, ev(Expressions.inList(i(6), List.of(i(5), f.a), false)));
    }

    @Test
    void like() {
        assertEquals(true, ev(Expressions.like(f.s, txt("h%"), null, false)));
        assertEquals(true, ev(Expressions.like(f.s, txt("H_LLO"), null, false))); // ASCII case-insensitive
        assertEquals(false, ev(Expressions.like(f.s, txt("h_llo_"), null, false)));
        assertEquals(true, ev(Expressions.like(f.s, txt("%l%o"), null, false)));
        assertEquals(true, ev(Expressions.like(f.s, txt("%"), null, false)));
        assertEquals(false, ev(Expressions.like(f.s, txt("%x%"), null, false)));
        assertEquals(true, ev(Expressions.like(f.s, txt("%x%"), null, true)));
        assertNull(ev(Expressions.like(f.s, nul(SqlType.TEXT), null, false)));
        assertEquals(true, ev(Expressions.like(txt("ça coûte"), txt("_a co_te"), null, false))); // _ is one character
        assertEquals(false, ev(Expressions.like(txt("Ça"), txt("ça"), null, false))); // non-ASCII exact
        assertEquals(true, ev(Expressions.like(txt("50%"), txt("50!%"), txt("!"), false)));
        assertEquals(false, ev(Expressions.like(txt("500"), txt("50!%"), txt("!"), false)));
        assertEquals(true, ev(Expressions.like(txt("a_b"), txt("a\\_b"), txt("\\"), false)));
        assertEquals(false, ev(Expressions.like(txt("axb"), txt("a\\_b"), txt("\\"), false)));
        assertEquals(true, ev(Expressions.like(txt("mississippi"), txt("%iss%pi"), null, false)));
        assertEquals(true, ev(Expressions.like(f.a, txt("7"), null, false)));
        // a pattern from a column, compiled per row
        assertEquals(true, ev(Expressions.like(txt("HELLO"), f.s, null, false)));
        assertThrows(SqlException.class, () -> Expressions.like(f.s, txt("x"), txt("ab"), false));
    }

    @Test
    void caseExpressions() {
        Expression searched = Expressions.caseWhen(null, List.of(bin(GT, f.a, i(5)), bin(GT, f.a, i(0))),
                List.of(txt("big"), txt("small")), txt("negative"));
        assertEquals("big", ev(searched));
        f.at(r1);
        assertEquals("negative", ev(searched));
        Expression simple = Expressions.caseWhen(f.a, List.of(i(7), i(-7)), List.of(i(1), d(2.5)), null);
        assertEquals(SqlType.DOUBLE, simple.type());
        assertEquals(2.5, ev(simple));
        f.at(r0);
        assertEquals(1.0, ev(simple));
        Expression noElse = Expressions.caseWhen(f.a, List.of(i(1)), List.of(i(1)), null);
        assertNull(ev(noElse));
        Expression nullWhen = Expressions.caseWhen(null, List.of(bin(EQ, f.a, nul())), List.of(i(1)), i(2));
        assertEquals(2L, ev(nullWhen));
        assertThrows(SqlException.class, () -> Expressions.caseWhen(null, List.of(bool(true)), List.of(txt("x")), i(1)));
    }

    @Test
    void coalesceIfnullNullif() {
        assertEquals(7L, ev(Expressions.function("COALESCE", List.of(nul(), f.a, i(3)))));
        assertEquals(3L, ev(Expressions.function("COALESCE", List.of(nul(), Expressions.function("NULLIF", List.of(f.a, i(7))), i(3)))));
        assertEquals(2.5, ev(Expressions.function("COALESCE", List.of(nul(SqlType.INT), f.b))));
        assertEquals(SqlType.DOUBLE, Expressions.function("IFNULL", List.of(f.a, f.b)).type());
        assertEquals(7.0, ev(Expressions.function("IFNULL", List.of(f.a, f.b))));
        assertNull(ev(Expressions.function("COALESCE", List.of(nul(), nul(SqlType.TEXT)))));
        assertEquals("hello", ev(Expressions.function("IFNULL", List.of(f.s, txt("x")))));
        assertNull(ev(Expressions.function("NULLIF", List.of(f.a, i(7)))));
        assertEquals(7L, ev(Expressions.function("NULLIF", List.of(f.a, i(8)))));
        assertEquals(7L, ev(Expressions.function("NULLIF", List.of(f.a, nul()))));
        assertNull(ev(Expressions.function("NULLIF", List.of(f.s, txt("hello")))));
        assertThrows(SqlException.class, () -> Expressions.function("COALESCE", List.of(f.a, f.s)));
        SqlException e = assertThrows(SqlException.class, () -> Expressions.function("IFNULL", List.of(f.a)));
        assertEquals("function 'IFNULL' takes 2 arguments, got 1", e.getMessage());
    }

    @Test
    void casts() {
        assertEquals(2L, ev(Expressions.cast(f.b, SqlType.BIGINT)));
        assertEquals(-2L, ev(Expressions.cast(d(-2.9), SqlType.BIGINT)));
        assertEquals(12L, ev(Expressions.cast(txt("12abc"), SqlType.BIGINT)));
        assertEquals(0L, ev(Expressions.cast(txt("abc"), SqlType.BIGINT)));
        assertEquals(-3L, ev(Expressions.cast(txt("  -3.9"), SqlType.BIGINT)));
        assertEquals(Long.MAX_VALUE, ev(Expressions.cast(txt("99999999999999999999"), SqlType.BIGINT)));
        assertEquals(1.5, ev(Expressions.cast(txt("1.5e0x"), SqlType.DOUBLE)));
        assertEquals(0.0, ev(Expressions.cast(txt("x"), SqlType.DOUBLE)));
        assertEquals(1234.5678, ev(Expressions.cast(txt("1234.5678"), SqlType.DOUBLE)));
        assertEquals(0.1, ev(Expressions.cast(txt(".1"), SqlType.DOUBLE)));
        assertEquals(7.0, ev(Expressions.cast(f.a, SqlType.DOUBLE)));
        assertEquals("7", ev(Expressions.cast(f.a, SqlType.TEXT)));
        assertEquals("2.5", ev(Expressions.cast(f.b, SqlType.TEXT)));
        assertEquals(true, ev(Expressions.cast(f.a, SqlType.BOOLEAN)));
        assertEquals(false, ev(Expressions.cast(txt(" off"), SqlType.BOOLEAN)));
        assertEquals("true", ev(Expressions.cast(bin(GT, f.a, i(0)), SqlType.TEXT)));
        assertThrows(SqlException.class, () -> ev(Expressions.cast(txt("maybe"), SqlType.BOOLEAN)));
        assertThrows(SqlException.class, () -> ev(Expressions.cast(bin(MUL, f.a, i(1L << 40)), SqlType.INT)));
        assertThrows(SqlException.class, () -> Expressions.cast(f.a, SqlType.DATE));
        assertNull(ev(Expressions.cast(nul(), SqlType.BIGINT)));
        assertEquals(SqlType.BIGINT, Expressions.typeOf("integer"));
        assertEquals(SqlType.DOUBLE, Expressions.typeOf("DOUBLE  PRECISION"));
        assertEquals(SqlType.TEXT, Expressions.typeOf("character varying"));
        assertEquals(SqlType.TIMESTAMP, Expressions.typeOf("DATETIME"));
        assertNull(Expressions.typeOf("BLOB"));
        assertEquals(SqlType.BIGINT, Expressions.typeOf("SIGNED"));
        assertEquals(SqlType.INT, Expressions.castTo(f.a, "DECIMAL").type()); // NUMERIC affinity: stays integer
        assertEquals(1.5, ev(Expressions.castTo(txt("1.5"), "numeric")));
        assertInstanceOf(Long.class, ev(Expressions.castTo(f.b, "INTEGER")));
        assertEquals(2L, ev(Expressions.castTo(f.b, "INTEGER")));
        assertThrows(SqlException.class, () -> Expressions.castTo(f.a, "BLOB"));
    }

    @Test
    void concatenationUsesSqliteTextForms() {
        assertEquals("hello7", ev(bin(CONCAT, f.s, f.a)));
        assertEquals("2.5|hello", ev(bin(CONCAT, bin(CONCAT, f.b, txt("|")), f.s)));
        assertEquals("1.0", ev(bin(CONCAT, d(1.0), txt(""))));
        assertEquals("0.5", ev(bin(CONCAT, d(0.5), txt(""))));
        assertNull(ev(bin(CONCAT, f.s, nul())));
        assertEquals("x0.333333333333333", ev(bin(CONCAT, txt("x"), bin(DIV, d(1), d(3)))));
        f.at(r1);
        assertEquals("-0.142857142857143", ev(bin(CONCAT, bin(DIV, d(1), f.a), f.s)));
    }

    @Test
    void doubleTextForm() {
        String[][] cases = {
            {"1.0", "1.0"}, {"0.5", "0.5"}, {"-2.25", "-2.25"}, {"100.0", "100.0"}, {"0.1", "0.1"},
            {"0.30000000000000004", "0.3"}, {"123456789012345.0", "123456789012345.0"},
            {"1e15", "1.0e+15"}, {"1e20", "1.0e+20"}, {"1.5e-7", "1.5e-07"}, {"0.0001", "0.0001"},
            {"0.00001234", "1.234e-05"}, {"3.141592653589793", "3.14159265358979"}, {"1e300", "1.0e+300"},
            {"2.5e-300", "2.5e-300"}, {"999999999999999.9", "1.0e+15"}, {"0", "0.0"}, {"12345.678", "12345.678"},
        };
        for (String[] c : cases) {
            assertEquals(c[1], TextForm.doubleText(Double.parseDouble(c[0])), c[0]);
        }
        // against BigDecimal's exact rounding for random values
        java.util.Random rnd = new java.util.Random(42);
        for (int k = 0; k < 20000; k++) {
            double v = Double.longBitsToDouble(rnd.nextLong());
            if (Double.isNaN(v) || Double.isInfinite(v) || v == 0) {
                continue;
            }
            double a = Math.abs(v);
            if (k % 2 == 0) {
                v = (rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(46) - 9);
            }
            java.math.BigDecimal bd = new java.math.BigDecimal(v).round(new java.math.MathContext(15)).stripTrailingZeros();
            assertEquals(0, bd.compareTo(new java.math.BigDecimal(TextForm.doubleText(v).replace("e+", "e"))), "" + v);
        }
    }

    @Test
    void scalarFunctions() {
        assertEquals(7L, ev(Expressions.function("ABS", List.of(Expressions.negate(f.a)))));
        assertEquals(2.5, ev(Expressions.function("ABS", List.of(Expressions.negate(f.b)))));
        assertEquals(3.0, ev(Expressions.function("ROUND", List.of(f.b))));
        assertEquals(-3.0, ev(Expressions.function("ROUND", List.of(Expressions.negate(f.b)))));
        assertEquals(1.0, ev(Expressions.function("ROUND", List.of(d(0.5)))));
        assertEquals(2.68, ev(Expressions.function("ROUND", List.of(d(2.675000001), i(2)))));
        assertEquals(2.67, ev(Expressions.function("ROUND", List.of(d(2.675), i(2))))); // binary 2.67499999...
        assertEquals(0.13, ev(Expressions.function("ROUND", List.of(d(0.125), i(2))))); // exact half: away from zero
        assertEquals(-0.13, ev(Expressions.function("ROUND", List.of(d(-0.125), i(2)))));
        assertEquals(7.0, ev(Expressions.function("ROUND", List.of(f.a))));
        assertEquals("HELLO", ev(Expressions.function("UPPER", List.of(f.s))));
        assertEquals("déjà", ev(Expressions.function("LOWER", List.of(txt("DéJà")))));
        assertEquals(5L, ev(Expressions.function("LENGTH", List.of(f.s))));
        assertEquals(4L, ev(Expressions.function("LENGTH", List.of(txt("déjà")))));
        assertEquals(3L, ev(Expressions.function("LENGTH", List.of(f.b))));
        assertEquals(2L, ev(Expressions.function("LENGTH", List.of(Expressions.negate(f.a)))));
        assertEquals("ell", ev(Expressions.function("SUBSTR", List.of(f.s, i(2), i(3)))));
        assertEquals("llo", ev(Expressions.function("SUBSTR", List.of(f.s, i(3)))));
        assertEquals("lo", ev(Expressions.function("SUBSTR", List.of(f.s, i(-2)))));
        assertEquals("el", ev(Expressions.function("SUBSTR", List.of(f.s, i(-4), i(2)))));
        assertEquals("h", ev(Expressions.function("SUBSTR", List.of(f.s, i(-7), i(3)))));
        assertEquals("h", ev(Expressions.function("SUBSTR", List.of(f.s, i(0), i(2)))));
        assertEquals("el", ev(Expressions.function("SUBSTR", List.of(f.s, i(4), i(-2)))));
        assertEquals("", ev(Expressions.function("SUBSTR", List.of(f.s, i(10)))));
        assertEquals("jà", ev(Expressions.function("SUBSTRING", List.of(txt("déjà"), i(3)))));
        assertEquals("x", ev(Expressions.function("TRIM", List.of(txt("  x  ")))));
        assertEquals("x  ", ev(Expressions.function("LTRIM", List.of(txt("  x  ")))));
        assertEquals("  x", ev(Expressions.function("RTRIM", List.of(txt("  x  ")))));
        assertEquals("ell", ev(Expressions.function("TRIM", List.of(f.s, txt("oh")))));
        assertEquals("b", ev(Expressions.function("TRIM", List.of(txt("ébé"), txt("é")))));
        assertEquals("heLLo", ev(Expressions.function("REPLACE", List.of(f.s, txt("l"), txt("L")))));
        assertEquals("hello", ev(Expressions.function("REPLACE", List.of(f.s, txt(""), txt("L")))));
        assertEquals("hxo", ev(Expressions.function("REPLACE", List.of(f.s, txt("ell"), txt("x")))));
        assertEquals(3L, ev(Expressions.function("INSTR", List.of(f.s, txt("ll")))));
        assertEquals(0L, ev(Expressions.function("INSTR", List.of(f.s, txt("z")))));
        assertEquals(3L, ev(Expressions.function("INSTR", List.of(txt("déjà"), txt("j")))));
        assertNull(ev(Expressions.function("UPPER", List.of(nul()))));
        assertNull(ev(Expressions.function("SUBSTR", List.of(f.s, nul()))));
        SqlException e = assertThrows(SqlException.class, () -> Expressions.function("FOO", List.of()));
        assertEquals("unknown function 'FOO'", e.getMessage());
        e = assertThrows(SqlException.class, () -> Expressions.function("ABS", List.of(f.a, f.a)));
        assertEquals("function 'ABS' takes 1 argument, got 2", e.getMessage());
        e = assertThrows(SqlException.class, () -> Expressions.function("SUBSTR", List.of(f.s)));
        assertEquals("function 'SUBSTR' takes 2 to 3 arguments, got 1", e.getMessage());
        assertTrue(Expressions.isFunction("COALESCE"));
        assertFalse(Expressions.isFunction("COUNT"));
    }

    @Test
    void conditionsFromNumbers() {
        assertEquals(true, ev(Expressions.asCondition(f.a, "WHERE")));
        assertEquals(true, ev(Expressions.asCondition(f.b, "WHERE")));
        assertEquals(false, ev(Expressions.asCondition(bin(SUB, f.a, i(7)), "WHERE")));
        assertNull(ev(Expressions.asCondition(nul(), "WHERE")));
        SqlException e = assertThrows(SqlException.class, () -> Expressions.asCondition(f.s, "WHERE"));
        assertEquals("argument of WHERE must be BOOLEAN, not TEXT", e.getMessage());
        assertEquals(false, ev(bin(AND, f.a, i(0))));
    }

    @Test
    void foldingAndDescribe() {
        Expression e = bin(ADD, i(2), bin(MUL, i(3), i(4)));
        assertInstanceOf(Literal.class, e);
        assertEquals(14L, ev(e));
        assertEquals("(a + 5)", bin(ADD, f.a, i(5)).describe());
        assertEquals("(a > 5)", bin(LT, i(5), f.a).describe()); // constant moved right
        assertEquals("((s || 'it''s') IS NULL)", Expressions.isNull(bin(CONCAT, f.s, txt("it's")), false).describe());
        assertEquals("(a IN (1, 2))", Expressions.inList(f.a, List.of(i(1), i(2)), false).describe());
        assertEquals(1L, bin(ADD, f.a, i(1)).relations());
        assertEquals(0L, e.relations());
        Expression col2 = Expressions.column(f.t.column(0), 3, "x.a");
        assertEquals(1L << 3 | 1L, bin(ADD, f.a, col2).relations());
        f.ctx.ensureRelations(4);
        f.ctx.slots[3] = -1; // the NULL row of an outer join
        assertNull(ev(col2));
        assertNull(ev(bin(ADD, f.a, col2)));
        assertEquals(true, ev(Expressions.isNull(col2, false)));
        assertEquals(Arrays.asList(7L), Arrays.asList(ev(f.a)));
    }
}
