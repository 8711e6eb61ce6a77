package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The deadlines a statement is stopped by: the timeout's error, the loop bound's flag, re-arming. */
class CancellationTest {
    private static final long HOUR = 3_600_000_000_000L;

    @Test
    void nothingArmedNeverStops() {
        Cancellation c = new Cancellation();
        c.check();
        c.disarm();
        c.check();
        assertFalse(c.cancelled());
    }

    @Test
    void aPassedTimeoutStopsWithItsReasonAndCode() {
        Cancellation c = new Cancellation();
        long now = System.nanoTime();
        c.arm(now - 1, "query cancelled: statement timeout of 50 ms", now + HOUR, "loop bound");
        SqlException e = assertThrows(SqlException.class, c::check);
        assertEquals("query cancelled: statement timeout of 50 ms", e.getMessage());
        assertEquals(SqlState.QUERY_CANCELED, e.sqlState());
        assertFalse(c.loopBoundHit());
        assertTrue(c.cancelled());
    }

    @Test
    void thePassedLoopBoundIsFlaggedUntilTheReplyStarts() {
        Cancellation c = new Cancellation();
        long now = System.nanoTime();
        c.arm(now + HOUR, "timeout", now - 1, "loop bound");
        assertEquals("loop bound", assertThrows(SqlException.class, c::check).getMessage());
        assertTrue(c.loopBoundHit());
        // re-armed for the next statement: nothing left over
        c.arm(now + HOUR, "timeout", now - 1, "loop bound");
        c.replyStarted();
        c.check(); // the loop bound no longer applies once the reply is being encoded
        assertFalse(c.loopBoundHit());
        assertFalse(c.cancelled());
    }

    @Test
    void anExplicitCancelWinsAndArmingClearsIt() {
        Cancellation c = new Cancellation();
        c.arm(System.nanoTime() + HOUR, "timeout", 0, null);
        c.check();
        c.cancel("query cancelled: by CLIENT CANCEL from client id=3");
        c.cancel("second reason is ignored");
        assertEquals("query cancelled: by CLIENT CANCEL from client id=3",
                assertThrows(SqlException.class, c::check).getMessage());
        c.disarm();
        c.check();
    }

    @Test
    void aShutdownSurvivesReArmingAndIsNeverALoopBoundHit() {
        Cancellation c = new Cancellation();
        long now = System.nanoTime();
        c.arm(now + HOUR, "timeout", now - 1, "loop bound");
        c.shutDown("query cancelled: server shutting down");
        // re-armed for the next statement (as the event loop does, and as a job is armed): still stopped
        c.arm(now + HOUR, "timeout", now - 1, "loop bound");
        SqlException e = assertThrows(SqlException.class, c::check);
        assertEquals("query cancelled: server shutting down", e.getMessage());
        assertFalse(c.loopBoundHit(), "a statement stopped by the shutdown must not move to a worker");
        c.disarm();
        assertTrue(c.cancelled());
        assertEquals("query cancelled: server shutting down", c.reason());
        assertThrows(SqlException.class, c::check);
    }

    @Test
    void aLoopBoundHitIsDroppedWhenTheShutdownComesAfter() {
        Cancellation c = new Cancellation();
        long now = System.nanoTime();
        c.arm(0, null, now - 1, "loop bound");
        assertThrows(SqlException.class, c::check);
        assertTrue(c.loopBoundHit());
        c.shutDown("query cancelled: server shutting down");
        assertFalse(c.loopBoundHit());
        assertEquals("query cancelled: server shutting down", c.reason());
    }

    @Test
    void hugeDeadlinesSaturateInsteadOfWrapping() {
        long now = System.nanoTime();
        for (long ms : new long[] {Integer.MAX_VALUE, 9_999_999_999L * 60_000, Long.MAX_VALUE}) {
            long at = Cancellation.deadline(now, ms);
            assertTrue(at - now > 0, ms + " ms gave a deadline in the past");
            Cancellation c = new Cancellation();
            c.arm(at, "timeout", at, "loop bound");
            c.check(); // not passed
            assertFalse(c.cancelled());
        }
        assertEquals(now + 50_000_000L, Cancellation.deadline(now, 50));
    }
}
