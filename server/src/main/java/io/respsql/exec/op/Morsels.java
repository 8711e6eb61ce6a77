package io.respsql.exec.op;

import io.respsql.expr.EvalContext;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Parallel execution of one statement on several workers (issue 27; morsel-driven, Leis et al.,
 * SIGMOD 2014): an operator that can split its input asks {@link #current()} on its thread and,
 * when a context is set, splits a read view's table into {@link #stripes} stripes of morsels
 * (stripe s: the morsels of {@link #unit} row slots numbered s, s + stripes, s + 2 stripes,
 * ...), runs each stripe once with state of its own ({@link #run}) and merges the stripes'
 * results in stripe order. Which thread runs a stripe does not change its result, so the answer
 * does not depend on scheduling (a float sum depends only on the stripe count).
 *
 * <p>Set only by the background workers, around a statement planned against a read view (its
 * tables never change while it runs) and without subqueries (a subquery caches its result in its
 * plan per context, which two threads must not share): {@link #enter}/{@link #exit}. The helpers
 * come from the pool the statement runs on, so a busy pool never has more threads than it has:
 * a helper that starts late finds every stripe taken and returns, the statement's own thread
 * having run the stripes nobody took.
 */
public final class Morsels {
    private static final ThreadLocal<Morsels> CURRENT = new ThreadLocal<>();

    private final Executor pool;
    private final int degree;
    /** Row slots per morsel: a storage chunk by default (bg-query-morsel-rows); at least 64. */
    private final int unit;

    /** {@code unitRows}: row slots per morsel (a multiple of 64 is best; tests lower it to split small tables). */
    public Morsels(Executor pool, int degree, int unitRows) {
        this.pool = pool;
        this.degree = Math.max(1, degree);
        this.unit = Math.max(64, unitRows);
    }

    /** The calling thread's parallel context, or null (run serially). */
    public static Morsels current() {
        return CURRENT.get();
    }

    /** Makes {@code m} (null: none) the calling thread's context until {@link #exit}. */
    public static void enter(Morsels m) {
        CURRENT.set(m);
    }

    public static void exit() {
        CURRENT.remove();
    }

    public int degree() {
        return degree;
    }

    /** Row slots per morsel (at least 64, a live-bitmap word). */
    public int unit() {
        return unit;
    }

    /** Stripes for a table of {@code highWater} row slots: at most the degree, at least 1, one morsel or more each. */
    public int stripes(int highWater) {
        long morsels = ((long) highWater + unit - 1) / unit;
        return (int) Math.max(1, Math.min(degree, morsels));
    }

    /**
     * A context of its own for one stripe: the parent's slots (outer rows), parameters, statement
     * time and cancellation; run state (selection vectors, ...) apart.
     */
    public static EvalContext child(EvalContext parent) {
        EvalContext c = new EvalContext(parent.slots.length);
        System.arraycopy(parent.slots, 0, c.slots, 0, parent.slots.length);
        c.params = parent.params;
        c.statementMicros = parent.statementMicros;
        c.cancel = parent.cancel;
        return c;
    }

    /**
     * Runs {@code stripe.accept(s)} once for every s in [0, stripes): on the calling thread and on
     * up to stripes - 1 helpers of the pool, each claiming the next stripe nobody took. Returns
     * when every stripe has finished; the first failure (a cancellation, an error) is rethrown
     * after all have stopped, and stops stripes not yet started.
     */
    public void run(int stripes, IntConsumer stripe) {
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(stripes);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable claim = () -> {
            int s;
            while ((s = next.getAndIncrement()) < stripes) {
                try {
                    if (failure.get() == null) {
                        stripe.accept(s);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    done.countDown();
                }
            }
        };
        for (int h = 1; h < stripes; h++) {
            try {
                pool.execute(claim);
            } catch (RejectedExecutionException e) {
                break; // the pool is shutting down: this thread runs the rest
            }
        }
        claim.run();
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the stripes stop through the statement's cancellation
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable t = failure.get();
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new IllegalStateException(t);
        }
    }
}
