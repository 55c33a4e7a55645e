package dev.weft.channels;

import static dev.weft.channels.Cells.State.BUFFERED;
import static dev.weft.channels.Cells.State.CLAIMED;
import static dev.weft.channels.Cells.State.INTERRUPTED_SEND;
import static dev.weft.channels.Cells.State.IN_BUFFER;
import static dev.weft.channels.ChannelCounters.COUNT_MASK;
import static dev.weft.channels.ChannelCounters.POINTER_BUFFER_END;
import static dev.weft.channels.ChannelState.SIZE;

import java.util.concurrent.locks.LockSupport;

/**
 * Buffer expansion: each receive of a buffered channel (and each withdrawal that gave buffer space
 * back) moves {@code bufferEnd} forward by one cell that can hold a value; a waiting sender in that
 * cell is moved into the buffer. Rendezvous and unlimited channels return at once.
 */
final class BufferExpansion {
    private BufferExpansion() {}

    /** Moves {@code bufferEnd} forward by one cell that can hold a value (buffered channels). */
    static void expandBuffer(ChannelState ch) {
        expandBuffer(ch, true);
    }

    /**
     * Like {@link #expandBuffer(ChannelState)}; with {@code mayYield} false it never yields (a
     * virtual thread is then never unmounted inside it), for a receiver that holds its cell in a
     * transient state meanwhile (see {@link CellUpdates#giveUpReceiverCell}).
     */
    static void expandBuffer(ChannelState ch, boolean mayYield) {
        if (ch.capacity <= 0) {
            return;
        }
        Segment seg = ch.lvBufferEndSegment();
        // before the fetch-and-add, so that a removed segment's birth is journaled after it
        SegmentBirth.Record journal = ch.lvBirthJournal();
        boolean births = journal != null;
        while (true) {
            long b = ch.getAndIncBufferEnd();
            long s = ch.lvSenders() & COUNT_MASK;
            long id = b / SIZE;
            if (s <= b) {
                Faults.at(Faults.EXPAND_PASSING); // no sender in the cell yet
            }
            if (seg.id != id) {
                Segment found = ch.findSegment(POINTER_BUFFER_END, seg, id, births);
                if (found == null) {
                    return; // closed list: no sender can claim the cell any more
                }
                if (found.id < id) {
                    return; // (births) no segment yet: its birth will own the cell (SegmentBirth)
                }
                seg = found;
                if (found.id != id) {
                    if (births && SegmentBirth.ownedInRemoved(journal, id, b)) {
                        return; // its birth owned the cell, and its sender made the slot up
                    }
                    // the cell's segment was removed, so its sender withdrew (only this expansion
                    // could count a receiver's withdrawal there, see passReceiverCell), and so did
                    // the senders of the cells up to the next segment: count from there
                    ch.casBufferEnd(b + 1, found.id * SIZE);
                    continue;
                }
            }
            if (births && SegmentBirth.owns(seg, b)) {
                return; // the segment's birth marked the cell (SegmentBirth)
            }
            int i = (int) (b % SIZE);
            if (s <= b ? passReceiverCell(ch, seg, i) : updateCellExpandBuffer(ch, seg, i, b, mayYield)) {
                return;
            }
            // the cell's sender withdrew: it holds no value, count the next one
        }
    }

    /**
     * The buffer end passed cell {@code i} before its sender claimed it: mark it IN_BUFFER (a
     * receiver that then waits there wraps itself in WaiterEB) or wrap its waiter (a waiting
     * receiver), so that a receiver withdrawing from it later counts it as cleaned (see {@link
     * Withdrawal#onReceiverCellWithdrawn}); count it now if its receiver already withdrew.
     *
     * @return whether the cell counts as buffer space; false when its sender, which claimed it
     *     after this expansion read the sender count, withdrew from it while it was still EMPTY (an
     *     Error, or a late try-send that found the channel closed): {@link
     *     Withdrawal#abandonSendCell} then leaves the counting of the next cell to this expansion,
     *     as it does for one that has yet to reach the cell
     */
    private static boolean passReceiverCell(ChannelState ch, Segment seg, int i) {
        Object st = null; // usually EMPTY: a compare-and-exchange marks it without a read first
        while (true) {
            if (st == null) {
                st = seg.caxState(i, null, IN_BUFFER);
                if (st == null) {
                    return true;
                }
            }
            if (st == INTERRUPTED_SEND) {
                return false;
            } else if (Cells.receiverWithdrew(st)) {
                seg.onCellCleaned(ch);
                return true;
            } else if (st == CLAIMED) {
                Thread.onSpinWait(); // held by a running thread for a few steps, never while waiting
            } else if (Cells.isWaiter(st) && !(st instanceof Cells.WaiterEB)) {
                if (seg.casState(i, st, new Cells.WaiterEB(st))) {
                    return true;
                }
            } else {
                return true; // a sender arrived meanwhile and completes the cell, or it is counted
            }
            st = seg.lvState(i);
        }
    }

    /** Returns whether cell {@code b} now counts as buffer space (false: a withdrawn sender). */
    private static boolean updateCellExpandBuffer(ChannelState ch, Segment seg, int i, long b, boolean mayYield) {
        int step = 0;
        while (true) {
            Object st = seg.lvState(i);
            if (st == null) {
                if (seg.casState(i, null, IN_BUFFER)) {
                    return true;
                }
                continue;
            }
            if (st == INTERRUPTED_SEND) {
                return false;
            }
            if (Cells.receiverWithdrew(st)) {
                seg.onCellCleaned(ch); // its receiver left the counting to us
                return true;
            }
            if (st == CLAIMED) {
                // CLAIMED is transient (see Waiting.backoff); its holder is running, so a spin
                // that never yields ends too
                if (mayYield) {
                    step = Waiting.backoff(step);
                } else {
                    Thread.onSpinWait();
                }
                continue;
            }
            if (st instanceof Cells.State || st instanceof Cells.WaiterEB) {
                return true; // IN_BUFFER, BUFFERED, DONE, BROKEN(ING), CLOSED, or counted already
            }
            if (b < ch.lvReceiverCount()) {
                // the cell's receiver is on its way and completes the cell itself
                if (seg.casState(i, st, new Cells.WaiterEB(st))) {
                    return true;
                }
                continue;
            }
            // no receiver claimed the cell: the waiter is its sender; move it into the buffer
            if (st instanceof Thread t) {
                if (seg.casState(i, t, BUFFERED)) {
                    LockSupport.unpark(t);
                    return true;
                }
                continue;
            }
            SelectOp op = (SelectOp) st;
            Object selected = SelectOp.selected(op.clauseIndexOf(ch)); // before claiming
            Faults.at(Faults.EXPAND_MEETS_SELECT);
            Object os = SelectMeeting.claimAndComplete(seg, i, st, op, selected, BUFFERED);
            if (os == Result.FAILED) {
                continue;
            }
            if (os == Result.DONE) {
                return true;
            }
            // dead, or registering: never wait for it (this thread may be a registering select
            // itself); withdraw the registration, and a registering select registers it again.
            // st is no WaiterEB here (returned above), so killCell starts no nested expansion,
            // which would not know mayYield
            try {
                SelectMeeting.killCell(ch, seg, i, st, true);
            } finally {
                if (!SelectOp.isTerminal(os)) {
                    op.requestReregistration(); // even after an Error in the accounting
                }
            }
            return false;
        }
    }
}
