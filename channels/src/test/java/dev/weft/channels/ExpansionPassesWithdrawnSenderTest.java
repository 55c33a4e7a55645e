package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A buffer slot must not be lost when a sender withdraws from a cell that a buffer expansion is
 * passing (found by review of the fix for try-sends across {@code done()}, stop 23).
 *
 * <p>An expansion moves the buffer end to cell {@code b}, reads the sender count, finds no sender
 * there yet, and then marks the cell IN_BUFFER. If the cell's sender claims it in between and
 * withdraws while the cell is still EMPTY, {@link Withdrawal#abandonSendCell} counts no new slot,
 * leaving that to the expansion (an expansion that reaches a withdrawn cell goes on to the next
 * one). Before the fix, the expansion that was passing the cell took the withdrawn sender for one
 * that had completed the cell and returned, or, when the withdrawal had already removed the
 * cell's segment (segments of one cell), returned at once: the channel had one slot less for
 * ever. Two senders withdraw like that: one hit by an Error (then the open channel refuses a
 * try-send into an empty buffer), and a try-send that claimed beyond the room it had seen and
 * found the channel closed (then a sender waiting behind it is never moved into the buffer).
 *
 * <p>A third replay covers the other way a counted slot can hold no value: the expansion counted
 * a waiting sender as buffer space, leaving it to the receiver on its way to its cell, and the
 * sender withdrew before that receiver came ({@link Withdrawal#onSenderCellWithdrawn} must then
 * count a slot again). Stop 34's mutation survey found that dropping that recount failed only
 * tests that count calls; the replay fails with it, with segments of 32 cells and of one (stop 35).
 *
 * <p>The replays are in {@link WithdrawnSenderReplays}; they run here at this run's segment size,
 * and in a child JVM with segments of one cell.
 */
@Timeout(180)
class ExpansionPassesWithdrawnSenderTest {
    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    @Test
    void sendHitByAnErrorKeepsTheCapacity() throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        assertNull(WithdrawnSenderReplays.sendHitByAnError());
    }

    @Test
    void lateTrySendAfterTheCloseLetsTheNextSenderIn() throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        assertNull(WithdrawnSenderReplays.lateTrySendAfterTheClose());
    }

    @Test
    void countedSenderThatWithdrawsIsCountedAgain() throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        assertNull(WithdrawnSenderReplays.countedSenderWithdraws());
    }

    /** The replays with segments of one cell: the withdrawal removes the passed cell's segment. */
    @Test
    void withSegmentsOfOneCell() throws Exception {
        String out = ChildJvm.run(WithdrawnSenderReplays.class, "-Dweft.segmentSize=1");
        assertEquals("segmentSize=1\nsendHitByAnError ok\nlateTrySendAfterTheClose ok\n"
                + "countedSenderWithdraws ok\n", out);
    }
}
