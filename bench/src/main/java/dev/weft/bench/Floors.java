package dev.weft.bench;

import java.util.concurrent.locks.LockSupport;

/**
 * The physical floors the channel scenarios are measured against: the least a handoff between
 * threads costs with nothing but a volatile field and {@link LockSupport#park}/{@link
 * LockSupport#unpark}, no channel at all. A channel that moves a value from one thread to another
 * waiting one cannot do less than one such handoff per value.
 */
final class Floors {

    private Floors() {
    }

    /**
     * Two threads pass a turn back and forth {@code handoffs} times in all: each waits until the
     * shared volatile {@code turn} names it, passes the turn to the other and unparks it. A waiting
     * thread first calls {@link Thread#onSpinWait()} up to {@code spins} times, then parks (0: it
     * parks at once).
     */
    static void pingPong(int handoffs, int spins, boolean platform) throws Exception {
        Turn turn = new Turn();
        VThreads vt = new VThreads(2, platform);
        Thread[] side = new Thread[2];
        for (int me = 0; me < 2; me++) {
            int self = me;
            // Thread 0 makes handoffs 1, 3, 5, ...; thread 1 makes 2, 4, 6, ...
            int mine = self == 0 ? (handoffs + 1) / 2 : handoffs / 2;
            side[me] = vt.prepare(() -> {
                Thread other = side[1 - self];
                for (int i = 0; i < mine; i++) {
                    awaitTurn(turn, self, spins);
                    turn.owner = 1 - self;
                    LockSupport.unpark(other);
                }
            });
        }
        side[0].start();
        side[1].start();
        vt.join();
    }

    private static void awaitTurn(Turn turn, int self, int spins) throws InterruptedException {
        for (int s = spins; turn.owner != self; ) {
            if (s > 0) {
                s--;
                Thread.onSpinWait();
            } else {
                park(turn);
            }
        }
    }

    /**
     * A chain of {@code links} virtual threads, each with a one-token slot, in the shape of the
     * chained scenario at capacity 0: a source puts {@code tokens} tokens into the first slot, each
     * link takes a token from its slot and puts it into the next link's slot, a sink empties the
     * last. Putting waits until the slot is empty, taking until it is full; both park at once (there
     * are far more threads than carriers) and unpark the other side after changing the slot. Every
     * token makes {@code links} hops.
     */
    static void chain(int links, int tokens) throws Exception {
        Slot[] slots = new Slot[links];
        for (int i = 0; i < links; i++) {
            slots[i] = new Slot();
        }
        VThreads vt = new VThreads(links + 1);
        Thread[] threads = new Thread[links + 1];
        // threads[i] puts into slots[i] (the source is threads[0]) and takes from slots[i - 1].
        threads[0] = vt.prepare(() -> {
            for (int t = 0; t < tokens; t++) {
                put(slots[0], threads[1]);
            }
        });
        for (int i = 1; i < links; i++) {
            Slot in = slots[i - 1];
            Slot out = slots[i];
            int self = i;
            threads[i] = vt.prepare(() -> {
                for (int t = 0; t < tokens; t++) {
                    take(in, threads[self - 1]);
                    put(out, threads[self + 1]);
                }
            });
        }
        threads[links] = vt.prepare(() -> {
            for (int t = 0; t < tokens; t++) {
                take(slots[links - 1], threads[links - 1]);
            }
        });
        for (Thread t : threads) {
            t.start();
        }
        vt.join();
    }

    private static void put(Slot slot, Thread taker) throws InterruptedException {
        while (slot.full) {
            park(slot);
        }
        slot.full = true;
        LockSupport.unpark(taker);
    }

    private static void take(Slot slot, Thread putter) throws InterruptedException {
        while (!slot.full) {
            park(slot);
        }
        slot.full = false;
        LockSupport.unpark(putter);
    }

    /** Parks on {@code blocker}; throws if the thread was interrupted. */
    static void park(Object blocker) throws InterruptedException {
        LockSupport.park(blocker);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    /** Whose turn it is (0 or 1); the only shared field of a ping-pong. */
    static final class Turn {
        volatile int owner;
    }

    /** A link's one-token mailbox. */
    static final class Slot {
        volatile boolean full;
    }
}
