package dev.weft.channels;

import java.util.concurrent.locks.LockSupport;

/**
 * How a thread waits for its cell (or its select) to change: a short spin with {@link
 * Thread#onSpinWait()}, then {@link LockSupport#park}. The partner changes the state by CAS and
 * then calls {@link LockSupport#unpark}. Nothing here pins a virtual thread's carrier.
 *
 * <p>The spin is adaptive to the kind of thread: spinning pays only when the partner runs on
 * another core at the same time. A virtual thread that spins holds a carrier that the partner may
 * need, so virtual threads spin much less than platform threads ({@code weft.spins.virtual} and
 * {@code weft.spins.platform} override the two budgets, for benchmarking).
 */
final class Waiting {
    private Waiting() {}

    /** Returned by the await methods when the thread was interrupted (the flag is cleared). */
    static final Cells.Marker INTERRUPTED = new Cells.Marker("AWAIT_INTERRUPTED");
    /** Returned by the await methods when the deadline passed. */
    static final Cells.Marker TIMED_OUT = new Cells.Marker("AWAIT_TIMED_OUT");

    static final int VIRTUAL_SPINS = Integer.getInteger("weft.spins.virtual", 32);
    static final int PLATFORM_SPINS = Integer.getInteger("weft.spins.platform", 256);

    /** Spins before a thread gives up its core in a busy-wait for a transient state. */
    private static final int BACKOFF_SPINS = 64;

    static int spinsFor(Thread t) {
        return t.isVirtual() ? VIRTUAL_SPINS : PLATFORM_SPINS;
    }

    /** Whether the cell state still holds {@code me} as its waiter. */
    static boolean holds(Object state, Object me) {
        return state == me || (state instanceof Cells.WaiterEB w && w.waiter == me);
    }

    /**
     * Waits until cell {@code i} of {@code seg} no longer holds {@code me}.
     *
     * @param deadline a {@link System#nanoTime()} deadline, or 0 to wait without one
     * @return the new cell state, or {@link #INTERRUPTED} / {@link #TIMED_OUT}; in the last two
     *     cases the caller must withdraw by CAS and may still lose to the partner
     */
    static Object awaitCell(Segment seg, int i, Thread me, long deadline, Object blocker) {
        for (int spins = spinsFor(me); spins > 0; spins--) {
            Object st = seg.state(i);
            if (!holds(st, me)) {
                return st;
            }
            if ((spins & 15) == 0) {
                if (me.isInterrupted()) {
                    break;
                }
                if (deadline != 0L && deadline - System.nanoTime() <= 0L) {
                    return TIMED_OUT;
                }
            }
            Thread.onSpinWait();
        }
        while (true) {
            Object st = seg.state(i);
            if (!holds(st, me)) {
                return st;
            }
            if (Thread.interrupted()) {
                return INTERRUPTED;
            }
            if (deadline == 0L) {
                LockSupport.park(blocker);
            } else {
                long left = deadline - System.nanoTime();
                if (left <= 0L) {
                    return TIMED_OUT;
                }
                LockSupport.parkNanos(blocker, left);
            }
        }
    }

    /** One step of a busy-wait for a transient state held by another running thread. */
    static int backoff(int step) {
        if (step < BACKOFF_SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
        return step + 1;
    }

    /** Converts a timeout to a deadline: 0 means none, which callers avoid by handling 0 first. */
    static long deadline(long timeoutNanos) {
        long d = System.nanoTime() + timeoutNanos;
        return d == 0L ? 1L : d;
    }
}
