package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.opentest4j.AssertionFailedError;

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
        int capacity = 3 * Channel.segmentSize() + 5;
        Channel<Integer> ch = Channel.newBufferedChannel(capacity);
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

    /** {@link BirthReplays} in a child JVM with segments of one cell. */
    @Test
    void replaysWithSegmentsOfOneCell() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = String.join(File.pathSeparator,
                location(Channel.class), location(BirthReplays.class),
                location(Assertions.class), location(AssertionFailedError.class));
        List<String> command = List.of(java, "-Dweft.segmentSize=1", "-Dweft.faults=true",
                "-cp", classpath, BirthReplays.class.getName());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] bytes = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(150, TimeUnit.SECONDS), "the child JVM did not exit");
        String out = new String(bytes, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), out);
        assertTrue(out.contains("segmentSize=1"), out);
        assertTrue(out.contains("expansionFindsItsOwnedSegmentRemoved ok"), out);
    }

    private static String location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
