package dev.weft.channels.internal;

import dev.weft.channels.Channel;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Not API: checks a channel's memory the way the garbage collector sees it, not through the
 * channel's own pointers. Used by the library's memory tests and by the stress module.
 *
 * <p>{@link #sample()} keeps a {@link WeakReference} to each segment a channel pointer (send,
 * receive, buffer end) references at that moment; the first sample is taken on construction, so
 * segment 0 of a fresh channel is always watched. {@link #assertCollected} runs the GC and fails
 * if more watched segments are still alive than an idle channel may keep ({@link
 * StressAccess#idleSegmentBound}). A segment kept alive by any path (its successor's {@code prev},
 * a waiter, a select, a stale field) counts, which is what {@link StressAccess#reachableSegments}
 * (a walk along {@code next} from the channel's pointers) cannot see; that count is only printed
 * as a diagnostic.
 *
 * <p>The watch holds the channel strongly, so the channel itself stays reachable while the GC
 * runs. No test-framework dependency: failures are {@link AssertionError}s. Not thread-safe: one
 * thread samples and checks.
 */
public final class SegmentWatch {
    private final Channel<?> ch;
    private final String name;
    private final List<WeakReference<Object>> refs = new ArrayList<>();
    /** Ids of the watched segments (ids are unique within a channel): each segment is watched once. */
    private final Set<Long> ids = new HashSet<>();

    /**
     * Watches {@code ch}, starting with the segments its pointers reference now.
     *
     * @param ch the channel
     * @param name the channel's name in failure messages
     */
    public SegmentWatch(Channel<?> ch, String name) {
        this.ch = ch;
        this.name = name;
        sample();
    }

    /** Watches the segments the channel's pointers reference now (each segment only once). */
    public void sample() {
        StressAccess.forEachPointerSegment(ch, this::watch);
    }

    private void watch(Object segment, long id) {
        if (ids.add(id)) {
            refs.add(new WeakReference<>(segment));
        }
    }

    /**
     * How many segments have been watched so far.
     *
     * @return the count
     */
    public int watched() {
        return refs.size();
    }

    /**
     * Runs the GC (a few rounds, with short pauses) until at most {@code bound} watched segments
     * are alive.
     *
     * @param bound the count to get down to
     * @return how many watched segments are alive
     */
    public int aliveAfterGc(int bound) {
        int alive = alive();
        for (int round = 0; round < 8 && alive > bound; round++) {
            System.gc();
            if (round > 0) {
                try {
                    Thread.sleep(10L * round);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            alive = alive();
        }
        return alive;
    }

    /**
     * Runs the GC twice.
     *
     * @return how many watched segments are alive
     */
    public int aliveAfterGc() {
        System.gc();
        System.gc();
        return alive();
    }

    private int alive() {
        int n = 0;
        for (WeakReference<Object> ref : refs) {
            if (ref.get() != null) {
                n++;
            }
        }
        return n;
    }

    /**
     * Fails unless at most {@link StressAccess#idleSegmentBound} watched segments survive the GC;
     * then samples again.
     *
     * @param when when the check runs, for the failure message
     * @throws AssertionError if more watched segments survive
     */
    public void assertCollected(String when) {
        assertCollected(when, 0);
    }

    /**
     * Fails unless at most {@link StressAccess#idleSegmentBound} plus {@code extraSegments} watched
     * segments survive the GC; then samples again.
     *
     * @param when when the check runs, for the failure message
     * @param extraSegments segments that live waiters or values legitimately keep
     * @throws AssertionError if more watched segments survive
     */
    public void assertCollected(String when, int extraSegments) {
        int bound = StressAccess.idleSegmentBound(ch) + extraSegments;
        int alive = aliveAfterGc(bound);
        if (alive > bound) {
            String dump = ch.dumpCells();
            throw new AssertionError(name + ", " + when + ": " + alive + " of " + refs.size()
                    + " watched segments still reachable after GC (segment size " + StressAccess.segmentSize()
                    + "), expected at most " + bound + "; reachable along next from the pointers: "
                    + StressAccess.reachableSegments(ch) + "\n" + dump.substring(0, Math.min(dump.length(), 2_000)));
        }
        sample();
    }
}
