package io.respsql.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.SqlEngine;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;
import io.respsql.storage.CatalogImage;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** What the snapshot format tests share: a snapshot in memory and back, fixtures, a statement's reply. */
final class SnapshotTesting {
    private SnapshotTesting() {
    }

    /** The catalog written by the current writer, as bytes. */
    static byte[] snapshot(Catalog catalog) throws IOException {
        CatalogImage image = catalog.capture();
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            SnapshotWriter.write(image, out);
            return out.toByteArray();
        } finally {
            image.release();
        }
    }

    /** A new catalog loaded from snapshot bytes. */
    static Catalog load(byte[] bytes) throws IOException {
        Catalog c = new Catalog();
        SnapshotReader.load(Channels.newChannel(new ByteArrayInputStream(bytes)), "test", c);
        return c;
    }

    /** A committed snapshot file under src/test/resources/snapshots. */
    static Path fixture(String name) throws URISyntaxException {
        return Path.of(SnapshotTesting.class.getResource("/snapshots/" + name).toURI());
    }

    /** Runs one statement; its reply as text, CRLFs as spaces. */
    static String sql(SqlEngine engine, String statement) {
        ByteBuf buf = Unpooled.buffer();
        EngineReplies.run(engine, statement, new RespWriter().target(buf));
        return reply(buf);
    }

    /** The buffer's reply as text, CRLFs as spaces; releases the buffer. */
    static String reply(ByteBuf buf) {
        String s = buf.toString(StandardCharsets.UTF_8).replace("\r\n", " ").trim();
        buf.release();
        return s;
    }
}
