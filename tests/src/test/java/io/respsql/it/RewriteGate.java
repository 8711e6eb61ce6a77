package io.respsql.it;

import io.respsql.persist.AppendOnlyFile;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a log rewrite after its snapshot is written and before it finishes, so a test can act
 * while the rewrite is in progress: {@link #awaitHeld()}, act, then {@link #release()}.
 */
final class RewriteGate {
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    RewriteGate(AppendOnlyFile aof) {
        aof.rewriteHook(() -> {
            held.countDown();
            try {
                released.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** True once the rewrite is held (within 30 s). */
    boolean awaitHeld() throws InterruptedException {
        return held.await(30, TimeUnit.SECONDS);
    }

    void release() {
        released.countDown();
    }
}
