package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Unit tests of the segment list alone (no channel): appending, O(1) removal with {@code
 * prev}/{@code next} relinking, the tail rule, pointer references, and closing the list. Single
 * threaded; the races are covered by jcstress ({@code SegmentRemovalVsTraversal}).
 */
@Timeout(30)
class SegmentListTest {
    private static final int SIZE = Segment.SIZE;

    /** A list of segments 0..last, the first referenced by two pointers (as a channel's). */
    private static Segment[] list(int last) {
        Segment[] s = new Segment[last + 1];
        s[0] = new Segment(0, null, 2);
        for (int id = 1; id <= last; id++) {
            s[id] = Segment.findOrCreate(s[0], id);
        }
        return s;
    }

    private static void cleanAll(Segment seg) {
        for (int i = 0; i < SIZE; i++) {
            seg.onCellCleaned(null);
        }
    }

    @Test
    void findOrCreateAppendsLinkedSegments() {
        Segment[] s = list(3);
        for (int id = 1; id <= 3; id++) {
            assertEquals(id, s[id].id);
            assertSame(s[id - 1], s[id].prev());
            assertSame(s[id], s[id - 1].next());
        }
        assertNull(s[3].next());
        assertTrue(s[3].isTail());
        assertFalse(s[2].isTail());
        assertSame(s[2], Segment.findOrCreate(s[0], 2), "an existing segment is found, not created");
    }

    @Test
    void aCleanedSegmentWithoutPointersIsUnlinkedFromTheMiddle() {
        Segment[] s = list(3);
        cleanAll(s[1]);
        assertTrue(s[1].isRemoved());
        assertEquals(SIZE, s[1].cleanedCells());
        assertSame(s[2], s[0].next(), "left.next skips the removed segment");
        assertSame(s[0], s[2].prev(), "right.prev skips the removed segment");
        assertSame(s[2], Segment.findOrCreate(s[0], 1), "a search for a removed id lands on the next alive one");
    }

    @Test
    void neighboursRemovedOneAfterTheOtherAreBothSkipped() {
        Segment[] s = list(4);
        cleanAll(s[2]);
        cleanAll(s[1]);
        assertSame(s[3], s[0].next());
        assertSame(s[0], s[3].prev());
        cleanAll(s[3]);
        assertSame(s[4], s[0].next());
        assertSame(s[0], s[4].prev());
    }

    @Test
    void theTailIsNeverUnlinkedUntilASuccessorIsAppended() {
        Segment[] s = list(2);
        cleanAll(s[2]);
        assertTrue(s[2].isRemoved());
        assertSame(s[2], s[1].next(), "the tail stays linked");
        assertTrue(s[2].tryIncPointers(), "a removed tail may still be referenced");
        s[2].decPointers();
        Segment s3 = Segment.findOrCreate(s[1], 3);
        assertEquals(3, s3.id);
        assertSame(s3, s[1].next(), "appending a successor unlinks the removed former tail");
        assertSame(s[1], s3.prev());
    }

    @Test
    void aSegmentWithPointersIsNotRemovedUntilTheLastPointerLeaves() {
        Segment[] s = list(2);
        assertTrue(s[1].tryIncPointers());
        cleanAll(s[1]);
        assertFalse(s[1].isRemoved(), "still referenced by a pointer");
        assertSame(s[1], s[0].next());
        s[1].decPointers();
        assertTrue(s[1].isRemoved());
        assertSame(s[2], s[0].next());
        assertFalse(s[1].tryIncPointers(), "a removed segment (not the tail) takes no pointer");
    }

    @Test
    void cleanPrevDropsTheBackLinkAndRemovalKeepsItDropped() {
        Segment[] s = list(3);
        s[2].cleanPrev();
        assertNull(s[2].prev());
        cleanAll(s[1]);
        assertNull(s[2].prev(), "removal only moves prev further left, never back from null");
        assertSame(s[2], s[0].next());
    }

    @Test
    void closingTheListStopsAppending() {
        Segment[] s = list(1);
        assertSame(s[1], Segment.closeList(s[0]), "closeList returns the last segment");
        assertSame(Segment.CLOSED_LIST, s[1].next());
        assertTrue(s[1].isTail(), "a closed tail is still the tail");
        assertSame(Segment.CLOSED_LIST, Segment.findOrCreate(s[0], 2));
        assertSame(s[1], Segment.findOrCreate(s[0], 1), "existing segments are still found");
        assertSame(s[1], Segment.closeList(s[0]), "closing again is harmless");
    }

    @Test
    void cellsStartEmptyAndChangeOnlyByCasFromTheExpectedState() {
        Segment seg = new Segment(0, null, 0);
        assertNull(seg.lvState(0));
        assertFalse(seg.casState(0, Cells.State.IN_BUFFER, Cells.State.BUFFERED));
        assertTrue(seg.casState(0, null, Cells.State.IN_BUFFER));
        assertSame(Cells.State.IN_BUFFER, seg.lvState(0));
        seg.spElement(0, "v");
        assertEquals("v", seg.lpElement(0));
    }
}
