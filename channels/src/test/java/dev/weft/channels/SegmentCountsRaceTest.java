package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A segment's cleaned-cell count and its pointer count share one word ({@code
 * cleanedAndPointers}), which a receiver withdrawing from a cell ({@code onCellCleaned}) and a
 * channel pointer moving on or off the segment ({@code tryIncPointers} / {@code decPointers}) change
 * at the same time. Every change must be atomic: a lost cleaned cell keeps a fully withdrawn segment
 * for good (a leak), a lost pointer change removes a segment that a pointer still references. Two
 * threads in lockstep on 200,000 fresh segments: one cleans a cell, the other adds and drops a
 * pointer; afterwards each segment must count exactly one cleaned cell and not be removed. Found
 * missing by stop 34's mutation survey (helper 29): {@code decPointers} as a read and a write
 * passed every other test, with tiny segments too.
 */
@Timeout(60)
class SegmentCountsRaceTest {
    @Test
    void aCleanedCellAndAPointerMovingAtOnceAreBothCounted() throws Exception {
        int n = 200_000;
        Segment[] segs = new Segment[n];
        for (int i = 0; i < n; i++) {
            segs[i] = new Segment(i, null, 2); // two pointers held: never removable here
        }
        FirstRaces.Lockstep step = new FirstRaces.Lockstep(2, Duration.ofSeconds(40));
        new FirstRaces.Workers(ThreadKind.PLATFORM, 2, t -> {
            for (int i = 0; i < n; i++) {
                step.await(t, i);
                if (t == 0) {
                    segs[i].onCellCleaned(null);
                } else if (segs[i].tryIncPointers()) {
                    segs[i].decPointers();
                } else {
                    throw new AssertionError("segment " + i + " refused a pointer");
                }
                step.done(t, i);
            }
        }).join(Duration.ofSeconds(50), () -> "");
        int lost = 0;
        for (int i = 0; i < n; i++) {
            if (segs[i].cleanedCells() != 1) {
                lost++;
            }
            assertFalse(segs[i].isRemoved(), "segment " + i + " removed");
        }
        assertEquals(0, lost, "segments whose cleaned-cell count lost an update");
    }
}
