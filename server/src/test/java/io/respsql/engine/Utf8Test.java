package io.respsql.engine;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link Utf8} against the JDK's strict decoder (both follow the Unicode standard's well-formed UTF-8). */
class Utf8Test {
    private static boolean jdkValid(byte[] b) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @Test
    void agreesWithTheJdkOnRandomBytes() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        byte[] interesting = {(byte) 0x80, (byte) 0xbf, (byte) 0xc0, (byte) 0xc1, (byte) 0xc2, (byte) 0xdf, (byte) 0xe0,
            (byte) 0xed, (byte) 0xef, (byte) 0xf0, (byte) 0xf4, (byte) 0xf5, (byte) 0xff, (byte) 0x9f, (byte) 0xa0,
            (byte) 0x8f, (byte) 0x90, 'a', ' ', 0};
        for (int n = 0; n < 200_000; n++) {
            byte[] b = new byte[r.nextInt(8)];
            for (int i = 0; i < b.length; i++) {
                b[i] = r.nextBoolean() ? interesting[r.nextInt(interesting.length)] : (byte) r.nextInt(256);
            }
            assertEquals(jdkValid(b), Utf8.invalidAt(b, 0, b.length) < 0, "seed " + seed + " bytes " + java.util.HexFormat.of().formatHex(b));
        }
    }

    @Test
    void everyCodePointEncodesValid() {
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                continue;
            }
            byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
            assertEquals(-1, Utf8.invalidAt(b, 0, b.length), Integer.toHexString(cp));
        }
    }

    @Test
    void messageShowsTheSequenceAsPostgresqlDoes() {
        byte[] b = {'a', (byte) 0xe2, (byte) 0x82};
        assertEquals(1, Utf8.invalidAt(b, 0, b.length));
        assertEquals("invalid byte sequence for encoding \"UTF8\": 0xe2 0x82 at offset 7", Utf8.error(b, 1, b.length, 7));
        byte[] c = {(byte) 0xff, 'x'};
        assertEquals("invalid byte sequence for encoding \"UTF8\": 0xff at offset 0", Utf8.error(c, 0, c.length, 0));
    }
}
