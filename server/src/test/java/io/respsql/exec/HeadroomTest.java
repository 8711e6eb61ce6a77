package io.respsql.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HeadroomTest {
    @Test
    void roomIsThereOrTheErrorComesFirst() {
        Headroom h = new Headroom();
        assertDoesNotThrow(() -> h.ensure(1024));
        assertDoesNotThrow(() -> h.ensure(0));
        // More than the whole heap: the error comes from ensure, before any write would start.
        assertThrows(OutOfMemoryError.class, () -> h.ensure(Runtime.getRuntime().maxMemory() * 2));
        // And the next small statement reads the heap again and passes.
        assertDoesNotThrow(() -> h.ensure(1024));
    }
}
