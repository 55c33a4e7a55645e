package dev.weft.channels;

import static dev.weft.channels.Cells.State.BUFFERED;
import static dev.weft.channels.Cells.State.CLAIMED;
import static dev.weft.channels.Cells.State.CLOSED;
import static dev.weft.channels.Cells.State.IN_BUFFER;
import static dev.weft.channels.ChannelCounters.CLOSED_BIT;
import static dev.weft.channels.ChannelCounters.ERROR_BIT;
import static dev.weft.channels.ChannelState.SIZE;

import java.util.concurrent.locks.LockSupport;

/**
 * Closing a channel (done or error) and asking whether it is closed for receiving. The order of a
 * close is: record the reason, set the closed bits ({@link ChannelState#setClosedBits}), close the
 * segment list so that no segment can be appended, then sweep the cells from the oldest segment
 * still referenced.
 */
final class Closing {
    private Closing() {}

    /**
     * Closes {@code ch} with {@code reason}; returns {@code null}, or the reason it was already
     * closed with (after making sure that reason's bits are set).
     */
    static ChannelClosed close(ChannelState ch, ChannelClosed reason) {
        boolean won = ch.casCloseReason(reason);
        ChannelClosed actual = won ? reason : ch.lvCloseReason();
        ch.setClosedBits(actual);
        if (!won) {
            return actual;
        }
        Faults.at(Faults.CLOSE_BITS_SET);
        Segment start = ch.oldestSegment();
        Segment.closeList(start);
        if (reason instanceof ChannelError) {
            sweep(ch, start, 0L, ch.receiversAtError());
        } else {
            sweep(ch, start, ch.sendersAtClose(), Long.MAX_VALUE); // done sweeps no buffered values
        }
        return null;
    }

    /**
     * Closes every cell at or beyond {@code from}, from segment {@code start} to the end; cells
     * below {@code claimedBelow} have a receiver on its way.
     */
    private static void sweep(ChannelState ch, Segment start, long from, long claimedBelow) {
        for (Segment seg = start; seg != null && seg != Segment.CLOSED_LIST; seg = seg.next()) {
            if (ch.births()) {
                SegmentBirth.bear(ch, seg); // it acts on the cells: their owner is fixed first
            }
            for (int i = 0; i < SIZE; i++) {
                long g = seg.id * SIZE + i;
                if (g >= from) {
                    closeCell(ch, seg, i, g < claimedBelow, true);
                }
            }
        }
    }

    /**
     * A sender that claimed cell {@code i} of {@code seg} and then read the error ({@link
     * ChannelState#errorBeforeCommit}) closes its own cell, as the sweep does, before it reports
     * the error. The sweep alone is not enough: it starts from the oldest segment that a pointer
     * references, and while this sender was on its way from its claim to its cell, the other
     * pairs may have moved every pointer past the cell's segment. A receiver waiting in the cell
     * would then stay parked for ever (stop 24's known problem;
     * ErrorWakesWaiterBehindThePointersTest). Receivers need no such step: a receiver that reads
     * the error from its FAA leaves a cell at or beyond {@code errorAt}, and the receiver pointer
     * never passes such a cell, since only receivers from before the error move it. The sender
     * and the sweep may both come to the cell; whoever comes second finds it final (CLOSED, or
     * INTERRUPTED_RCV / BROKEN if the receiver withdrew, poisoned it or was refused).
     *
     * <p>A select still registering in the cell: a plain blocking send ({@code mayWait}) waits
     * for it to stop registering, as the sweep does, and then closes its registration, so this
     * path keeps the close's bias. A try-send or a select's send clause never waits for a
     * registering select (a registering select waiting for another could deadlock): it refuses
     * the registration, and the select registers that clause again and then finds the error,
     * unless a later clause completes first (the known gap in {@link CloseableChannel}'s
     * javadoc).
     */
    static void closeOwnSendCell(ChannelState ch, Segment seg, int i, boolean mayWait) {
        closeCell(ch, seg, i, false, mayWait);
    }

    /**
     * @param claimed whether the cell's receiver is already on its way: a value buffered there is
     *     then left for it (that send and receive linearize before the close)
     * @param mayWait whether to wait for a select that is still registering (the sweep, a plain
     *     send); otherwise its registration is refused ({@link #closeOwnSendCell})
     */
    private static void closeCell(ChannelState ch, Segment seg, int i, boolean claimed, boolean mayWait) {
        int step = 0;
        while (true) {
            Object st = seg.lvState(i);
            if (st == null || st == IN_BUFFER) {
                if (seg.casState(i, st, CLOSED)) {
                    return;
                }
                continue;
            }
            if (st == BUFFERED) {
                // only error sweeps cells with values: discard it, unless its receiver claimed it
                if (claimed) {
                    return;
                }
                if (seg.casState(i, BUFFERED, CLOSED)) {
                    seg.spElement(i, null);
                    return;
                }
                continue;
            }
            if (st == CLAIMED) {
                step = Waiting.backoff(step); // CLAIMED is transient (see Waiting.backoff)
                continue;
            }
            if (st instanceof Cells.State) {
                return; // DONE, BROKEN, BREAKING, INTERRUPTED_*, INTERRUPTING_RCV, CLOSED
            }
            Object w = Cells.unwrap(st);
            if (w instanceof Thread t) {
                if (seg.casState(i, st, CLOSED)) {
                    LockSupport.unpark(t);
                    return;
                }
                continue;
            }
            SelectOp op = (SelectOp) w;
            SelectOp.ClosedSel closed = new SelectOp.ClosedSel(op.clauseIndexOf(ch), ch.lvCloseReason());
            Object os = SelectMeeting.claimAndComplete(seg, i, st, op, closed, CLOSED);
            if (os == Result.FAILED) {
                continue;
            }
            if (os == Result.DONE) {
                return;
            }
            if (SelectOp.isLocked(os) && !mayWait) {
                try {
                    SelectMeeting.killCell(ch, seg, i, st, false); // a receive registration: this is a sender's cell
                } finally {
                    op.requestReregistration(); // even after an Error in the accounting
                }
                return;
            }
            if (SelectOp.isLocked(os)) {
                // registering: the close does not return before the select stops registering, so
                // that no clause that becomes ready after the close returned can win over this
                // closed one (bias; jcstress SelectVsCloseThenSend, CloseMeetsRegisteringSelectTest).
                // Give the cell back and park until the select waits or completes, then look again.
                seg.svState(i, st);
                op.awaitNotRegistering();
                continue;
            }
            // the select is terminal: its registration is dead. Or the select's owner moved it from
            // WAITING to LOCKED (to register again) after our claim: it then reads this cell after
            // we release it, finds it CLOSED and registers this clause again, in clause order, so
            // it reports the close unless an earlier clause completes (bias kept)
            seg.spElement(i, null);
            seg.svState(i, CLOSED);
            return;
        }
    }

    /**
     * Whether {@code ch} is closed for receiving: in error, or done with no value left to take. Not
     * linearizable: it reads the counters and then scans cells that change meanwhile.
     */
    static boolean isClosedForReceive(ChannelState ch) {
        if ((ch.lvReceivers() & ERROR_BIT) != 0) {
            return true;
        }
        long w = ch.lvSenders();
        if ((w & CLOSED_BIT) == 0) {
            return false;
        }
        if ((w & ERROR_BIT) != 0) {
            return true;
        }
        long r = ch.lvReceiverCount();
        long end = ch.sendersAtClose();
        return r >= end || !mayDeliver(ch, r, end);
    }

    /** Whether some cell in {@code [from, to)} still holds, or will get, a value to receive. */
    private static boolean mayDeliver(ChannelState ch, long from, long to) {
        for (Segment seg = ch.lvReceiveSegment(); seg != null && seg != Segment.CLOSED_LIST; seg = seg.next()) {
            for (int i = 0; i < SIZE; i++) {
                long g = seg.id * SIZE + i;
                if (g < from) {
                    continue;
                }
                if (g >= to) {
                    return false;
                }
                Object st = seg.lvState(i);
                if (st == null || st == IN_BUFFER || st == BUFFERED || st == CLAIMED || Cells.isWaiter(st)) {
                    return true;
                }
            }
        }
        return false;
    }
}
