package dev.weft.channels;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Memory-boundedness check: millions of cancelled waiters must leave only a few segments
 * reachable from a channel (O(1) removal of fully cleaned segments, DESIGN.md "Verification
 * layers" 4).
 *
 * <p>For each kind of waiter, {@code N} virtual threads (in batches) wait on a channel, are
 * interrupted once all of them are parked, and withdraw. After every batch, and at the end, the
 * number of segments reachable from the channel ({@link Channel#reachableSegments()}) must be at
 * most {@link #BOUND}; the maximum seen while a batch was still parked is reported too. Kinds:
 * interrupted rendezvous senders, interrupted rendezvous receivers, interrupted receivers on an
 * empty buffered channel, interrupted senders on a full buffered channel, interrupted selects (registered in two channels; send-clause selects n/4), and
 * timed-out sends (n/5, sequential).
 *
 * <p>Lives in package {@code dev.weft.channels} to reach the package-private hook, so it must run
 * on the class path. Usage: {@code MemoryBoundedness [count=1000000]}. Exits 1 on failure.
 */
public final class MemoryBoundedness {
    /** Segments that may stay reachable after all waiters withdrew (head, tail, and slack). */
    static final int BOUND = 4;

    static final int BATCH = 10_000;

    private MemoryBoundedness() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        System.out.printf("MemoryBoundedness: %,d waiters per kind, segmentSize=%d, bound=%d segments%n",
                n, Channel.segmentSize(), BOUND);
        boolean ok = true;

        Channel<Integer> rendezvous = Channel.newRendezvousChannel();
        ok &= check("interrupted senders (rendezvous)", n, List.of(rendezvous), i -> () -> {
            try {
                rendezvous.send(i);
                throw new AssertionError("send completed without a receiver");
            } catch (InterruptedException expected) {
                // withdrawn
            }
        });

        Channel<Integer> rendezvous2 = Channel.newRendezvousChannel();
        ok &= check("interrupted receivers (rendezvous)", n, List.of(rendezvous2), i -> () -> {
            try {
                rendezvous2.receive();
                throw new AssertionError("receive completed without a sender");
            } catch (InterruptedException expected) {
                // withdrawn
            }
        });

        Channel<Integer> empty = Channel.newBufferedChannel(4);
        ok &= check("interrupted receivers (buffered(4), empty)", n, List.of(empty), i -> () -> {
            try {
                empty.receive();
                throw new AssertionError("receive completed on an empty channel");
            } catch (InterruptedException expected) {
                // withdrawn
            }
        });

        Channel<Integer> full = Channel.newBufferedChannel(1);
        full.trySend(-1);
        ok &= check("interrupted senders (buffered(1), full)", n, List.of(full), i -> () -> {
            try {
                full.send(i);
                throw new AssertionError("send completed on a full channel");
            } catch (InterruptedException expected) {
                // withdrawn
            }
        });

        Channel<Integer> s1 = Channel.newRendezvousChannel();
        Channel<Integer> s2 = Channel.newBufferedChannel(4);
        ok &= check("interrupted selects (rendezvous + buffered(4) receive clauses)", n, List.of(s1, s2), i -> () -> {
            try {
                Select.select(s1.receiveClause(), s2.receiveClause());
                throw new AssertionError("select completed on empty channels");
            } catch (InterruptedException expected) {
                // withdrawn
            }
        });

        Channel<Integer> s3 = Channel.newRendezvousChannel();
        Channel<Integer> s4 = Channel.newRendezvousChannel();
        ok &= check("interrupted selects (send clauses)", n / 4, List.of(s3, s4), i -> () -> {
            try {
                Select.select(s3.sendClause(i), s4.sendClause(i));
                throw new AssertionError("select completed without receivers");
            } catch (InterruptedException expected) {
                // withdrawn
            }
        });

        // Timed-out sends are sequential and each costs a park (tens of microseconds): n / 5 of them.
        Channel<Integer> timed = Channel.newRendezvousChannel();
        long t0 = System.nanoTime();
        int timedCount = n / 5;
        for (int i = 0; i < timedCount; i++) {
            if (timed.trySend(i, Duration.ofNanos(1))) {
                throw new AssertionError("timed send completed without a receiver");
            }
        }
        int reach = timed.reachableSegments();
        System.out.printf("  %-62s %,9d  reachable after: %d  (%.1f s)%n", "timed-out senders (1 ns)", timedCount, reach,
                (System.nanoTime() - t0) / 1e9);
        ok &= report(reach);

        System.out.println("MemoryBoundedness " + (ok ? "PASSED" : "FAILED"));
        System.exit(ok ? 0 : 1);
    }

    static boolean report(int reach) {
        if (reach > BOUND) {
            System.out.println("    FAILED: " + reach + " segments reachable, bound " + BOUND);
            return false;
        }
        return true;
    }

    static boolean check(String what, int n, List<Channel<Integer>> channels, IntFunction<Runnable> waiter)
            throws InterruptedException {
        long t0 = System.nanoTime();
        int maxWhileParked = 0;
        int worstAfterBatch = 0;
        for (int done = 0; done < n; ) {
            int batch = Math.min(BATCH, n - done);
            List<Thread> threads = new ArrayList<>(batch);
            for (int i = 0; i < batch; i++) {
                threads.add(Thread.ofVirtual().start(waiter.apply(done + i)));
            }
            awaitParked(threads);
            for (Channel<Integer> ch : channels) {
                maxWhileParked = Math.max(maxWhileParked, ch.reachableSegments());
            }
            for (Thread t : threads) {
                t.interrupt();
            }
            for (Thread t : threads) {
                t.join();
            }
            for (Channel<Integer> ch : channels) {
                int r = ch.reachableSegments();
                worstAfterBatch = Math.max(worstAfterBatch, r);
                if (r > BOUND) {
                    System.out.println("    after " + (done + batch) + " waiters: " + r + " segments reachable: " + ch.dumpCells());
                }
            }
            done += batch;
        }
        System.out.printf("  %-62s %,9d  reachable after: %d (max while %,d parked: %d)  (%.1f s)%n", what, n,
                worstAfterBatch, BATCH, maxWhileParked, (System.nanoTime() - t0) / 1e9);
        return report(worstAfterBatch);
    }

    static void awaitParked(List<Thread> threads) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (Thread t : threads) {
            while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
                if (!t.isAlive()) {
                    throw new AssertionError("a waiter finished before it was interrupted");
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("waiters did not park within 60 s");
                }
                Thread.sleep(1);
            }
        }
    }
}
