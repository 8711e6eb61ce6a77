package io.respsql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two encoders of a result, byte for byte in RESP2 and RESP3, and the typed form streaming. */
class ResultFormsTest {
    private static final ResultColumns COLS = ResultColumns.of(List.of("id", "v", "name"), List.of("INT", "FLOAT", "TEXT"));

    private static void rows(ResultSink s) {
        s.columns(COLS, 2);
        s.beginRow();
        s.longValue(Long.MIN_VALUE);
        s.doubleValue(-0.0);
        byte[] t = "a,\"b\"\r\né".getBytes(StandardCharsets.UTF_8);
        s.textValue(t, 0, t.length);
        s.endRow();
        s.beginRow();
        s.longValue(7);
        s.doubleValue(0.1);
        s.nullValue();
        s.endRow();
        s.end();
    }

    private static String encode(int protocol, boolean typed, Consumer<ResultSink> result) {
        ByteBuf buf = Unpooled.buffer();
        RespWriter w = new RespWriter().target(buf).protocol(protocol);
        result.accept(typed ? new TypedRows().on(w) : new Rows2010().on(w));
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void form2010IsCommaJoinedInBothProtocols() {
        String expected = "*2\r\n$35\r\n-9223372036854775808,-0.0,a,\"b\"\r\né\r\n$6\r\n7,0.1,\r\n";
        assertEquals(expected, encode(2, false, ResultFormsTest::rows));
        assertEquals(expected, encode(3, false, ResultFormsTest::rows));
        assertEquals(":5\r\n", encode(3, false, s -> s.countStar(COLS, 5)));
    }

    @Test
    void typedFormResp2() {
        assertEquals("*4\r\n*3\r\n$2\r\nid\r\n$1\r\nv\r\n$4\r\nname\r\n*3\r\n$3\r\nINT\r\n$5\r\nFLOAT\r\n$4\r\nTEXT\r\n"
                + "*3\r\n:-9223372036854775808\r\n$4\r\n-0.0\r\n$9\r\na,\"b\"\r\né\r\n"
                + "*3\r\n:7\r\n$3\r\n0.1\r\n$-1\r\n", encode(2, true, ResultFormsTest::rows));
    }

    @Test
    void typedFormResp3() {
        assertEquals("*4\r\n*3\r\n$2\r\nid\r\n$1\r\nv\r\n$4\r\nname\r\n*3\r\n$3\r\nINT\r\n$5\r\nFLOAT\r\n$4\r\nTEXT\r\n"
                + "*3\r\n:-9223372036854775808\r\n,-0.0\r\n$9\r\na,\"b\"\r\né\r\n"
                + "*3\r\n:7\r\n,0.1\r\n_\r\n", encode(3, true, ResultFormsTest::rows));
        ResultColumns count = ResultColumns.of(List.of("COUNT(*)"), List.of("BIGINT"));
        assertEquals("*3\r\n*1\r\n$8\r\nCOUNT(*)\r\n*1\r\n$6\r\nBIGINT\r\n*1\r\n:5\r\n", encode(3, true, s -> s.countStar(count, 5)));
    }

    @Test
    void typedRowsOfIntegersStreamInChunks() {
        List<ByteBuf> sent = new ArrayList<>();
        RespWriter w = new RespWriter();
        w.target(Unpooled.buffer(), x -> {
            sent.add(x.target());
            x.continueIn(Unpooled.buffer());
        }).protocol(3);
        ResultSink s = new TypedRows().on(w);
        ResultColumns one = ResultColumns.of(List.of("n"), List.of("BIGINT"));
        int n = 100_000;
        s.columns(one, n);
        for (int i = 0; i < n; i++) {
            s.beginRow();
            s.longValue(i);
            s.endRow();
        }
        s.end();
        sent.add(w.target());
        assertTrue(sent.size() > 5, "chunks: " + sent.size());
        StringBuilder all = new StringBuilder();
        for (ByteBuf b : sent) {
            assertTrue(b.readableBytes() <= RespWriter.CHUNK_BYTES + 64, "chunk of " + b.readableBytes());
            all.append(b.toString(StandardCharsets.US_ASCII));
        }
        assertTrue(all.toString().startsWith("*100002\r\n*1\r\n$1\r\nn\r\n*1\r\n$6\r\nBIGINT\r\n*1\r\n:0\r\n*1\r\n:1\r\n"));
        assertTrue(all.toString().endsWith("*1\r\n:99999\r\n"));
        assertEquals(n, all.toString().split("\\*1\r\n:", -1).length - 1);
    }
}
