package io.respsql.exec;

import io.respsql.engine.SqlEngine;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;

import java.nio.charset.StandardCharsets;

/** Runs statements through the engine and returns the raw RESP reply, CRLFs shown as spaces. */
final class EngineHarness {
    final SqlEngine engine = new SqlEngine(new Catalog());
    private final RespWriter writer = new RespWriter();

    String run(String sql) {
        ByteBuf buf = Unpooled.buffer();
        EngineReplies.run(engine, sql, writer.target(buf));
        String s = buf.toString(StandardCharsets.UTF_8).replace("\r\n", " ").trim();
        buf.release();
        return s;
    }
}
