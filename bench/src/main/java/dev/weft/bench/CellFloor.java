package dev.weft.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A reference point for weft's rendezvous pair: its design reduced to cells and two counters. A
 * virtual sender and a virtual receiver take their cells with a getAndIncrement each on their
 * own counter, in a ring of {@value #RING} cells (each reset by its waiter once done, which is
 * safe because neither side of a rendezvous gets more than one cell ahead of the other). The
 * first of the two to reach a cell installs its thread there by CAS and waits: it spins up to
 * {@code spins} {@link Thread#onSpinWait()}s, then parks. The second finds the thread, completes
 * the cell with a volatile store and unparks it. The sender leaves its value in the cell's element
 * slot before it looks at the state, and the receiver clears the slot after taking it, as weft's
 * do. There are no segments, no allocation (the value is one constant, as in the scenario), no
 * close, no buffer, no select, and no interrupt handling beyond the park's.
 *
 * <p>It is not a proven lower bound of the design. It leaves out what weft must do (the
 * completing CAS, since a waiter may withdraw; the segments) and does what weft need not (the
 * reset store), and its waiting policy is one fixed spin, not weft's adaptive one. (Until
 * 863c81b weft's first to arrive also read the other side's counter, whose line the other side
 * writes on every value; its plain rendezvous send and receive now install themselves at once,
 * as here.)
 */
final class CellFloor {
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final Object DONE = new Object();
    /** Cells in the ring (a power of two). */
    static final int RING = 1024;

    private CellFloor() {
    }

    /**
     * Moves {@code n} values from a virtual sender to a virtual receiver; returns the number of
     * values received.
     */
    static long run(int n, int spins) throws Exception {
        Object[] cells = new Object[2 * RING]; // element of cell i at 2i, its state at 2i + 1
        PaddedCounter senders = new PaddedCounter(0);
        PaddedCounter receivers = new PaddedCounter(0);
        long[] received = new long[1];
        VThreads vt = new VThreads(2);
        vt.start(() -> {
            Thread me = Thread.currentThread();
            for (int v = 0; v < n; v++) {
                int s = (int) senders.next() & (RING - 1);
                cells[2 * s] = Chan.VALUE;
                meet(cells, 2 * s + 1, me, spins);
            }
        });
        vt.start(() -> {
            Thread me = Thread.currentThread();
            long count = 0;
            for (int v = 0; v < n; v++) {
                int r = (int) receivers.next() & (RING - 1);
                meet(cells, 2 * r + 1, me, spins);
                if (cells[2 * r] == Chan.VALUE) {
                    count++;
                }
                cells[2 * r] = null; // as weft's receiver clears the slot it took the value from
            }
            received[0] = count;
        });
        vt.join();
        if (received[0] != n) {
            throw new IllegalStateException("received " + received[0] + " of " + n + " values");
        }
        return received[0];
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
                    Floors.park(cells);
                }
            }
            CELLS.setRelease(cells, k, null); // the partner is done with the cell: ready for reuse
            return;
        }
        Thread partner = (Thread) CELLS.getVolatile(cells, k); // only the partner writes it
        CELLS.setVolatile(cells, k, DONE);
        LockSupport.unpark(partner);
    }
}
