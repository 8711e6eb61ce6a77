package io.respsql.replication;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.persist.AofFormat;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The replica reads exactly the records the log format writes, and none before all of it arrived. */
class StreamParserTest {
    @Test
    void readsWholeRecordsOnly() {
        ByteBuf stream = Unpooled.buffer();
        AofFormat.writeSql(stream, "INSERT INTO t VALUES (1,'héllo\r\nworld')");
        int first = stream.readableBytes();
        AofFormat.writeFlushAll(stream);
        int total = stream.readableBytes();
        StreamParser p = new StreamParser();
        for (int cut = 0; cut < first; cut++) {
            assertEquals(0, p.next(stream.slice(0, cut)), "record cut at " + cut);
        }
        ByteBuf in = stream.duplicate();
        assertEquals(first, p.next(in));
        assertEquals(2, p.args());
        assertTrue(p.argIs(in, 0, "sql"));
        assertEquals("INSERT INTO t VALUES (1,'héllo\r\nworld')", p.arg(in, 1));
        in.skipBytes(first);
        assertEquals(total - first, p.next(in));
        assertEquals(1, p.args());
        assertTrue(p.argIs(in, 0, "FLUSHALL"));
        in.skipBytes(total - first);
        assertEquals(0, p.next(in));
    }

    @Test
    void refusesWhatIsNotARecord() {
        StreamParser p = new StreamParser();
        for (String bad : new String[] {"+OK\r\n", "*x\r\n", "*1\r\n+no\r\n", "*1\r\n$3\r\nabcde\r\n", "*0\r\n"}) {
            assertEquals(-1, p.next(Unpooled.copiedBuffer(bad, StandardCharsets.US_ASCII)), bad);
        }
    }
}
