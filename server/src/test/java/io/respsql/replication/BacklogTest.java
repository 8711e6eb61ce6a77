package io.respsql.replication;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The backlog against a plain copy of the whole stream: wrap-around, writes larger than it, resizing. */
class BacklogTest {
    private static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        b.release();
        return out;
    }

    @Test
    void keepsTheLastBytesOfTheStreamAtRedisOffsets() {
        Random rnd = new Random(7);
        Backlog log = new Backlog(1000, 0);
        ByteBuf all = Unpooled.buffer();
        assertTrue(log.holdsFrom(1));
        assertFalse(log.holdsFrom(0));
        for (int round = 0; round < 500; round++) {
            int len = round % 50 == 0 ? 1000 + rnd.nextInt(1500) : rnd.nextInt(120);
            byte[] chunk = new byte[len];
            rnd.nextBytes(chunk);
            ByteBuf src = Unpooled.wrappedBuffer(new byte[3], chunk);
            log.append(src, 3, len); // from an index other than 0
            all.writeBytes(chunk);
            long end = all.readableBytes();
            assertEquals(end, log.endOffset());
            assertEquals(Math.min(1000, end), log.histlen());
            long first = log.firstByteOffset();
            assertEquals(end - log.histlen() + 1, first);
            assertFalse(log.holdsFrom(first - 1) && first > 1);
            assertTrue(log.holdsFrom(end + 1));
            for (long from : new long[] {first, first + 1, (first + end) / 2, end}) {
                if (from > end || from < 1) {
                    continue;
                }
                byte[] want = new byte[(int) (end - from + 1)];
                all.getBytes((int) (from - 1), want);
                assertArrayEquals(want, bytes(log.copyFrom(from)), "from " + from + " in round " + round);
            }
        }
        Backlog smaller = log.resized(300);
        assertEquals(300, smaller.histlen());
        assertEquals(log.endOffset(), smaller.endOffset());
        byte[] want = new byte[300];
        all.getBytes(all.readableBytes() - 300, want);
        assertArrayEquals(want, bytes(smaller.copyFrom(smaller.firstByteOffset())));
        Backlog larger = smaller.resized(5000);
        assertEquals(300, larger.histlen());
        assertArrayEquals(want, bytes(larger.copyFrom(larger.firstByteOffset())));
        larger.reset(42);
        assertEquals(0, larger.histlen());
        assertTrue(larger.holdsFrom(43));
        assertFalse(larger.holdsFrom(42));
    }
}
