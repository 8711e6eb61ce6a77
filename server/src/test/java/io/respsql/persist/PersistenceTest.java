package io.respsql.persist;

import io.respsql.config.ServerConfig;
import io.respsql.engine.CommitListener;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PersistenceTest {
    @TempDir
    Path dir;

    @Test
    void commitsCountChangesThenReachTheAppendLog() throws Exception {
        ServerConfig config = new ServerConfig().dir(dir).save("");
        Persistence p = new Persistence(config, new Catalog(), Runnable::run);
        List<String> log = new ArrayList<>();
        p.appendLog(new CommitListener() {
            @Override
            public void committed(String sql, long changes, boolean postgres) {
                log.add(changes + (postgres ? " pg " : " ") + sql);
            }

            @Override
            public void flushedAll() {
                log.add("flush");
            }
        }, sb -> sb.append("aof_enabled:1\r\n"));
        p.committed("INSERT INTO t VALUES (1),(2)", 2, false);
        p.committedText("INSERT INTO t VALUES ('3'::int)", 1, true); // the dialect reaches the log too
        p.flushedAll();
        assertEquals(List.of("2 INSERT INTO t VALUES (1),(2)", "1 pg INSERT INTO t VALUES ('3'::int)", "flush"), log);
        assertEquals(4, p.changesSinceLastSave());
        StringBuilder info = new StringBuilder();
        p.info(info);
        assertTrue(info.toString().contains("rdb_changes_since_last_save:4\r\n"), info.toString());
        assertTrue(info.toString().endsWith("aof_enabled:1\r\n"), "the log's fields follow the snapshot's");

        p.save();
        assertEquals(0, p.changesSinceLastSave());
        assertTrue(Files.exists(dir.resolve("dump.rsql")));
        assertFalse(p.backgroundSaveInProgress());
    }

    @Test
    void shutdownSavesOnlyWhenAskedOrScheduled() throws Exception {
        ServerConfig config = new ServerConfig().dir(dir).save("");
        Persistence p = new Persistence(config, new Catalog(), Runnable::run);
        assertEquals(null, p.prepareShutdown(Persistence.ShutdownSave.DEFAULT));
        assertEquals(null, p.prepareShutdown(Persistence.ShutdownSave.NOSAVE));
        assertFalse(Files.exists(dir.resolve("dump.rsql")));
        config.save("3600 1");
        assertEquals(null, p.prepareShutdown(Persistence.ShutdownSave.DEFAULT));
        assertTrue(Files.exists(dir.resolve("dump.rsql")));
        Files.delete(dir.resolve("dump.rsql"));
        Files.delete(dir);
        String refusal = p.prepareShutdown(Persistence.ShutdownSave.SAVE);
        assertTrue(refusal.startsWith("Errors trying to SHUTDOWN: saving the snapshot failed: "), refusal);
        assertThrows(java.io.IOException.class, p::save);
    }
}
