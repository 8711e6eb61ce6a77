package io.respsql.it.pgwire;

import io.respsql.config.FsyncPolicy;
import io.respsql.it.TestServer;
import io.respsql.persist.AppendOnlyFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * review1: with the fsync in flight, a pgwire COMMIT of a block that read the commit being fsynced
 * is not acknowledged before that fsync, also when a BEGIN follows it in the same batch of
 * messages (the connection is then in a block again when its replies are flushed).
 */
class PgGroupCommitChainTest {
    @TempDir
    Path dir;

    private static Connection connect(TestServer s) throws SQLException {
        return DriverManager.getConnection(PgJdbcTest.url(s, ""), "tester", "");
    }

    @Test
    void commitFollowedByBeginWaitsForTheFsyncInFlight() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS).pgPort(0));
             Connection a = connect(s); Connection b = connect(s)) {
            try (Statement st = a.createStatement()) {
                st.execute("CREATE TABLE gcc (id INT PRIMARY KEY, v INT)");
                st.execute("INSERT INTO gcc VALUES (1, 10)");
            }
            try (Statement st = b.createStatement()) {
                st.execute("BEGIN");
            }
            AppendOnlyFile aof = s.server().appendOnlyFile();
            CountDownLatch inFsync = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            aof.fsyncObserver(size -> {
                if (inFsync.getCount() == 0) {
                    return;
                }
                inFsync.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                CompletableFuture<Integer> insert = CompletableFuture.supplyAsync(() -> {
                    try (Statement st = a.createStatement()) {
                        return st.executeUpdate("INSERT INTO gcc VALUES (2, 20)");
                    } catch (SQLException e) {
                        throw new RuntimeException(e);
                    }
                });
                assertTrue(inFsync.await(30, TimeUnit.SECONDS), "the INSERT's record is fsynced");
                try (Statement st = b.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM gcc")) {
                    assertTrue(rs.next());
                    assertEquals(2, rs.getInt(1)); // read inside the block while the fsync is held (as designed)
                }
                CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
                    try (Statement st = b.createStatement()) {
                        st.execute("COMMIT; BEGIN");
                    } catch (SQLException e) {
                        throw new RuntimeException(e);
                    }
                });
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
                while (System.nanoTime() < deadline) {
                    assertFalse(insert.isDone() || commit.isDone(), "a COMMIT was acknowledged before the fsync of what it read");
                    Thread.onSpinWait();
                }
                release.countDown();
                assertEquals(1, insert.get(30, TimeUnit.SECONDS));
                commit.get(30, TimeUnit.SECONDS);
            } finally {
                release.countDown();
                aof.fsyncObserver(null);
            }
        }
    }
}
