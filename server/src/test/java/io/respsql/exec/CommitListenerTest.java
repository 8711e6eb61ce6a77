package io.respsql.exec;

import io.respsql.engine.CommitListener;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CommitListenerTest {
    private final EngineHarness h = new EngineHarness();
    private final List<String> seen = new ArrayList<>();

    CommitListenerTest() {
        h.engine.commitListener(new CommitListener() {
            @Override
            public void committed(String sql, long changes, boolean postgres) {
                seen.add(changes + (postgres ? " pg " : " ") + sql);
            }

            @Override
            public void flushedAll() {
                seen.add("flush");
            }

            @Override
            public void blockBegun() {
                seen.add("multi");
            }

            @Override
            public void blockEnded() {
                seen.add("exec");
            }
        });
    }

    private String runInPostgres(String sql) {
        io.respsql.sql.Dialect.postgres(true);
        try {
            return h.run(sql);
        } finally {
            io.respsql.sql.Dialect.postgres(false);
        }
    }

    @Test
    void eachWriteIsReportedWithTheDialectItRanInAlsoInsideABlock() {
        h.run("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
        runInPostgres("INSERT INTO t VALUES ('1'::int, 7 / 2)");
        h.run("INSERT INTO t VALUES (2, 2)");
        h.engine.beginBlock();
        runInPostgres("UPDATE t SET v = v + 1 WHERE id = 1");
        h.run("DELETE FROM t WHERE id = 2");
        runInPostgres("INSERT INTO t VALUES (3, 3)");
        h.engine.flushAll();
        h.engine.commitBlock();
        assertEquals(List.of(
                "1 CREATE TABLE t (id INT PRIMARY KEY, v INT)",
                "1 pg INSERT INTO t VALUES ('1'::int, 7 / 2)",
                "1 INSERT INTO t VALUES (2, 2)",
                "multi",
                "1 pg UPDATE t SET v = v + 1 WHERE id = 1",
                "1 DELETE FROM t WHERE id = 2",
                "1 pg INSERT INTO t VALUES (3, 3)",
                "flush",
                "exec"), seen);
    }

    @Test
    void writesAreReportedWithTheirRowCountsAndReadsAndFailuresAreNot() {
        h.run("CREATE TABLE t (id INT PRIMARY KEY, fk INT)");
        h.run("INSERT INTO t VALUES (1,10),(2,10),(3,20)");
        h.run("INSERT INTO t VALUES (1,99)"); // duplicate key: fails, changes nothing
        h.run("SELECT * FROM t WHERE id = 1");
        h.run("UPDATE t SET fk = fk + 1 WHERE fk = 10");
        h.run("UPDATE t SET fk = 'x' WHERE id = 1"); // type error
        h.run("DELETE FROM t WHERE id = 3");
        h.run("CREATE INDEX t:fk:index ON t (fk)");
        h.run("DROP TABLE nope");
        h.engine.flushAll();
        assertEquals(List.of(
                "1 CREATE TABLE t (id INT PRIMARY KEY, fk INT)",
                "3 INSERT INTO t VALUES (1,10),(2,10),(3,20)",
                "2 UPDATE t SET fk = fk + 1 WHERE fk = 10",
                "1 DELETE FROM t WHERE id = 3",
                "1 CREATE INDEX t:fk:index ON t (fk)",
                "flush"), seen);
    }

    @Test
    void addedListenersAreToldInOrderAfterTheFirst() {
        List<String> second = new ArrayList<>();
        h.engine.addCommitListener(new CommitListener() {
            @Override
            public void committed(String sql, long changes, boolean postgres) {
                second.add(seen.size() + ":" + sql);
            }

            @Override
            public void flushedAll() {
                second.add(seen.size() + ":flush");
            }
        });
        h.run("CREATE TABLE t (id INT PRIMARY KEY)");
        h.engine.flushAll();
        assertEquals(List.of("1 CREATE TABLE t (id INT PRIMARY KEY)", "flush"), seen);
        // Each call reached the second listener after the first had seen it.
        assertEquals(List.of("1:CREATE TABLE t (id INT PRIMARY KEY)", "2:flush"), second);
    }
}
