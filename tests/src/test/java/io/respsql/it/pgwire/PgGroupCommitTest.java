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
 * prepared: with {@code appendfsync always} the group commit's fsync runs off the event loop. While
 * it is in flight the loop goes on: a statement inside another connection's transaction block is
 * answered (it depends on no record being written: its own writes are logged at its COMMIT), while
 * the reply of the write being fsynced, and of an autocommit statement, waits for the fsync; a
 * restarted server loads every acknowledged commit.
 */
class PgGroupCommitTest {
    @TempDir
    Path dir;

    private static Connection connect(TestServer s) throws SQLException {
        return DriverManager.getConnection(PgJdbcTest.url(s, ""), "tester", "");
    }

    @Test
    void aTransactionGoesOnWhileAnotherCommitIsFsynced() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS).pgPort(0));
             Connection a = connect(s); Connection b = connect(s); Connection auto = connect(s)) {
            try (Statement st = a.createStatement()) {
                st.execute("CREATE TABLE gc (id INT PRIMARY KEY, v INT)");
                st.execute("INSERT INTO gc VALUES (1, 10)");
            }
            AppendOnlyFile aof = s.server().appendOnlyFile();
            CountDownLatch inFsync = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean loopThread = new AtomicBoolean(true);
            aof.fsyncObserver(size -> {
                if (inFsync.getCount() == 0) {
                    return;
                }
                loopThread.set(Thread.currentThread().getName().startsWith("respsql-loop"));
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
                        return st.executeUpdate("INSERT INTO gc VALUES (2, 20)");
                    } catch (SQLException e) {
                        throw new RuntimeException(e);
                    }
                });
                assertTrue(inFsync.await(30, TimeUnit.SECONDS), "the INSERT's record is fsynced");
                assertFalse(loopThread.get(), "fsynced off the event loop");
                // inside a transaction block: answered while the fsync is held
                b.setAutoCommit(false);
                try (Statement st = b.createStatement()) {
                    assertEquals(1, st.executeUpdate("UPDATE gc SET v = v + 1 WHERE id = 1"));
                    try (ResultSet rs = st.executeQuery("SELECT v FROM gc WHERE id = 1")) {
                        assertTrue(rs.next());
                        assertEquals(11, rs.getInt(1));
                    }
                }
                assertFalse(insert.isDone(), "the INSERT's reply waits for its fsync");
                // an autocommit statement's reply waits for the fsync in flight
                CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
                    try (Statement st = auto.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM gc")) {
                        rs.next();
                        return rs.getInt(1);
                    } catch (SQLException e) {
                        throw new RuntimeException(e);
                    }
                });
                // b's COMMIT: its reply too waits (its record follows the one being fsynced)
                CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
                    try {
                        b.commit();
                    } catch (SQLException e) {
                        throw new RuntimeException(e);
                    }
                });
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
                while (System.nanoTime() < deadline) {
                    assertFalse(insert.isDone() || read.isDone() || commit.isDone(), "a reply left before the fsync ended");
                    Thread.onSpinWait();
                }
                release.countDown();
                assertEquals(1, insert.get(30, TimeUnit.SECONDS));
                assertEquals(2, read.get(30, TimeUnit.SECONDS));
                commit.get(30, TimeUnit.SECONDS);
            } finally {
                release.countDown();
                aof.fsyncObserver(null);
            }
        }
        // every acknowledged commit is in the file
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS).pgPort(0));
             Connection c = connect(s); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, v FROM gc ORDER BY id")) {
            assertTrue(rs.next());
            assertEquals(11, rs.getInt(2));
            assertTrue(rs.next());
            assertEquals(20, rs.getInt(2));
            assertFalse(rs.next());
        }
    }
}
