package io.respsql.bench.soak;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SoakOptionsTest {
    @Test
    void defaults() throws Exception {
        SoakOptions o = SoakOptions.parse();
        assertEquals(200, o.connections);
        assertEquals(300, o.durationSeconds);
        assertEquals(50_000_000, o.maxRequests);
        assertArrayEquals(new int[] {30, 70, 90, 100}, o.cumulativeMix());
        assertTrue((long) o.connections * o.span() < Integer.MAX_VALUE);
    }

    @Test
    void refusesHostsThatAreNotLoopback() {
        SoakOptions.UsageException e = assertThrows(SoakOptions.UsageException.class,
            () -> SoakOptions.parse("--host", "10.1.2.3"));
        assertTrue(e.getMessage().contains("loopback"), e.getMessage());
    }

    @Test
    void rejectsBadValues() {
        assertThrows(SoakOptions.UsageException.class, () -> SoakOptions.parse("--mix", "1,2,3"));
        assertThrows(SoakOptions.UsageException.class, () -> SoakOptions.parse("--mix", "0,0,0,0"));
        assertThrows(SoakOptions.UsageException.class, () -> SoakOptions.parse("--duration", "-1"));
        assertThrows(SoakOptions.UsageException.class, () -> SoakOptions.parse("--connections", "0"));
        assertThrows(SoakOptions.UsageException.class, () -> SoakOptions.parse("--connections"));
        assertThrows(SoakOptions.UsageException.class, () -> SoakOptions.parse("--nope", "1"));
    }
}
