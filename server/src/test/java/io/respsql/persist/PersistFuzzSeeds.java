package io.respsql.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.SqlEngine;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Writes the seed corpora of {@link PersistFuzzTest} with the server's own writers: a small
 * snapshot of every column type, index kind, a view and a prepared statement, and logs of
 * records (plain, a MULTI block, FLUSHALL, a snapshot preamble). Run only on demand:
 * {@code mvn -pl server test -Dtest=PersistFuzzSeeds -Dfuzz.seeds=server/src/test/resources/io/respsql/persist/PersistFuzzTestInputs}.
 */
class PersistFuzzSeeds {
    private static final String[] SCHEMA = {
            "CREATE TABLE employee (id INT PRIMARY KEY, division INT, salary FLOAT, name TEXT, hobby TEXT)",
            "CREATE INDEX employee:division:index ON employee (division)",
            "CREATE UNIQUE INDEX employee_name ON employee (name DESC, salary)",
            "INSERT INTO employee VALUES (1, 11, 15000.99, 'marieanne', 'yachting'), (2, 22, 500.5, 'bob', NULL), "
                    + "(3, 22, 7000, 'carla', 'painting')",
            "DELETE FROM employee WHERE id = 2",
            "CREATE TABLE ev (id BIGINT PRIMARY KEY, ok BOOLEAN, day DATE, at TIMESTAMP, note TEXT NOT NULL DEFAULT 'n/a')",
            "INSERT INTO ev VALUES (1, TRUE, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05', 'a'), (2, NULL, NULL, NULL, 'b')",
            "CREATE TABLE t1 (a INTEGER, b INTEGER)",
            "INSERT INTO t1 VALUES (1, 2), (1, 2), (NULL, 3)",
            "CREATE VIEW v AS SELECT name, salary FROM employee WHERE salary > 1000",
            "PREPARE byid SELECT * FROM employee WHERE id = ? AND name <> '?'",
    };

    @Test
    @EnabledIfSystemProperty(named = "fuzz.seeds", matches = ".+")
    void write() throws IOException {
        Path dir = Path.of(System.getProperty("fuzz.seeds"));
        Path snapshots = Files.createDirectories(dir.resolve("snapshot"));
        Path logs = Files.createDirectories(dir.resolve("appendOnlyFile"));

        SqlEngine engine = new SqlEngine(new Catalog());
        for (String sql : SCHEMA) {
            assertEquals("", error(SnapshotTesting.sql(engine, sql)), sql);
        }
        byte[] snapshot = SnapshotTesting.snapshot(engine.catalog());
        Files.write(snapshots.resolve("small"), snapshot);
        Files.write(snapshots.resolve("empty"), SnapshotTesting.snapshot(new Catalog()));
        Files.copy(SnapshotTesting.class.getResourceAsStream("/snapshots/dump-v1.rsql"), snapshots.resolve("v1"));
        Files.copy(SnapshotTesting.class.getResourceAsStream("/snapshots/dump-v2.rsql"), snapshots.resolve("v2"));

        ByteBuf records = Unpooled.buffer();
        for (String sql : SCHEMA) {
            AofFormat.writeSql(records, sql);
        }
        AofFormat.writeMulti(records);
        AofFormat.writeSql(records, "UPDATE employee SET salary = salary + 1 WHERE division BETWEEN 11 AND 22");
        AofFormat.writeSql(records, "INSERT INTO t1 VALUES (5, 6)");
        AofFormat.writeExec(records);
        AofFormat.writeSql(records, "DEALLOCATE byid");
        Files.write(logs.resolve("records"), bytes(records));

        ByteBuf flush = Unpooled.buffer();
        AofFormat.writeSql(flush, "CREATE TABLE message_list (id int primary key, fk int, count INT)");
        AofFormat.writeSql(flush, "INSERT INTO message_list VALUES (000000000001,000000000001,4)");
        AofFormat.writeFlushAll(flush);
        AofFormat.writeSql(flush, "CREATE TABLE message_list (id int primary key, fk int, count INT)");
        Files.write(logs.resolve("flushall"), bytes(flush));

        // A rewritten log: the snapshot as its preamble, then the records since.
        ByteBuf after = Unpooled.buffer();
        after.writeBytes(snapshot);
        AofFormat.writeSql(after, "UPDATE t1 SET b = b + 1 WHERE a = 1");
        AofFormat.writeMulti(after);
        AofFormat.writeSql(after, "DROP VIEW v");
        AofFormat.writeExec(after);
        Files.write(logs.resolve("preamble"), bytes(after));
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] b = new byte[buf.readableBytes()];
        buf.readBytes(b);
        buf.release();
        return b;
    }

    private static String error(String reply) {
        return reply.startsWith("-") ? reply : "";
    }
}
