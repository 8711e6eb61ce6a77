package io.respsql.tools;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TypingTest {
    /** The SQL literal of {@code value} for {@code kind}, or "! reason". */
    private static String sql(Typing.Kind kind, String value) {
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        ByteBuf out = new ByteBuf();
        String bad = Typing.append(kind, b, 0, b.length, out);
        return bad != null ? "! " + bad : new String(out.a, 0, out.len, StandardCharsets.UTF_8);
    }

    @Test
    void integersInRangeOnly() {
        assertEquals("-2147483648", sql(Typing.Kind.INT, "-2147483648"));
        assertEquals("! '2147483648' is out of range for INT", sql(Typing.Kind.INT, "2147483648"));
        assertEquals("007", sql(Typing.Kind.INT, " +007 "));
        assertEquals("-9223372036854775808", sql(Typing.Kind.BIGINT, "-9223372036854775808"));
        assertEquals("! '9223372036854775808' is out of range for BIGINT", sql(Typing.Kind.BIGINT, "9223372036854775808"));
        assertEquals("! '99999999999999999999' is out of range for BIGINT", sql(Typing.Kind.BIGINT, "99999999999999999999"));
        assertEquals("! '1.5' is not a valid INT", sql(Typing.Kind.INT, "1.5"));
        assertEquals("! '-' is not a valid INT", sql(Typing.Kind.INT, "-"));
        assertEquals("! '' is not a valid BIGINT", sql(Typing.Kind.BIGINT, ""));
    }

    @Test
    void floatsAsSqlReadsThem() {
        assertEquals("1.5", sql(Typing.Kind.FLOAT, "+1.5"));
        assertEquals(".5", sql(Typing.Kind.FLOAT, ".5"));
        assertEquals("5.", sql(Typing.Kind.FLOAT, "5."));
        assertEquals("1E+5", sql(Typing.Kind.FLOAT, "1E+5"));
        assertEquals("'NaN'", sql(Typing.Kind.FLOAT, "nan"));
        assertEquals("'-Infinity'", sql(Typing.Kind.FLOAT, "-Infinity"));
        assertEquals("'Infinity'", sql(Typing.Kind.FLOAT, "inf"));
        assertEquals("! '1e400' is out of range for FLOAT", sql(Typing.Kind.FLOAT, "1e400"));
        assertEquals("! '1e-400' is out of range for FLOAT", sql(Typing.Kind.FLOAT, "1e-400"));
        assertEquals("0e-400", sql(Typing.Kind.FLOAT, "0e-400"));
        assertEquals("! '1d' is not a valid FLOAT", sql(Typing.Kind.FLOAT, "1d"));
        assertEquals("! '0x10' is not a valid FLOAT", sql(Typing.Kind.FLOAT, "0x10"));
        assertEquals("! 'e5' is not a valid FLOAT", sql(Typing.Kind.FLOAT, "e5"));
        assertEquals("! 'infinite' is not a valid FLOAT", sql(Typing.Kind.FLOAT, "infinite"));
    }

    @Test
    void textIsQuotedWithQuotesDoubledAndMustBeUtf8() {
        assertEquals("'it''s '' ok; DROP TABLE t; --'", sql(Typing.Kind.TEXT, "it's ' ok; DROP TABLE t; --"));
        assertEquals("'  spaces  '", sql(Typing.Kind.TEXT, "  spaces  "));
        assertEquals("'😀'", sql(Typing.Kind.TEXT, "😀"));
        byte[] bad = {'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80}; // a UTF-16 surrogate in UTF-8
        assertEquals("not valid UTF-8 text", Typing.append(Typing.Kind.TEXT, bad, 0, bad.length, new ByteBuf()));
        byte[] overlong = {(byte) 0xC0, (byte) 0xAF};
        assertEquals("not valid UTF-8 text", Typing.append(Typing.Kind.TEXT, overlong, 0, overlong.length, new ByteBuf()));
        byte[] cut = {'a', (byte) 0xE2, (byte) 0x82};
        assertEquals("not valid UTF-8 text", Typing.append(Typing.Kind.TEXT, cut, 0, cut.length, new ByteBuf()));
    }

    @Test
    void booleansDatesAndTimestamps() {
        assertEquals("TRUE", sql(Typing.Kind.BOOLEAN, "Yes"));
        assertEquals("FALSE", sql(Typing.Kind.BOOLEAN, "0"));
        assertEquals("! 'maybe' is not a valid BOOLEAN", sql(Typing.Kind.BOOLEAN, "maybe"));
        assertEquals("'2024-02-29'", sql(Typing.Kind.DATE, "2024-02-29"));
        assertEquals("! '2023-02-29' is not a valid DATE", sql(Typing.Kind.DATE, "2023-02-29"));
        assertEquals("! '2024-6-1' is not a valid DATE", sql(Typing.Kind.DATE, "2024-6-1"));
        assertEquals("'2024-06-01 12:30:00'", sql(Typing.Kind.TIMESTAMP, "2024-06-01 12:30:00"));
        assertEquals("'2024-06-01T12:30'", sql(Typing.Kind.TIMESTAMP, "2024-06-01T12:30"));
        assertEquals("'2024-06-01 12:30:00.5'", sql(Typing.Kind.TIMESTAMP, "2024-06-01 12:30:00.5"));
        assertEquals("'2024-06-01'", sql(Typing.Kind.TIMESTAMP, "2024-06-01"));
        assertEquals("! '2024-06-01 24:00:00' is not a valid TIMESTAMP", sql(Typing.Kind.TIMESTAMP, "2024-06-01 24:00:00"));
        assertEquals("! '2024-06-01 12:30:00+00' is not a valid TIMESTAMP", sql(Typing.Kind.TIMESTAMP, "2024-06-01 12:30:00+00"));
    }
}
