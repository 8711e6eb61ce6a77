package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static io.respsql.expr.ExprFixture.i;
import static io.respsql.expr.ExprFixture.txt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Sizes the text functions compute from huge arguments: each is refused with 54000 before any
 * work (no product that overflows and passes a check), or answers what the text allows.
 */
@Timeout(20)
class TextLimitsTest {
    private static final long HUGE = Long.MAX_VALUE / 2;
    private static final long INT_MAX = Integer.MAX_VALUE;
    /** 2^62: times 4 (or the length of 'abcd') is 0 in a long. */
    private static final long WRAPS = 1L << 62;

    ExprFixture f;

    @BeforeEach
    void setUp() {
        f = new ExprFixture();
        f.at(f.row(1, 1, "hello"));
    }

    private static Expression fn(String name, Expression... args) {
        return Functions.build(name, List.of(args));
    }

    private void tooLong(Expression e) {
        SqlException x = assertThrows(SqlException.class, () -> f.eval(e), e.describe());
        assertEquals(SqlState.PROGRAM_LIMIT_EXCEEDED, x.sqlState(), e.describe());
        assertEquals("requested length too large", x.getMessage());
    }

    @Test
    void repeatOfHugeCountsIsRefused() {
        for (long n : new long[] {WRAPS, HUGE, Long.MAX_VALUE, INT_MAX, INT_MAX + 1, TextBuf.MAX / 4 + 1}) {
            tooLong(fn("REPEAT", txt("abcd"), i(n)));
        }
        tooLong(fn("REPEAT", txt("x"), i(TextBuf.MAX + 1L)));
        assertEquals("", f.eval(fn("REPEAT", txt(""), i(HUGE))));
        assertEquals("", f.eval(fn("REPEAT", txt("ab"), i(Long.MIN_VALUE))));
        assertEquals("abab", f.eval(fn("REPEAT", txt("ab"), i(2))));
    }

    @Test
    void padsOfHugeLengthsAreRefused() {
        for (String name : new String[] {"LPAD", "RPAD"}) {
            for (long n : new long[] {WRAPS, HUGE, Long.MAX_VALUE, INT_MAX, WRAPS + 1}) {
                tooLong(fn(name, txt("x"), i(n)));
                tooLong(fn(name, txt("x"), i(n), txt("ab")));
                tooLong(fn(name, txt("x"), i(n), txt("\u00e9\u00e9\u00e9")));
            }
            tooLong(fn(name, txt("x"), i(TextBuf.MAX + 1L)));
            assertEquals("", f.eval(fn(name, txt("abc"), i(Long.MIN_VALUE))));
            // a huge fill is fine while the result is short
            assertEquals("abc", f.eval(fn(name, txt("abc"), i(3), txt("z".repeat(1000)))));
        }
        assertEquals("xyxhi", f.eval(fn("LPAD", txt("hi"), i(5), txt("xy"))));
        assertEquals("hixyx", f.eval(fn("RPAD", txt("hi"), i(5), txt("xy"))));
    }

    @Test
    void growingFunctionsStopAtTheLimitInsteadOfWrapping() {
        // 64 MB of text, then functions that would make more than the limit of it
        Expression big = fn("REPEAT", txt("abcd"), i(16L << 20));
        assertEquals(64 << 20, ((String) f.eval(big)).length());
        tooLong(fn("REPLACE", big, txt("a"), txt("abcdefghijklmnopqrstuvwxyz")));
        tooLong(fn("CONCAT", big, big, big, big, big));
        tooLong(fn("CONCAT_WS", big, txt("a"), txt("b"), txt("c"), txt("d"), txt("e")));
        Expression two = new Concat(big, big);
        tooLong(new Concat(two, new Concat(two, big)));
        // each 1-byte character becomes a 4-byte one: 4 * (64 MB + 4) bytes
        String four = "\ud83d\ude00";
        tooLong(fn("TRANSLATE", new Concat(big, txt("abcd")), txt("abcd"), txt(four + four + four + four)));
        // what stays under the limit is answered
        assertEquals(128 << 20, ((String) f.eval(fn("CONCAT", big, big))).length());
    }

    @Test
    void substringOfHugePositionsAndLengths() {
        Expression s = txt("hello");
        for (boolean pg : new boolean[] {false, true}) {
            assertEquals("ello", f.eval(new TextFunctions.Substr("SUBSTR", s, i(2), i(Long.MAX_VALUE), pg)));
            assertEquals("ello", f.eval(new TextFunctions.Substr("SUBSTR", s, i(2), i(HUGE), pg)));
            assertEquals("ello", f.eval(new TextFunctions.Substr("SUBSTR", s, i(2), i(INT_MAX), pg)));
            assertEquals("", f.eval(new TextFunctions.Substr("SUBSTR", s, i(Long.MAX_VALUE), i(Long.MAX_VALUE), pg)));
            assertEquals("", f.eval(new TextFunctions.Substr("SUBSTR", s, i(HUGE), i(INT_MAX), pg)));
        }
        // PostgreSQL: characters from max(start, 1) up to start + count
        assertEquals("hello", f.eval(new TextFunctions.Substr("SUBSTR", s, i(-HUGE), i(Long.MAX_VALUE), true)));
        assertEquals("", f.eval(new TextFunctions.Substr("SUBSTR", s, i(Long.MIN_VALUE), i(HUGE), true)));
        SqlException neg = assertThrows(SqlException.class,
                () -> f.eval(new TextFunctions.Substr("SUBSTR", s, i(1), i(Long.MIN_VALUE), true)));
        assertEquals(SqlState.SUBSTRING_ERROR, neg.sqlState());
        // SQLite: a negative count takes the characters before start; -MIN_VALUE must not stay negative
        assertEquals("hell", f.eval(new TextFunctions.Substr("SUBSTR", s, i(5), i(Long.MIN_VALUE), false)));
        assertEquals("hello", f.eval(new TextFunctions.Substr("SUBSTR", s, i(-HUGE), i(Long.MAX_VALUE), false)));
        assertEquals("", f.eval(new TextFunctions.Substr("SUBSTR", s, i(Long.MIN_VALUE), i(HUGE), false)));
    }

    @Test
    void leftRightSplitPartOfHugeCounts() {
        Expression s = txt("a,b,c");
        assertEquals("a,b,c", f.eval(fn("LEFT", s, i(Long.MAX_VALUE))));
        assertEquals("", f.eval(fn("LEFT", s, i(Long.MIN_VALUE))));
        assertEquals("a,b,c", f.eval(fn("RIGHT", s, i(HUGE))));
        assertEquals("", f.eval(fn("RIGHT", s, i(Long.MIN_VALUE))));
        assertEquals("", f.eval(fn("SPLIT_PART", s, txt(","), i(Long.MAX_VALUE))));
        assertEquals("", f.eval(fn("SPLIT_PART", s, txt(","), i(Long.MIN_VALUE))));
        assertEquals("c", f.eval(fn("SPLIT_PART", s, txt(","), i(-1))));
    }
}
