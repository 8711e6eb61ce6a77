package io.respsql.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestTemplateTest {

    private static RequestTemplate t(long[] moduli, String... words) {
        return new RequestTemplate(List.of(words), moduli);
    }

    private static final long[] NONE = {};

    @Test
    void encodesOneBulkStringPerWord() {
        RequestTemplate r = t(NONE, "SET", "foo", "bar");
        assertEquals("*3\r\n$3\r\nSET\r\n$3\r\nfoo\r\n$3\r\nbar\r\n",
                new String(r.bytes(), StandardCharsets.US_ASCII));
        assertEquals(0, r.tokenCount());
        assertEquals(List.of("SET", "foo", "bar"), r.words(7));
    }

    @Test
    void utf8WordsAreCountedInBytes() {
        RequestTemplate r = t(NONE, "SET", "k", "é");
        assertEquals("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\né\r\n",
                new String(r.bytes(), StandardCharsets.UTF_8));
    }

    @Test
    void theSeedInsertGivesNThenNModM() {
        RequestTemplate r = t(new long[] {100}, "INSERT", "INTO", "message_list", "VALUES",
                "(000000000001,000000000001,4)");
        assertEquals(2, r.tokenCount());
        assertEquals("(000000000001,000000000001,4)", r.words(1).get(4));
        assertEquals("(000000000099,000000000099,4)", r.words(99).get(4));
        assertEquals("(000000000100,000000000000,4)", r.words(100).get(4));
        assertEquals("(000000000101,000000000001,4)", r.words(101).get(4));
        assertEquals("(000010000000,000000000000,4)", r.words(10_000_000).get(4));
        assertEquals("(000009999999,000000000099,4)", r.words(9_999_999).get(4));
    }

    @Test
    void theSeedUpdateHasOneTokenAfterEquals() {
        RequestTemplate r = t(NONE, "UPDATE", "message_list", "SET", "count=100", "WHERE", "fk=000000000001");
        assertEquals(1, r.tokenCount());
        assertEquals(List.of("UPDATE", "message_list", "SET", "count=100", "WHERE", "fk=000000000042"),
                r.words(42));
    }

    @Test
    void moduloNeverTouchesTheFirstTokenEvenInALaterWord() {
        RequestTemplate r = t(new long[] {10}, "SET", "key_000000000001", "val_000000000001");
        assertEquals(List.of("SET", "key_000000000123", "val_000000000003"), r.words(123));
    }

    @Test
    void severalModuliApplyInOrderAndTheLastRepeats() {
        RequestTemplate r = t(new long[] {100, 7}, "X", "(000000000001,000000000001,000000000001,000000000001)");
        // token 1: n; token 2: n % 100; token 3: n % 7; token 4: n % 7 (the last modulo repeats)
        assertEquals("(000000001234,000000000034,000000000002,000000000002)", r.words(1234).get(1));
    }

    @Test
    void zeroPaddingToTwelveDigits() {
        RequestTemplate r = t(NONE, "GET", "k_000000000000");
        assertEquals("k_000000000000", r.words(0).get(1));
        assertEquals("k_000000000007", r.words(7).get(1));
        assertEquals("k_999999999999", r.words(999_999_999_999L).get(1));
    }

    @Test
    void allFourDelimitersMarkATokenAndNothingElseDoes() {
        RequestTemplate r = t(NONE, "A", "(000000000001", ",000000000001", "_000000000001", "=000000000001",
                " 000000000001", "x000000000001", ":000000000001", "000000000001", "-000000000001",
                "k.000000000001");
        assertEquals(4, r.tokenCount());
        assertEquals(List.of("A", "(000000000005", ",000000000005", "_000000000005", "=000000000005",
                " 000000000001", "x000000000001", ":000000000001", "000000000001", "-000000000001",
                "k.000000000001"), r.words(5));
    }

    @Test
    void aTokenIsExactlyTwelveDigitsStartingWith0000() {
        RequestTemplate r = t(NONE, "A", "=0000000000012", "=00000000001", "=000100000001", "=0000abcdefgh",
                "=000000000001x", "=000012345678");
        // 13 digits, 11 digits, no 0000 prefix, not digits: left alone. A letter may follow.
        assertEquals(List.of("A", "=0000000000012", "=00000000001", "=000100000001", "=0000abcdefgh",
                "=000000000009x", "=000000000009"), r.words(9));
    }

    @Test
    void tokensInsideOneWordAreAllFound() {
        assertArrayEquals(new int[] {1, 14, 27},
                RequestTemplate.findTokens("(000000000001,000000000001,000000000001)".getBytes(StandardCharsets.US_ASCII)));
        assertArrayEquals(new int[] {},
                RequestTemplate.findTokens("000000000001".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void fillIntoAByteBufMatchesTheByteArrayPath() {
        RequestTemplate r = t(new long[] {100}, "INSERT", "INTO", "t", "VALUES", "(000000000001,000000000001,4)");
        ByteBuf buf = Unpooled.buffer(r.length());
        r.copyTo(buf);
        buf.writerIndex(r.length());
        r.fill(buf, 4321);
        byte[] got = new byte[r.length()];
        buf.getBytes(0, got);
        assertArrayEquals(r.render(4321), got);
        assertEquals(r.length(), r.render(1).length);
        assertEquals(r.length(), r.render(999_999_999_999L).length);
    }
}
