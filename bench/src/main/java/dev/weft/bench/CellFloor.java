package dev.weft.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor of weft's own design for one sender and one receiver at capacity 0: the cells and
 * the two counters, and nothing else. There are no segments and no allocation (a ring of {@value
 * #RING} cells, each reset by its waiter once done, which is safe because neither side of a
 * rendezvous can get more than one cell ahead of the other), no close, no buffer, no select, no
 * interrupts, and neither side reads the other's counter.
 * Each side takes its next cell with a getAndIncrement on its own counter. The first of the two
 * to reach a cell installs its thread there by CAS and waits: it spins up to {@code spins} {@link
 * Thread#onSpinWait()}s, then parks. The second finds the thread, completes the cell by CAS and
 * unparks it. The sender leaves its value in the cell's element slot before it looks at the
 * state, as weft's does. Whatever weft pays beyond this per value is the price of its segments,
 * its closing protocol and its waiting policy; this is what the counter-and-cell design itself
 * costs, against {@link Floors#pingPong}, which is what a handoff costs.
 */
final class CellFloor {
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final Object DONE = new Object();
    /** Cells in the ring (a power of two). */
    static final int RING = 1024;

    private CellFloor() {
    }

    /** Moves {@code n} values from a virtual sender to a virtual receiver; returns their sum. */
    static long run(int n, int spins) throws Exception {
        Object[] cells = new Object[2 * RING]; // element of cell i at 2i, its state at 2i + 1
        Counter senders = new Counter();
        Counter receivers = new Counter();
        long[] sum = new long[1];
        VThreads vt = new VThreads(2);
        vt.start(() -> {
            Thread me = Thread.currentThread();
            for (int v = 0; v < n; v++) {
                int s = senders.next() & (RING - 1);
                cells[2 * s] = v;
                meet(cells, 2 * s + 1, me, spins);
            }
        });
        vt.start(() -> {
            Thread me = Thread.currentThread();
            long total = 0;
            for (int v = 0; v < n; v++) {
                int r = receivers.next() & (RING - 1);
                meet(cells, 2 * r + 1, me, spins);
                total += (Integer) cells[2 * r];
            }
            sum[0] = total;
        });
        vt.join();
        return sum[0];
    }

    /**
     * Either side's part in its cell's state slot {@code k}: installs {@code me} and waits for
     * the partner to complete the cell, or completes the cell of the partner that waits there.
     */
    private static void meet(Object[] cells, int k, Thread me, int spins) throws InterruptedException {
        Object st = CELLS.getVolatile(cells, k);
        if (st == null && CELLS.compareAndSet(cells, k, null, me)) {
            for (int left = spins; CELLS.getVolatile(cells, k) == me; ) {
                if (left > 0) {
                    left--;
                    Thread.onSpinWait();
                } else {
                    LockSupport.park(cells);
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                }
            }
            CELLS.setRelease(cells, k, null); // the partner is done with the cell: ready for reuse
            return;
        }
        Thread partner = (Thread) CELLS.getVolatile(cells, k); // only the partner writes it
        CELLS.setVolatile(cells, k, DONE);
        LockSupport.unpark(partner);
    }

    /** One side's cell counter, padded off the other's cache line. */
    @SuppressWarnings("unused")
    static final class Counter {
        private static final VarHandle VALUE;

        static {
            try {
                VALUE = MethodHandles.lookup().findVarHandle(Counter.class, "value", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private long p0, p1, p2, p3, p4, p5, p6, p7;
        private volatile int value;
        private long q0, q1, q2, q3, q4, q5, q6, q7;

        int next() {
            return (int) VALUE.getAndAdd(this, 1);
        }
    }
}
