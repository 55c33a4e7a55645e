package dev.weft.stress;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import dev.weft.channels.internal.SegmentWatch;
import dev.weft.channels.internal.StressAccess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Memory-boundedness check: millions of cancelled waiters must leave only a few segments
 * reachable from a channel (O(1) removal of fully cleaned segments), measured the way the garbage
 * collector sees it.
 *
 * <p>For each kind of waiter, {@code N} virtual threads (in batches) wait on a channel, are
 * interrupted once all of them are parked, and withdraw. A {@link SegmentWatch} per channel keeps
 * weak references to the segments the channel's pointers referenced (sampled while each batch is
 * parked and after it withdrew); every {@link #CHECK_EVERY_BATCHES} batches and at the end, at
 * most {@link StressAccess#idleSegmentBound} of them may survive a GC. The heap used after GC
 * before and after each kind is reported, not checked: in the 2 GiB heap of {@code stress/run.sh} a full GC
 * may leave megabytes of dead space in place, so the bounded heap checks are the channel tests'
 * soaks in a 32 MiB heap ({@code MemorySoakTest}).
 * {@link StressAccess#reachableSegments} (a walk along {@code next} from the channel's pointers,
 * blind to what {@code prev} keeps) is only reported. Kinds: interrupted rendezvous senders,
 * interrupted rendezvous receivers, interrupted receivers on an empty buffered channel,
 * interrupted senders on a full buffered channel, interrupted selects (registered in two
 * channels; send-clause selects n/4), and timed-out sends (n/5, sequential).
 *
 * <p>Reaches the library's hooks through {@link StressAccess} (exported to this module only).
 * Usage: {@code MemoryBoundedness [count=1000000]}. Exits 1 on failure.
 */
public final class MemoryBoundedness {
    static final int BATCH = 10_000;
    /** GC checks every this many batches (a full GC each). */
    static final int CHECK_EVERY_BATCHES = 10;

    private MemoryBoundedness() {}

    /**
     * Runs every kind of waiter and exits 0 if all passed, 1 otherwise.
     *
     * @param args optional: the number of waiters per kind (default 1,000,000)
     * @throws Exception if a waiter does not park in time or the run is interrupted
     */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        System.out.printf("MemoryBoundedness: %,d waiters per kind, segmentSize=%d, bound=%d segments alive after GC"
                + " (plus those a buffer spans)%n", n, StressAccess.segmentSize(), StressAccess.idleSegments());
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
        SegmentWatch timedWatch = new SegmentWatch(timed, "timed-out senders");
        long t0 = System.nanoTime();
        long heapBefore = usedAfterGc();
        int timedCount = n / 5;
        for (int i = 0; i < timedCount; i++) {
            if (timed.trySend(i, Duration.ofNanos(1))) {
                throw new AssertionError("timed send completed without a receiver");
            }
            if (i % 1_000 == 0) {
                timedWatch.sample();
            }
        }
        String failure = gcCheck(List.of(timedWatch), heapBefore);
        System.out.printf("  %-62s %,9d  %s  (%.1f s)%n", "timed-out senders (1 ns)", timedCount,
                lastFigures, (System.nanoTime() - t0) / 1e9);
        ok &= report(failure);

        System.out.println("MemoryBoundedness " + (ok ? "PASSED" : "FAILED"));
        System.exit(ok ? 0 : 1);
    }

    /** The figures of the last {@link #gcCheck}, for the report line. */
    static String lastFigures = "";

    static boolean report(String failure) {
        if (failure != null) {
            System.out.println("    FAILED: " + failure);
            return false;
        }
        return true;
    }

    /** The heap in use after a full GC: the smallest of three rounds. */
    static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            best = Math.min(best, rt.totalMemory() - rt.freeMemory());
        }
        return best;
    }

    /**
     * The end-of-kind check: every watch's segments collected; returns the failures, or null. Sets
     * {@link #lastFigures}, with the heap after GC before and after.
     */
    static String gcCheck(List<SegmentWatch> watches, long heapBefore) {
        StringBuilder failures = new StringBuilder();
        for (SegmentWatch w : watches) {
            try {
                w.assertCollected("at the end");
            } catch (AssertionError e) {
                failures.append(e.getMessage()).append('\n');
            }
        }
        long heapAfter = usedAfterGc();
        StringBuilder segments = new StringBuilder();
        for (SegmentWatch w : watches) {
            segments.append(segments.length() == 0 ? "" : "+").append(w.aliveAfterGc()).append('/').append(w.watched());
        }
        lastFigures = String.format("watched segments alive after GC: %s, heap after GC %,d -> %,d KiB",
                segments, heapBefore >> 10, heapAfter >> 10);
        return failures.length() == 0 ? null : failures.toString();
    }

    static boolean check(String what, int n, List<Channel<Integer>> channels, IntFunction<Runnable> waiter)
            throws InterruptedException {
        long t0 = System.nanoTime();
        List<SegmentWatch> watches = new ArrayList<>();
        for (Channel<Integer> ch : channels) {
            watches.add(new SegmentWatch(ch, what));
        }
        long heapBefore = usedAfterGc();
        int maxWhileParked = 0;
        String failure = null;
        for (int done = 0, batches = 0; done < n; batches++) {
            int batch = Math.min(BATCH, n - done);
            List<Thread> threads = new ArrayList<>(batch);
            for (int i = 0; i < batch; i++) {
                threads.add(Thread.ofVirtual().start(waiter.apply(done + i)));
            }
            awaitParked(threads);
            for (Channel<Integer> ch : channels) {
                maxWhileParked = Math.max(maxWhileParked, StressAccess.reachableSegments(ch));
            }
            watches.forEach(SegmentWatch::sample);
            for (Thread t : threads) {
                t.interrupt();
            }
            for (Thread t : threads) {
                t.join();
            }
            watches.forEach(SegmentWatch::sample);
            done += batch;
            if (batches % CHECK_EVERY_BATCHES == CHECK_EVERY_BATCHES - 1 && failure == null) {
                for (SegmentWatch w : watches) {
                    try {
                        w.assertCollected("after " + done + " waiters");
                    } catch (AssertionError e) {
                        failure = e.getMessage();
                    }
                }
            }
        }
        String end = gcCheck(watches, heapBefore);
        failure = failure == null ? end : end == null ? failure : failure + "\n" + end;
        System.out.printf("  %-62s %,9d  %s (max reachable along next while %,d parked: %d)  (%.1f s)%n", what, n,
                lastFigures, BATCH, maxWhileParked, (System.nanoTime() - t0) / 1e9);
        return report(failure);
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
