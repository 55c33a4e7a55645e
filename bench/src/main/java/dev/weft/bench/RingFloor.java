package dev.weft.bench;

import java.util.concurrent.locks.LockSupport;

/**
 * The floor of a buffered pair: the cheapest blocking queue of {@code capacity} values for one
 * producer and one consumer thread that we know how to write, with no channel semantics at all (no
 * close, no select, no second producer, no interruption). An int ring with a plain slot per value,
 * a volatile count on each side (each on its own cache lines, each side caching the other's), and
 * a waiting flag per side: a side that finds the ring full (or empty) calls {@link
 * Thread#onSpinWait()} up to {@code spins} times, then sets its flag and parks until the other side
 * moves its count; the other side unparks it only when the flag is set (both sides write their own
 * field, then read the other's, so no wake-up is lost).
 *
 * <p>With {@code spins = 0} a waiting side parks at once and the pair takes turns on one carrier,
 * a ring's worth of values per turn: every turn costs two park/unpark handoffs, so the cost per
 * value is at least two such handoffs divided by the capacity. With spins, each side can stay on
 * its own carrier and the values stream between two cores.
 */
final class RingFloor {
    private final int capacity;
    private final int[] slots;
    private final Counters counters = new Counters();

    RingFloor(int capacity) {
        this.capacity = capacity;
        this.slots = new int[capacity];
    }

    /** Moves {@code values} values from a producer to a consumer thread; returns their sum. */
    static long run(int values, int capacity, int spins) throws Exception {
        RingFloor ring = new RingFloor(capacity);
        long[] sum = new long[1];
        VThreads vt = new VThreads(2);
        Thread[] side = new Thread[2];
        side[0] = vt.prepare(() -> {
            for (int v = 0; v < values; v++) {
                ring.put(v, spins, side[1]);
            }
        });
        side[1] = vt.prepare(() -> {
            long s = 0;
            for (int v = 0; v < values; v++) {
                s += ring.take(spins, side[0]);
            }
            sum[0] = s;
        });
        side[0].start();
        side[1].start();
        vt.join();
        if (sum[0] != (long) values * (values - 1) / 2) {
            throw new AssertionError("lost or duplicated values: sum " + sum[0]);
        }
        return sum[0];
    }

    // producer-only state: the next index to put, and the consumer's count as last read
    private long tail;
    private long headSeen;
    // consumer-only state
    private long head;
    private long tailSeen;

    void put(int value, int spins, Thread consumer) throws InterruptedException {
        long t = tail;
        if (t - headSeen == capacity) {
            headSeen = counters.head;
            for (int s = spins; t - headSeen == capacity; headSeen = counters.head) {
                if (s > 0) {
                    s--;
                    Thread.onSpinWait();
                } else {
                    counters.producerWaiting = true; // then read head again before parking
                    if (t - (headSeen = counters.head) == capacity) {
                        Floors.park(this);
                    }
                    counters.producerWaiting = false;
                }
            }
        }
        slots[(int) (t % capacity)] = value;
        tail = t + 1;
        counters.tail = t + 1; // publishes the slot
        if (counters.consumerWaiting) {
            counters.consumerWaiting = false;
            LockSupport.unpark(consumer);
        }
    }

    int take(int spins, Thread producer) throws InterruptedException {
        long h = head;
        if (h == tailSeen) {
            tailSeen = counters.tail;
            for (int s = spins; h == tailSeen; tailSeen = counters.tail) {
                if (s > 0) {
                    s--;
                    Thread.onSpinWait();
                } else {
                    counters.consumerWaiting = true;
                    if (h == (tailSeen = counters.tail)) {
                        Floors.park(this);
                    }
                    counters.consumerWaiting = false;
                }
            }
        }
        int v = slots[(int) (h % capacity)];
        head = h + 1;
        counters.head = h + 1; // frees the slot
        if (counters.producerWaiting) {
            counters.producerWaiting = false;
            LockSupport.unpark(producer);
        }
        return v;
    }

    /** The shared fields, each on its own cache lines (128-byte padding against the prefetcher). */
    @SuppressWarnings("unused")
    static final class Counters extends CountersTail {
        long q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, qa, qb, qc, qd, qe, qf;
    }

    @SuppressWarnings("unused")
    abstract static class Pad0 {
        long p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, pa, pb, pc, pd, pe, pf;
    }

    abstract static class CountersHead extends Pad0 {
        volatile long head;
        volatile boolean consumerWaiting;
    }

    @SuppressWarnings("unused")
    abstract static class Pad1 extends CountersHead {
        long r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, ra, rb, rc, rd, re, rf;
    }

    abstract static class CountersTail extends Pad1 {
        volatile long tail;
        volatile boolean producerWaiting;
    }
}
