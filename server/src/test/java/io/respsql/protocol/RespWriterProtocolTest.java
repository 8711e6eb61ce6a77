package io.respsql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Each typed writer in RESP3 and in the RESP2 form Redis falls back to (networking.c's
 * addReplyMap/Set/Push/Double/Bool/Verbatim/Null/NullArray), byte for byte. Doubles, booleans and
 * pushes have no command using them yet, so they are pinned here.
 */
class RespWriterProtocolTest {
    private static String write(int protocol, Consumer<RespWriter> reply) {
        ByteBuf buf = Unpooled.buffer();
        RespWriter w = new RespWriter().target(buf).protocol(protocol);
        reply.accept(w);
        return buf.toString(StandardCharsets.UTF_8);
    }

    private static void both(String resp2, String resp3, Consumer<RespWriter> reply) {
        assertEquals(resp2, write(2, reply), "RESP2");
        assertEquals(resp3, write(3, reply), "RESP3");
    }

    @Test
    void aggregates() {
        both("*4\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n:2\r\n", "%2\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n:2\r\n", w -> {
            w.mapHeader(2);
            w.bulk("a");
            w.integer(1);
            w.bulk("b");
            w.integer(2);
        });
        both("*0\r\n", "%0\r\n", w -> w.mapHeader(0));
        both("*2\r\n+x\r\n+y\r\n", "~2\r\n+x\r\n+y\r\n", w -> {
            w.setHeader(2);
            w.simple("x");
            w.simple("y");
        });
        both("*0\r\n", "~0\r\n", w -> w.setHeader(0));
        both("*3\r\n", ">3\r\n", w -> w.pushHeader(3));
        both("*12\r\n", "*12\r\n", w -> w.arrayHeader(12));
    }

    @Test
    void nulls() {
        both("$-1\r\n", "_\r\n", RespWriter::nullBulk);
        both("*-1\r\n", "_\r\n", RespWriter::nullArray);
    }

    @Test
    void booleans() {
        both(":1\r\n", "#t\r\n", w -> w.bool(true));
        both(":0\r\n", "#f\r\n", w -> w.bool(false));
    }

    @Test
    void doubles() {
        both("$3\r\n1.5\r\n", ",1.5\r\n", w -> w.doubleValue(1.5));
        both("$2\r\n-3\r\n", ",-3\r\n", w -> w.doubleValue(-3.0));
        both("$3\r\ninf\r\n", ",inf\r\n", w -> w.doubleValue(Double.POSITIVE_INFINITY));
        both("$4\r\n-inf\r\n", ",-inf\r\n", w -> w.doubleValue(Double.NEGATIVE_INFINITY));
        both("$3\r\nnan\r\n", ",nan\r\n", w -> w.doubleValue(Double.NaN));
        both("$4\r\n-0.0\r\n", ",-0.0\r\n", w -> w.doubleValue(-0.0));
        // The same text as a FLOAT in a SELECT row, so both protocols agree with the rows.
        assertEquals(",1.0E-5\r\n", write(3, w -> w.doubleValue(1e-5)));
        assertEquals(RespWriter.doubleText(0.1), write(3, w -> w.doubleValue(0.1)).substring(1).trim());
    }

    @Test
    void verbatim() {
        both("$4\r\nhé\n\r\n", "=8\r\ntxt:hé\n\r\n", w -> w.verbatim("hé\n"));
        both("$0\r\n\r\n", "=4\r\ntxt:\r\n", w -> w.verbatim(""));
    }

    @Test
    void retargetingResetsToResp2() {
        ByteBuf buf = Unpooled.buffer();
        RespWriter w = new RespWriter().target(buf).protocol(3);
        assertEquals(3, w.protocol());
        w.target(buf);
        assertEquals(2, w.protocol());
        w.nullBulk();
        assertEquals("$-1\r\n", buf.toString(StandardCharsets.US_ASCII));
    }
}
