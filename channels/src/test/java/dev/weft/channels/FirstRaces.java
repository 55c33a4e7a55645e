package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Helpers of the tests that race the first uses of a fresh channel ({@link LazyIdRaceTest}, {@link
 * LazyBlockerRaceTest}, {@link LazySideRaceTest}, {@link FreshChannelTrafficTest}: lazily made ids,
 * park blockers and pair-rule Sides): a reusable spin barrier that lets virtual threads run on few carriers, and
 * workers joined with a deadline that dump their own stacks (virtual threads included) on a hang.
 */
final class FirstRaces {
    private FirstRaces() {}

    /**
     * One step of a spin loop: {@code onSpinWait}, and every 64th step a yield (platform) or a
     * park of 20 us (virtual: a virtual thread's {@code Thread.yield()} does not let a virtual
     * thread that was started from a platform thread get a carrier, so 3 or 4 spinning virtual
     * threads on 2 carriers never all arrive; seen on JDK 25).
     */
    static void pause(int spins) {
        if ((spins & 63) == 0) {
            if (Thread.currentThread().isVirtual()) {
                java.util.concurrent.locks.LockSupport.parkNanos(20_000);
            } else {
                Thread.yield();
            }
        } else {
            Thread.onSpinWait();
        }
    }

    /** Spins until {@code ready} reaches {@code n}; fails after 20 s. */
    static void awaitReady(AtomicInteger ready, int n) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        int spins = 0;
        while (ready.get() < n) {
            pause(++spins);
            if ((spins & 4095) == 0 && System.nanoTime() - deadline > 0) {
                throw new AssertionError("not all " + n + " threads got ready");
            }
        }
    }

    /**
     * Waits until thread {@code t} parks untimed (state WAITING) after {@code entered} (set by it
     * right before its channel operation): parked in that operation, not in {@link #pause}'s
     * timed park. Fails after 20 s with its stack.
     */
    static void awaitParkedIn(Thread t, java.util.concurrent.atomic.AtomicBoolean entered) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!(entered.get() && t.getState() == Thread.State.WAITING)) {
            if (t.getState() == Thread.State.TERMINATED) {
                throw new AssertionError(t + " finished instead of waiting");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(t + " did not park in 20 s; state " + t.getState() + "\n" + Forked.stack(t));
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /**
     * Threads that take step {@code i} together: each waits (spinning) until every other party
     * finished step {@code i - 1}. With as many parties as cores the threads leave each wait
     * within a cache miss of each other, so that their first use of a fresh object races.
     */
    static final class Lockstep {
        private static final int STRIDE = 16; // 128 bytes apart
        private final int parties;
        private final java.util.concurrent.atomic.AtomicLongArray done;
        private final long deadline;

        Lockstep(int parties, Duration patience) {
            this.parties = parties;
            this.done = new java.util.concurrent.atomic.AtomicLongArray(parties * STRIDE + STRIDE);
            this.deadline = System.nanoTime() + patience.toNanos();
        }

        /** Waits until every other party has finished step {@code i - 1}. */
        void await(int me, long i) {
            for (int u = 0; u < parties; u++) {
                if (u == me) {
                    continue;
                }
                int spins = 0;
                while (done.get((u + 1) * STRIDE) < i) {
                    pause(++spins);
                    if ((spins & 4095) == 0 && System.nanoTime() - deadline > 0) {
                        throw new AssertionError("lockstep: party " + u + " did not finish step " + (i - 1));
                    }
                }
            }
        }

        /** Party {@code me} finished step {@code i}. */
        void done(int me, long i) {
            done.set((me + 1) * STRIDE, i + 1);
        }
    }

    /** A reusable spin barrier (with {@link #pause}) for a fixed number of parties. */
    static final class SpinBarrier {
        private final int parties;
        private final AtomicInteger arrived = new AtomicInteger();
        private volatile int generation;
        private final long deadline;

        SpinBarrier(int parties, Duration patience) {
            this.parties = parties;
            this.deadline = System.nanoTime() + patience.toNanos();
        }

        void await() {
            int g = generation;
            if (arrived.incrementAndGet() == parties) {
                arrived.set(0);
                generation = g + 1;
                return;
            }
            int spins = 0;
            while (generation == g) {
                pause(++spins);
                if ((spins & 4095) == 0 && System.nanoTime() - deadline > 0) {
                    throw new AssertionError("spin barrier: not all " + parties + " parties arrived");
                }
            }
        }
    }

    interface Body {
        void run(int worker) throws Exception;
    }

    /** A channel operation of thread {@code j} of {@link #startParked}. */
    interface Op {
        void run(int j) throws InterruptedException;
    }

    /**
     * Starts {@code k} threads of {@code kind} that run {@code op} once all of them have started
     * (so that their first uses of a fresh channel race), and returns them once each is parked in
     * its operation ({@link #awaitParkedIn}).
     */
    static Thread[] startParked(ThreadKind kind, int k, Op op) {
        AtomicInteger ready = new AtomicInteger();
        Thread[] ts = new Thread[k];
        java.util.concurrent.atomic.AtomicBoolean[] entered = new java.util.concurrent.atomic.AtomicBoolean[k];
        for (int j = 0; j < k; j++) {
            int me = j;
            entered[j] = new java.util.concurrent.atomic.AtomicBoolean();
            ts[j] = kind.builder().unstarted(() -> {
                ready.incrementAndGet();
                awaitReady(ready, k);
                entered[me].set(true);
                try {
                    op.run(me);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
        }
        for (Thread t : ts) {
            t.start();
        }
        for (int j = 0; j < k; j++) {
            awaitParkedIn(ts[j], entered[j]);
        }
        return ts;
    }

    /** Workers started together; their failures are collected. */
    static final class Workers {
        final List<Thread> threads = new ArrayList<>();
        final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();

        Workers(ThreadKind kind, int n, Body body) {
            for (int w = 0; w < n; w++) {
                int id = w;
                threads.add(kind.builder().name("first-race-worker-" + w).unstarted(() -> {
                    try {
                        body.run(id);
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            threads.forEach(Thread::start);
        }

        /**
         * Joins every worker by {@code patience} from now; a hang fails with the stacks of all the
         * workers still alive and {@code state}; a worker's exception is rethrown.
         */
        void join(Duration patience, Supplier<String> state) throws InterruptedException {
            long deadline = System.nanoTime() + patience.toNanos();
            List<Thread> alive = new ArrayList<>();
            for (Thread t : threads) {
                // the result of join, not isAlive(): join reports a thread whose state is
                // TERMINATED at once, while isAlive() can still be true for a moment (a worker
                // that had finished was reported as a hang, state TERMINATED, in a CI run)
                if (!t.join(Duration.ofNanos(Math.max(deadline - System.nanoTime(), 1L)))) {
                    alive.add(t);
                }
            }
            StringBuilder hung = new StringBuilder();
            for (Thread t : alive) {
                hung.append(t).append(" state ").append(t.getState()).append(" blocker ")
                        .append(java.util.concurrent.locks.LockSupport.getBlocker(t)).append('\n')
                        .append(Forked.stack(t)).append('\n');
            }
            if (hung.length() > 0) {
                String s = state.get();
                threads.forEach(Thread::interrupt);
                fail("hang (lost wake-up?) after " + patience + ":\n" + hung + "state: " + s);
            }
            Throwable f = failures.peek();
            if (f != null) {
                AssertionError e = new AssertionError("worker failed (" + failures.size() + " failures)", f);
                throw e;
            }
        }
    }
}
