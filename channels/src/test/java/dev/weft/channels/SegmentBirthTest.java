package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Segment births ({@link SegmentBirth}), measured from outside: what a thread allocates, what the
 * GC keeps, and what a user can send.
 */
@Timeout(180)
class SegmentBirthTest {
    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    /**
     * The first receive of a channel of 100,000 moves the buffer end 100,000 cells ahead. Before
     * births it created every segment up to there: 975,000 bytes with segments of 32 cells
     * (docs/PERFORMANCE.md, stop 39). Measured with the thread's allocation counter.
     */
    @Test
    void theFirstReceiveOfALargeBufferCreatesNoCellsAhead() {
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemoryEnabled(),
                "no per-thread allocation counter");
        com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) mx;
        long bytes = -1;
        for (int round = 0; round < 3; round++) { // the last round counts, after the first calls
            Channel<Integer> ch = Channel.newBufferedChannel(100_000);
            assertTrue(ch.trySend(round));
            long before = t.getCurrentThreadAllocatedBytes();
            Object got = ch.tryReceive();
            bytes = t.getCurrentThreadAllocatedBytes() - before;
            assertEquals(round, got);
        }
        assertTrue(bytes < 2_000, "the first receive of a channel of 100,000 allocated " + bytes + " bytes");
    }

    /**
     * A channel with births holds exactly its capacity, round after round, while the buffer end
     * runs ahead of the segments: every birth owns the cells the expansions skipped.
     */
    @Test
    void aBufferWithBirthsHoldsExactlyItsCapacity() throws Exception {
        int capacity = withBirths(5);
        Channel<Integer> ch = Channel.newBufferedChannel(capacity);
        assertTrue(ch.births());
        int next = 0;
        int expected = 0;
        for (int round = 0; round < 20; round++) {
            int room = 0;
            while (ch.trySend(next)) {
                next++;
                room++;
            }
            assertEquals(capacity, room, "round " + round + ": the buffer took " + room + " values\n" + ch.dumpCells());
            // take some, so that the expansions skip ahead of the segments the senders create
            int take = round % 2 == 0 ? capacity : (round * 7) % capacity;
            for (int k = 0; k < take; k++) {
                assertEquals(expected++, ch.receive());
            }
            int left = capacity - take;
            for (int k = 0; k < left; k++) {
                assertEquals(expected++, ch.receive());
            }
            assertFalse(ch.tryReceive() != null, "the drained buffer held a value");
        }
        // one value at a time: every receive skips ahead, the senders bear every segment
        for (int k = 0; k < 10 * Channel.segmentSize(); k++) {
            assertTrue(ch.trySend(next++));
            assertEquals(expected++, ch.receive());
        }
        int room = 0;
        while (ch.trySend(next++)) {
            room++;
        }
        assertEquals(capacity, room, "after one value at a time\n" + ch.dumpCells());
    }

    /**
     * 200,000 values one at a time through a channel of 1,000: each receive's expansion skips
     * ahead of the segments, and the buffer end's pointer must follow the tail, or it keeps every
     * segment the senders create from then on (the class histogram after a full GC; 6,249 more
     * segments when the skip left the pointer behind, stop 40).
     */
    @Test
    void skippingExpansionsPinNoSegments() {
        Channel<Integer> ch = Channel.newBufferedChannel(1_000);
        HeapHistogram before = HeapHistogram.take();
        assertNotNull(before, "this JVM cannot take a class histogram");
        for (int k = 0; k < 200_000; k++) {
            assertTrue(ch.trySend(k));
            assertEquals(k, ch.tryReceive());
        }
        HeapHistogram after = HeapHistogram.take();
        long segments = after.instancesOf(Segment.class.getName()) - before.instancesOf(Segment.class.getName());
        assertTrue(segments <= ch.idleSegmentBound(), segments + " more segments alive after 200,000 values, at most "
                + ch.idleSegmentBound() + " expected (reachable along next: " + ch.reachableSegments() + ")");
    }

    /**
     * A thread whose birth is hit by an Error right after it fixed R (an injected {@code
     * StackOverflowError}): the send's own recovery, and every later thread, finish the birth
     * (marking is lock-free), and the channel keeps exactly its capacity. With a birth that others
     * waited for, the send's recovery spun on it for ever (helper 44's reproduction, stop 41).
     */
    @Test
    void anErrorInsideABirthLeavesTheChannelUsable() throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        int size = Channel.segmentSize();
        int capacity = withBirths(8);
        Channel<Integer> ch = Channel.newBufferedChannel(capacity);
        assertTrue(ch.births());
        for (int v = 0; v < size; v++) {
            assertTrue(ch.trySend(v)); // segment 0, born with the channel
        }
        Object[] outcome = new Object[1];
        Thread sender = Thread.ofPlatform().unstarted(() -> outcome[0] = Forked.outcome(() -> {
            ch.send(-1); // creates segment 1 and fixes its birth
            return "sent";
        }));
        new Holds().failAt(sender, Faults.BIRTH_FIXED);
        sender.start();
        sender.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(sender.isAlive(), "the send hit inside the birth did not return\n" + ch.dumpCells());
        assertTrue(outcome[0] instanceof StackOverflowError, "the send was not hit by the injected error: " + outcome[0]);
        Segment second = ch.lvSendSegment();
        assertEquals(1, second.id, "the send pointer is not on the segment the send bore");
        assertEquals(0, second.lvBirth() & SegmentBirth.MARKING, "the birth hit by the error was not published");
        int taken = 0;
        while (taken <= capacity && ch.trySend(size + taken)) {
            taken++;
        }
        assertEquals(capacity - size, taken, "the buffer's room after the withdrawn send\n" + ch.dumpCells());
        for (int v = 0; v < size + taken; v++) {
            assertEquals(v, ch.tryReceive());
        }
        assertEquals(null, ch.tryReceive());
    }

    /** A birth fixed by a thread that stopped before marking is marked and published by the next. */
    @Test
    void aBirthLeftMarkingIsFinishedByTheNextThreadThatNeedsTheSegment() {
        int size = Channel.segmentSize();
        int capacity = withBirths(size + 5);
        Channel<Integer> ch = Channel.newBufferedChannel(capacity);
        assertTrue(ch.births());
        Segment first = ch.lvSendSegment();
        Segment next = Segment.findOrCreate(first, 1); // linked, not born
        int owned = size; // the buffer end (the capacity) is beyond all of its cells
        assertTrue(next.casBirth(SegmentBirth.UNBORN, SegmentBirth.code(owned, false) | SegmentBirth.MARKING));
        next.casState(0, null, Cells.State.IN_BUFFER); // the stopped thread marked one cell
        SegmentBirth.bear(ch, next);
        assertEquals(SegmentBirth.code(owned, false), next.lvBirth());
        for (int i = 0; i < size; i++) {
            assertEquals(Cells.State.IN_BUFFER, next.lvState(i), "cell " + i);
        }
        int room = 0;
        while (room <= capacity && ch.trySend(room)) {
            room++;
        }
        assertEquals(capacity, room, ch.dumpCells());
    }

    /** {@link BirthReplays} in a child JVM with segments of one cell. */
    @Test
    void replaysWithSegmentsOfOneCell() throws Exception {
        String out = ChildJvm.run(BirthReplays.class, "-Dweft.segmentSize=1", "-Dweft.births.aboveSegments=1");
        assertTrue(out.contains("segmentSize=1"), out);
        assertTrue(out.contains("expansionFindsItsOwnedSegmentRemoved ok"), out);
    }

    /** A capacity with births: {@code extra} cells above the threshold. */
    private static int withBirths(int extra) {
        return Config.BIRTHS_ABOVE_SEGMENTS * Channel.segmentSize() + extra;
    }
}
