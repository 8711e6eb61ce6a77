package io.respsql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RespWriterBulkLongTest {
    @Test
    void bulkLongKeepsAllDigits() {
        ByteBuf buf = Unpooled.buffer();
        RespWriter w = new RespWriter().target(buf);
        w.bulk(1796093186L);
        w.bulk(-5L);
        w.bulk(Long.MIN_VALUE);
        assertEquals("$10\r\n1796093186\r\n$2\r\n-5\r\n$20\r\n-9223372036854775808\r\n",
                buf.toString(StandardCharsets.US_ASCII));
    }
}
