package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Arrays;

/** Small helpers for the regression tests: start a thread, join with a deadline, await parking. */
final class Threads {
    private Threads() {}

    interface Body {
        void run() throws Exception;
    }

    static Thread start(Body body) {
        return Thread.ofPlatform().start(() -> {
            try {
                body.run();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    static void join(Object context, Thread... threads) throws InterruptedException {
        for (Thread t : threads) {
            if (!t.join(Duration.ofSeconds(20))) {
                fail("thread did not finish in 20 s (hang/livelock?) at " + Arrays.toString(t.getStackTrace())
                        + "\n" + context);
            }
        }
    }

    /** Waits until {@code t} is parked (WAITING/TIMED_WAITING) or finished. */
    static void awaitParked(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (t.isAlive() && t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() > deadline) {
                fail("thread did not park in 10 s");
            }
            Thread.onSpinWait();
        }
    }
}
