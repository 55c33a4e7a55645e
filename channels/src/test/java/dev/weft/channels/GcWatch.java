package dev.weft.channels;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks memory the way the garbage collector sees it, not through the channel's own pointers.
 *
 * <p>{@link #sample()} keeps a {@link WeakReference} to each segment a channel pointer (send,
 * receive, buffer end) references at that moment; the first sample is taken on construction, so
 * segment 0 of a fresh channel is always watched. {@link #assertCollected} runs the GC and fails
 * if more watched segments are still alive than an idle channel may keep ({@link #idleBound}).
 * A segment kept alive by any path (its successor's {@code prev}, a waiter, a select, a stale
 * field) counts, which is what {@code Channel.reachableSegments()} (a walk along {@code next}
 * from the channel's pointers) cannot see; that count is only printed as a diagnostic.
 *
 * <p>The watch holds the channel strongly, so the channel itself stays reachable while the GC
 * runs. No JUnit dependency: {@link MemorySoak} uses it in a child JVM.
 */
final class GcWatch {
    private final Channel<?> ch;
    private final String name;
    private final List<WeakReference<Object>> refs = new ArrayList<>();
    /** Ids of the watched segments (ids are unique within a channel): each segment is watched once. */
    private final Set<Long> ids = new HashSet<>();

    GcWatch(Channel<?> ch, String name) {
        this.ch = ch;
        this.name = name;
        sample();
    }

    /** The segments an idle channel may keep: the library's own bound. */
    static int idleBound(Channel<?> ch) {
        return ch.idleSegmentBound();
    }

    /** Watches the segments the channel's pointers reference now (each segment only once). */
    void sample() {
        watch(ch.lvSendSegment());
        watch(ch.lvReceiveSegment());
        watch(ch.lvBufferEndSegment());
    }

    private void watch(Segment s) {
        if (s != null && ids.add(s.id)) {
            refs.add(new WeakReference<>(s));
        }
    }

    /** How many segments have been watched so far. */
    int watched() {
        return refs.size();
    }

    /**
     * Runs the GC (a few rounds, with short pauses) until at most {@code bound} watched segments
     * are alive; returns how many are.
     */
    int aliveAfterGc(int bound) {
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

    /** Runs the GC twice and returns how many watched segments are alive. */
    int aliveAfterGc() {
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

    /** Fails unless at most {@link #idleBound} watched segments survive the GC. */
    void assertCollected(String when) {
        assertCollected(when, 0);
    }

    /**
     * Fails unless at most {@link #idleBound} plus {@code extraSegments} watched segments survive
     * the GC (extra: segments that live waiters or values legitimately keep).
     */
    void assertCollected(String when, int extraSegments) {
        int bound = idleBound(ch) + extraSegments;
        int alive = aliveAfterGc(bound);
        if (alive > bound) {
            String dump = ch.dumpCells();
            throw new AssertionError(name + ", " + when + ": " + alive + " of " + refs.size()
                    + " watched segments still reachable after GC (segment size " + Channel.segmentSize()
                    + "), expected at most " + bound + "; reachable along next from the pointers: "
                    + ch.reachableSegments() + "\n" + dump.substring(0, Math.min(dump.length(), 2_000)));
        }
        sample();
    }
}
