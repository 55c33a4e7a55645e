package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * A task running on its own thread, with its outcome (value or exception) captured, and helpers
 * to wait until it is parked in a channel operation and to join it with a deadline (a hang fails
 * the test with the thread's stack instead of hanging the build).
 */
final class Forked<T> {
    /** How long joins and "wait until blocked" polls wait before failing the test. */
    static final Duration PATIENCE = Duration.ofSeconds(20);

    private final Thread thread;
    private volatile T value;
    private volatile Throwable failure;
    /** The interrupt status of the thread right after the task returned or threw. */
    private volatile boolean interruptedAtEnd;

    private Forked(ThreadKind kind, Callable<T> task) {
        this.thread = kind.builder().unstarted(() -> {
            try {
                value = task.call();
            } catch (Throwable t) {
                failure = t;
            } finally {
                interruptedAtEnd = Thread.currentThread().isInterrupted();
            }
        });
        thread.start();
    }

    static <T> Forked<T> start(ThreadKind kind, Callable<T> task) {
        return new Forked<>(kind, task);
    }

    static <T> Forked<T> virtual(Callable<T> task) {
        return start(ThreadKind.VIRTUAL, task);
    }

    static <T> Forked<T> platform(Callable<T> task) {
        return start(ThreadKind.PLATFORM, task);
    }

    /** Convenience for tasks without a result. */
    interface Action {
        void run() throws Exception;
    }

    static Forked<Void> run(ThreadKind kind, Action action) {
        return start(kind, () -> {
            action.run();
            return null;
        });
    }

    Thread thread() {
        return thread;
    }

    void interrupt() {
        thread.interrupt();
    }

    /** Waits until the thread has finished; fails the test (with its stack) if it does not in time. */
    Forked<T> join() throws InterruptedException {
        return join(PATIENCE);
    }

    Forked<T> join(Duration patience) throws InterruptedException {
        if (!thread.join(patience)) {
            fail("thread " + thread + " did not finish within " + patience + "; state "
                    + thread.getState() + ", stack:\n" + stack(thread));
        }
        return this;
    }

    /** Joins and returns the value; rethrows the task's exception. */
    T get() throws Exception {
        return get(PATIENCE);
    }

    /** Like {@link #get()}, waiting at most {@code patience}. */
    T get(Duration patience) throws Exception {
        join(patience);
        Throwable t = failure;
        if (t == null) {
            return value;
        }
        if (t instanceof Exception e) {
            throw e;
        }
        throw (Error) t;
    }

    /** Joins and returns the exception the task threw, or {@code null}. */
    Throwable failure() throws InterruptedException {
        join();
        return failure;
    }

    /** Joins and returns the value, failing the test if the task threw. */
    T value() throws InterruptedException {
        join();
        if (failure != null) {
            throw new AssertionError("task failed", failure);
        }
        return value;
    }

    boolean interruptedAtEnd() throws InterruptedException {
        join();
        return interruptedAtEnd;
    }

    /**
     * Whether the thread has finished. Its state, not {@code isAlive()}: a platform thread's state
     * turns TERMINATED (and {@code join(Duration)} returns true) a moment before isAlive() turns false.
     */
    boolean isDone() {
        return thread.getState() == Thread.State.TERMINATED;
    }

    /** Waits until the thread is parked (WAITING or TIMED_WAITING); fails if it finishes instead. */
    Forked<T> awaitBlocked() {
        if (!pollUntilBlocked(thread)) {
            fail("thread finished instead of blocking: value=" + value + ", failure=" + failure);
        }
        return this;
    }

    /**
     * Polls {@code t.getState()} until it reports WAITING or TIMED_WAITING (a parked virtual thread
     * reports WAITING too). This is how tests know a thread is waiting inside a channel operation
     * without sleeping.
     */
    static void awaitBlocked(Thread t) {
        if (!pollUntilBlocked(t)) {
            fail("thread " + t + " finished instead of blocking");
        }
    }

    /** Returns true once {@code t} is parked, false if it terminated; fails the test on timeout. */
    static boolean awaitBlockedOrDone(Thread t) {
        return pollUntilBlocked(t);
    }

    private static boolean pollUntilBlocked(Thread t) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        int spins = 0;
        while (true) {
            Thread.State s = t.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                return true;
            }
            if (s == Thread.State.TERMINATED) {
                return false;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("thread " + t + " did not block within " + PATIENCE + "; state " + s
                        + ", stack:\n" + stack(t));
            }
            if (++spins < 100) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
        }
    }

    /** What {@code task} returned, or what it threw: for bodies of threads a test starts itself. */
    static Object outcome(Callable<?> task) {
        try {
            return task.call();
        } catch (Throwable t) {
            return t;
        }
    }

    static String stack(Thread t) {
        return Arrays.stream(t.getStackTrace()).map(e -> "    at " + e).collect(Collectors.joining("\n"));
    }
}
