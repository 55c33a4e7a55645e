package dev.weft.bench;

import java.util.concurrent.atomic.AtomicReference;
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
     * A chain of {@code links} virtual threads in the shape of the chained scenario at capacity 0:
     * a source passes {@code tokens} tokens into the first link, each thread takes a token from its
     * link and passes it into the next one, a sink takes them out of the last. Every token makes
     * {@code links} hops. Each link is a one-token {@link Slot} or a {@link Handoff} ({@code
     * handoff}); both park at once (there are far more threads than carriers).
     */
    static void chain(int links, int tokens, boolean handoff) throws Exception {
        Link[] link = new Link[links];
        for (int i = 0; i < links; i++) {
            link[i] = handoff ? new Handoff() : new Slot(0);
        }
        VThreads vt = new VThreads(links + 1);
        Thread[] threads = new Thread[links + 1];
        // threads[i] puts into link[i] (the source is threads[0]) and takes from link[i - 1].
        threads[0] = vt.prepare(() -> {
            for (int t = 0; t < tokens; t++) {
                link[0].put(threads[1]);
            }
        });
        for (int i = 1; i < links; i++) {
            Link in = link[i - 1];
            Link out = link[i];
            int self = i;
            threads[i] = vt.prepare(() -> {
                for (int t = 0; t < tokens; t++) {
                    in.take(threads[self - 1]);
                    out.put(threads[self + 1]);
                }
            });
        }
        threads[links] = vt.prepare(() -> {
            for (int t = 0; t < tokens; t++) {
                link[links - 1].take(threads[links - 1]);
            }
        });
        for (Thread t : threads) {
            t.start();
        }
        vt.join();
    }

    /**
     * {@code pairs} independent links, each with its own putting and taking virtual thread, in the
     * shape of the parallel scenario at capacity 0: every putter puts {@code tokens} tokens into its
     * link and every taker takes them out. Each link is a {@link Handoff} ({@code handoff}) or a
     * one-token {@link Slot} whose waiting side first calls {@link Thread#onSpinWait()} up to {@code
     * spins} times, then parks (0: it parks at once, as in {@link #chain}).
     */
    static void parallel(int pairs, int tokens, int spins, boolean handoff) throws Exception {
        VThreads vt = new VThreads(2 * pairs);
        Thread[] threads = new Thread[2 * pairs];
        for (int p = 0; p < pairs; p++) {
            Link link = handoff ? new Handoff() : new Slot(spins);
            int putter = 2 * p;
            threads[putter] = vt.prepare(() -> {
                for (int t = 0; t < tokens; t++) {
                    link.put(threads[putter + 1]);
                }
            });
            threads[putter + 1] = vt.prepare(() -> {
                for (int t = 0; t < tokens; t++) {
                    link.take(threads[putter]);
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        vt.join();
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

    /**
     * Whether the link kind {@code link} names the {@link Handoff} ({@code handoff}) rather than the
     * {@link Slot} ({@code slot}).
     *
     * @throws IllegalArgumentException for any other name
     */
    static boolean isHandoff(String link) {
        return switch (link) {
            case "handoff" -> true;
            case "slot" -> false;
            default -> throw new IllegalArgumentException("link: slot or handoff, not " + link);
        };
    }

    /** One link of {@link #chain} or {@link #parallel}, between one putting and one taking thread. */
    abstract static class Link {
        /** Called by the putter: passes a token to {@code taker}. */
        abstract void put(Thread taker) throws InterruptedException;

        /** Called by the taker: takes a token from {@code putter}. */
        abstract void take(Thread putter) throws InterruptedException;
    }

    /**
     * A one-token mailbox: putting waits until it is empty, taking until it is full; the waiting
     * side spins up to {@code spins} times, then parks, and each side unparks the other after
     * changing the slot. The putter runs one token ahead, so in a crowd each token costs a park
     * on each side.
     */
    static final class Slot extends Link {
        private final int spins;
        volatile boolean full;

        Slot(int spins) {
            this.spins = spins;
        }

        @Override
        void put(Thread taker) throws InterruptedException {
            for (int s = spins; full; ) {
                s = spinOrPark(s, this);
            }
            full = true;
            LockSupport.unpark(taker);
        }

        @Override
        void take(Thread putter) throws InterruptedException {
            for (int s = spins; !full; ) {
                s = spinOrPark(s, this);
            }
            full = false;
            LockSupport.unpark(putter);
        }
    }

    /** One {@link Thread#onSpinWait()} while {@code s > 0}, else a park; returns the spins left. */
    private static int spinOrPark(int s, Object blocker) throws InterruptedException {
        if (s > 0) {
            Thread.onSpinWait();
            return s - 1;
        }
        park(blocker);
        return 0;
    }

    /**
     * A rendezvous of its two threads with nothing but one reference: whichever arrives first
     * registers itself with a CAS and parks until the other one clears it; the second clears it
     * and unparks the first. So in a crowd each token costs one park, on the side that came
     * first (as in a rendezvous channel, where a waiting partner is completed directly), and one
     * CAS per side.
     */
    static final class Handoff extends Link {
        private final AtomicReference<Thread> waiting = new AtomicReference<>();

        @Override
        void put(Thread taker) throws InterruptedException {
            meet();
        }

        @Override
        void take(Thread putter) throws InterruptedException {
            meet();
        }

        private void meet() throws InterruptedException {
            Thread me = Thread.currentThread();
            if (waiting.compareAndSet(null, me)) {
                while (waiting.get() == me) {
                    park(this);
                }
            } else {
                Thread first = waiting.get(); // the other side, which registered first
                waiting.set(null);
                LockSupport.unpark(first);
            }
        }
    }
}
