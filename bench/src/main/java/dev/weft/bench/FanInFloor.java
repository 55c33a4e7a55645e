package dev.weft.bench;

import java.util.concurrent.locks.LockSupport;

/**
 * A reference for fan-in ({@link ContentionBenchmark}'s Nx1 shapes): {@code producers} virtual
 * threads hand values to one consumer with park/unpark and nothing shared between producers. Each
 * producer owns a mailbox of {@code depth} values on its own cache lines (a ring, a volatile count
 * of values put, a volatile count of values taken and a waiting flag); the consumer sweeps the
 * mailboxes in turn and empties every one that holds values. No atomic read-modify-write anywhere, no close, no select, no
 * order between producers. A producer whose mailbox is full and a consumer that finds every mailbox
 * empty call {@link Thread#onSpinWait()} up to {@code spins} times, then set their waiting flag,
 * look once more and park; the other side, after its own write, clears a flag it finds set and
 * unparks that party (each side sets its flag before it looks again, and the other writes its
 * count before it reads the flag, so one of them sees the other: no wake-up is lost; a permit left
 * over only costs one more look).
 *
 * <p>Not a proven bound. Counted as values the consumer can take without any producer running, a
 * depth of 2 holds as many as a full channel of 16 with 16 waiting senders (16 buffered plus each
 * waiting sender's value in its cell: 32), and more than one with 256 (512 against 272). The work
 * per value differs: here a producer parks once per 2 values, where a full channel lets one waiting
 * sender in per value taken, and that sender blocks again on its next send; and a channel's one
 * queue lets the consumer take from whichever sender came. What it shows is what the blocking itself costs
 * when {@code producers} virtual threads outnumber two carriers: a producer that finds its mailbox
 * full costs a park, an unpark by the consumer and a remount.
 */
final class FanInFloor {
    private final Mailbox[] boxes;
    private final Thread[] producers;
    private final Flag consumerWaiting = new Flag();
    private Thread consumer;

    private final int depth;

    private FanInFloor(int producers, int depth) {
        this.depth = depth;
        boxes = new Mailbox[producers];
        for (int p = 0; p < producers; p++) {
            boxes[p] = new Mailbox(depth);
        }
        this.producers = new Thread[producers];
    }

    /** Moves {@code total} values from {@code producers} threads to one; returns their sum. */
    static long run(int total, int producers, int depth, int spins) throws Exception {
        if (total % producers != 0) {
            throw new IllegalArgumentException(producers + " producers do not divide " + total);
        }
        FanInFloor f = new FanInFloor(producers, depth);
        int each = total / producers;
        long[] sum = new long[1];
        VThreads vt = new VThreads(producers + 1);
        for (int p = 0; p < producers; p++) {
            Mailbox box = f.boxes[p];
            f.producers[p] = vt.prepare(() -> {
                for (int v = 1; v <= each; v++) {
                    f.put(box, v, spins);
                }
            });
        }
        f.consumer = vt.prepare(() -> sum[0] = f.takeAll(total, spins));
        for (Thread t : f.producers) {
            t.start();
        }
        f.consumer.start();
        vt.join();
        if (sum[0] != (long) producers * each * (each + 1) / 2) {
            throw new AssertionError("lost or duplicated values: sum " + sum[0]);
        }
        return sum[0];
    }

    private void put(Mailbox box, int value, int spins) throws InterruptedException {
        long p = box.puts;
        for (int s = spins; p - box.taken == depth; ) {
            if (s > 0) {
                s--;
                Thread.onSpinWait();
            } else {
                box.producerWaiting = true; // then look again before parking
                if (p - box.taken == depth) {
                    Floors.park(this);
                }
                box.producerWaiting = false;
            }
        }
        box.values[(int) (p % depth)] = value;
        box.puts = p + 1; // publishes the value
        if (consumerWaiting.set) {
            consumerWaiting.set = false;
            LockSupport.unpark(consumer);
        }
    }

    private long takeAll(int total, int spins) throws InterruptedException {
        long sum = 0;
        int left = total;
        int n = boxes.length;
        int spun = 0;
        while (left > 0) {
            int got = 0;
            for (int k = 0; k < n; k++) {
                Mailbox box = boxes[k];
                long t = box.taken;
                long p = box.puts;
                if (p != t) {
                    for (long i = t; i < p; i++) {
                        sum += box.values[(int) (i % depth)];
                    }
                    box.taken = p; // frees the mailbox
                    if (box.producerWaiting) {
                        box.producerWaiting = false;
                        LockSupport.unpark(producers[k]);
                    }
                    got += (int) (p - t);
                }
            }
            left -= got;
            if (got > 0 || left == 0) {
                spun = 0;
            } else if (spun < spins) {
                spun++;
                Thread.onSpinWait();
            } else {
                consumerWaiting.set = true; // then look at every mailbox again before parking
                if (!anyFull()) {
                    Floors.park(this);
                }
                consumerWaiting.set = false;
                spun = 0;
            }
        }
        return sum;
    }

    private boolean anyFull() {
        for (Mailbox box : boxes) {
            if (box.puts != box.taken) {
                return true;
            }
        }
        return false;
    }

    /** One producer's mailbox, on its own cache lines (128-byte padding on both sides). */
    @SuppressWarnings("unused")
    static final class Mailbox extends MailboxFields {
        Mailbox(int depth) {
            super(depth);
        }

        long q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, qa, qb, qc, qd, qe, qf;
    }

    @SuppressWarnings("unused")
    abstract static class MailboxPad {
        long p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, pa, pb, pc, pd, pe, pf;
    }

    abstract static class MailboxFields extends MailboxPad {
        final int[] values; // written by the producer before it publishes them in puts

        MailboxFields(int depth) {
            values = new int[depth];
        }

        volatile long puts;
        volatile long taken;
        volatile boolean producerWaiting;
    }

    /** The consumer's waiting flag, on its own cache lines. */
    @SuppressWarnings("unused")
    static final class Flag extends FlagField {
        long q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, qa, qb, qc, qd, qe, qf;
    }

    abstract static class FlagField extends MailboxPad {
        volatile boolean set;
    }
}
