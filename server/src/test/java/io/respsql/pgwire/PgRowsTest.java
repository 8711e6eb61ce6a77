package io.respsql.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.result.ResultColumns;
import io.respsql.sql.SqlException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Binary DataRows follow the column's type (its RowDescription OID), whatever kind of value a row has. */
class PgRowsTest {
    private static final short[] BINARY = {1};

    private static ByteBuf row(String type, java.util.function.Consumer<PgRows> value) {
        ByteBuf out = Unpooled.buffer();
        PgRows rows = new PgRows().on(out, BINARY, false);
        rows.columns(ResultColumns.of(List.of("c"), List.of(type)), -1);
        rows.beginRow();
        value.accept(rows);
        rows.endRow();
        out.skipBytes(1 + 4 + 2); // 'D', length, column count
        return out;
    }

    @Test
    void valuesAreEncodedByTheColumnsType() {
        ByteBuf int4 = row("INT", r -> r.longValue(-7));
        assertEquals(4, int4.readInt());
        assertEquals(-7, int4.readInt());
        ByteBuf int4FromDouble = row("INT", r -> r.doubleValue(3.0));
        assertEquals(4, int4FromDouble.readInt());
        assertEquals(3, int4FromDouble.readInt());
        ByteBuf int8FromDouble = row("BIGINT", r -> r.doubleValue(-5e9));
        assertEquals(8, int8FromDouble.readInt());
        assertEquals(-5_000_000_000L, int8FromDouble.readLong());
        ByteBuf float8FromLong = row("FLOAT", r -> r.longValue(5_000_000_000L));
        assertEquals(8, float8FromLong.readInt());
        assertEquals(5e9, Double.longBitsToDouble(float8FromLong.readLong()));
        // text's binary form is its UTF-8 bytes: a number in a TEXT column is its text
        ByteBuf text = row("TEXT", r -> r.doubleValue(2.5));
        assertEquals(3, text.readInt());
        assertEquals("2.5", text.readCharSequence(3, StandardCharsets.US_ASCII).toString());
        ByteBuf textLong = row("TEXT", r -> r.longValue(42));
        assertEquals(2, textLong.readInt());
        assertEquals("42", textLong.readCharSequence(2, StandardCharsets.US_ASCII).toString());
    }

    @Test
    void aValueTheTypeCannotHoldIsAnErrorNotOtherBytes() {
        SqlException range = assertThrows(SqlException.class, () -> row("INT", r -> r.longValue(5_000_000_000L)));
        assertEquals("22003", range.sqlState());
        assertTrue(range.getMessage().contains("5000000000") && range.getMessage().contains("int4"), range.getMessage());
        SqlException frac = assertThrows(SqlException.class, () -> row("INT", r -> r.doubleValue(2.5)));
        assertEquals("42804", frac.sqlState());
        assertTrue(frac.getMessage().contains("2.5") && frac.getMessage().contains("binary"), frac.getMessage());
        assertEquals("42804", assertThrows(SqlException.class, () -> row("BIGINT", r -> r.doubleValue(Double.NaN))).sqlState());
        assertEquals("42804", assertThrows(SqlException.class, () -> row("BIGINT", r -> r.doubleValue(1e19))).sqlState());
        byte[] abc = "abc".getBytes(StandardCharsets.US_ASCII);
        assertEquals("42804", assertThrows(SqlException.class, () -> row("INT", r -> r.textValue(abc, 0, 3))).sqlState());
        assertEquals("42804", assertThrows(SqlException.class, () -> row("DATE", r -> r.textValue(abc, 0, 3))).sqlState());
        assertEquals("42804", assertThrows(SqlException.class, () -> row("DATE", r -> r.longValue(1))).sqlState());
    }
}
