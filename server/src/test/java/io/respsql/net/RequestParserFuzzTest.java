package io.respsql.net;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.respsql.command.CommandArgs;
import io.respsql.config.ServerConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of the RESP request parser (Jazzer; {@code mvn test} replays the seed
 * corpus in {@code RequestParserFuzzTestInputs/parse/}, {@code scripts/fuzz.sh} fuzzes). Any bytes
 * give requests or a protocol error, never an exception or a loop that does not end; and how the
 * bytes arrive (one read, or split at any points) and which path reads an array (whole-array fast
 * path or element by element) change nothing in the outcome.
 */
class RequestParserFuzzTest {
    private static final ServerConfig CONFIG = new ServerConfig();
    private static final int MAX_ARGS = 1024;

    @FuzzTest(maxDuration = "30s")
    void parse(byte[] input) {
        List<String> whole = parse(new RequestParser(MAX_ARGS, CONFIG, true), input, new int[0]);
        // The splits are a function of the input, so a finding replays exactly.
        Random r = new Random(java.util.Arrays.hashCode(input));
        int[] cuts = cuts(r, input.length);
        assertEquals(whole, parse(new RequestParser(MAX_ARGS, CONFIG, true), input, cuts), "split at " + java.util.Arrays.toString(cuts));
        assertEquals(whole, parse(new RequestParser(MAX_ARGS, CONFIG, false), input, cuts), "element by element");
        int[] bytewise = new int[Math.max(0, Math.min(input.length, 512) - 1)];
        for (int i = 0; i < bytewise.length; i++) {
            bytewise[i] = i + 1;
        }
        if (input.length <= 512) {
            assertEquals(whole, parse(new RequestParser(MAX_ARGS, CONFIG, true), input, bytewise), "one byte per read");
        }
    }

    private static int[] cuts(Random r, int length) {
        if (length < 2) {
            return new int[0];
        }
        int n = 1 + r.nextInt(Math.min(8, length - 1));
        int[] cuts = r.ints(n, 1, length).sorted().distinct().toArray();
        return cuts;
    }

    /** What the parser makes of the bytes delivered in reads ending at {@code cuts}: requests, then the error or what is left. */
    private static List<String> parse(RequestParser p, byte[] input, int[] cuts) {
        List<String> got = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : input.length;
            // (an empty copy is Unpooled's shared empty buffer, which is never released)
            ByteBuf read = Unpooled.buffer(Math.max(1, to - from)).writeBytes(input, from, to - from);
            p.begin(read, ByteBufAllocator.DEFAULT);
            try {
                // Each request consumes at least one byte: more than that many is a loop that does not end.
                int guard = input.length + 1;
                while (p.next()) {
                    assertTrue(--guard >= 0, "more requests than bytes");
                    CommandArgs a = p.args();
                    assertTrue(a.count() > 0 && a.count() <= MAX_ARGS, "argument count " + a.count());
                    StringBuilder sb = new StringBuilder();
                    for (int j = 0; j < a.count(); j++) {
                        sb.append('[').append(a.string(j)).append(']');
                    }
                    got.add(sb.toString());
                    p.reset();
                }
                if (p.error() != null) {
                    got.add("error: " + p.error());
                    p.discard();
                    assertEquals(0, read.refCnt(), "the read is released");
                    return got;
                }
            } finally {
                p.end();
            }
            assertEquals(0, read.refCnt(), "the read is released");
            from = to;
        }
        got.add("left " + p.bufferedBytes() + (p.inArray() ? " in an array" : ""));
        p.discard();
        return got;
    }
}
