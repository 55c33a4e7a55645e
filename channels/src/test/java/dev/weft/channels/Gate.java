package dev.weft.channels;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Holds one thread at a fault probe ({@link Faults#probe}) until the test releases it: the thread
 * calls {@link #hold()} from the probe, the test waits with {@link #awaitHeld()} and lets it go
 * with {@link #release()}. How the replay tests put an interleaving together step by step.
 */
final class Gate {
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final CountDownLatch left = new CountDownLatch(1);

    /** Called by the held thread (from a probe): signals that it is here, then waits for release. */
    void hold() {
        held.countDown();
        try {
            if (!released.await(Forked.PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the test never released the held thread");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            left.countDown();
        }
    }

    /** Waits until a thread is held; false if none came within the patience. */
    boolean awaitHeld() throws InterruptedException {
        return held.await(Forked.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    }

    void release() {
        released.countDown();
    }

    /**
     * Releases the held thread and waits until it has left the gate, so that a thread state
     * read afterwards (say WAITING) is about the operation, not about the gate.
     */
    void releaseAndAwaitLeft() throws InterruptedException {
        release();
        if (!left.await(Forked.PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the held thread did not leave the gate");
        }
    }

    /**
     * Installs a probe that holds {@code thread} the first time it reaches {@code point}: it
     * counts {@code reached} down there and waits until {@code release} opens. Later arrivals,
     * and other threads, pass. An interrupt while held ends the hold and keeps the flag set.
     */
    static void holdFirstArrival(String point, Thread thread, CountDownLatch reached, CountDownLatch release) {
        AtomicBoolean once = new AtomicBoolean();
        Faults.probe = p -> {
            if (p.equals(point) && Thread.currentThread() == thread && once.compareAndSet(false, true)) {
                reached.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
