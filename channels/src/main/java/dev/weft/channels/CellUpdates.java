package dev.weft.channels;

import static dev.weft.channels.Cells.State.BREAKING;
import static dev.weft.channels.Cells.State.BROKEN;
import static dev.weft.channels.Cells.State.BUFFERED;
import static dev.weft.channels.Cells.State.CLAIMED;
import static dev.weft.channels.Cells.State.CLOSED;
import static dev.weft.channels.Cells.State.DONE;
import static dev.weft.channels.Cells.State.INTERRUPTED_RCV;
import static dev.weft.channels.Cells.State.INTERRUPTED_SEND;
import static dev.weft.channels.Cells.State.INTERRUPTING_RCV;
import static dev.weft.channels.Cells.State.IN_BUFFER;
import static dev.weft.channels.ChannelCounters.CLOSED_BIT;

import java.util.concurrent.locks.LockSupport;

/**
 * The slow paths of a sender's and a receiver's update of the cell it claimed, entered when the
 * fast path in {@link Channel} did not apply. From the transition table ({@code
 * docs/cell-states.md}), a sender can only meet EMPTY, IN_BUFFER, BROKEN(ING), INTERRUPTED_RCV,
 * INTERRUPTING_RCV, CLOSED, CLAIMED or a receiver's waiter here (BUFFERED, DONE and
 * INTERRUPTED_SEND are written only by or for the cell's sender, which has not acted yet), and
 * the receiver only the mirror image; both throw {@code AssertionError} on anything else, which
 * the randomized stress would report.
 */
final class CellUpdates {
    private CellUpdates() {}

    /** Spins of a receiver on its in-flight sender before it poisons the cell. */
    private static final int POISON_AFTER = 64;

    /**
     * The receiver of cell {@code i}, which it read BUFFERED, takes the value. No CAS: in a cell
     * whose receiver claimed it before any error, no thread but that receiver moves the cell out
     * of BUFFERED. Whoever moved it into BUFFERED (its sender, or buffer expansion for a waiting
     * sender) is done with it; buffer expansion and a done sweep never change it; an error sweep
     * closes it only in cells at or beyond {@code receiversAtError}, and a receiver that claimed
     * such a cell read the error from its FAA and never came here (docs/cell-states.md, "Who may
     * write a BUFFERED cell").
     */
    static Object takeBuffered(ChannelState ch, Segment seg, int i) {
        Faults.at(Faults.RECEIVE_TAKING);
        seg.soState(i, DONE);
        return takeValue(ch, seg, i);
    }

    /**
     * The receiver moved its cell to DONE (from BUFFERED, or from a select's send registration):
     * takes the value, clears the slot, and moves the buffer end.
     */
    static Object takeValue(ChannelState ch, Segment seg, int i) {
        Object v = seg.lpElement(i);
        seg.spElement(i, null);
        BufferExpansion.expandBuffer(ch);
        return v;
    }

    /**
     * Processes cell {@code i} of {@code seg} for the sender of cell {@code s}, whose element is
     * already in the slot.
     *
     * @param waiter the waiting thread or registering select, or {@code null} for a try-send
     * @param self the registering select (then {@code waiter} is that select), or {@code null}
     * @param late a try-send that claimed its cell beyond the room it had seen: it reports the
     *     close instead of buffering once the channel is closed ({@link
     *     ChannelState#closedForLateTrySend})
     * @return {@link Result#DONE}, {@link Result#INSTALLED}, {@link Result#FAILED}, {@link
     *     Result#CLOSED}, {@link Result#NO_WAITER} or {@link Result#HELPED}
     */
    static Result updateCellSendSlow(
            ChannelState ch, Segment seg, int i, long s, Object waiter, SelectOp self, boolean late) {
        int step = 0;
        while (true) {
            Object st = seg.lvState(i);
            if (st == null) {
                if (ch.installsAtOnce(waiter)) {
                    if (seg.casState(i, null, waiter)) {
                        return Result.INSTALLED;
                    }
                } else if (ch.bufferOrRendezvous(s)) {
                    if (late && ch.closedForLateTrySend()) {
                        return withdrawClosedTrySend(ch, seg, i);
                    }
                    if (seg.casState(i, null, BUFFERED)) {
                        return Result.DONE;
                    }
                } else if (waiter == null) {
                    if (seg.casState(i, null, INTERRUPTED_SEND)) {
                        Withdrawal.onSenderCellWithdrawn(ch, seg, i, null);
                        return Result.NO_WAITER;
                    }
                } else if (seg.casState(i, null, waiter)) {
                    return Result.INSTALLED;
                }
                continue;
            }
            if (st == IN_BUFFER) {
                if (late && ch.closedForLateTrySend()) {
                    return withdrawClosedTrySend(ch, seg, i);
                }
                if (seg.casState(i, IN_BUFFER, BUFFERED)) {
                    return Result.DONE;
                }
                continue;
            }
            if (st == BREAKING || st == INTERRUPTING_RCV) {
                // retry only after the receiver moved the buffer end for this cell (see
                // giveUpReceiverCell)
                step = Waiting.backoff(step);
                continue;
            }
            if (st == BROKEN || st == INTERRUPTED_RCV) {
                seg.spElement(i, null);
                return Result.FAILED;
            }
            if (st == CLOSED) {
                seg.spElement(i, null);
                return Result.CLOSED;
            }
            if (st == CLAIMED) {
                step = Waiting.backoff(step); // CLAIMED is transient (see Waiting.backoff)
                continue;
            }
            Object w = Cells.unwrap(st);
            if (w instanceof Thread t) { // a waiting receiver: the element is already in the slot
                if (late && ch.closedForLateTrySend()) {
                    // that receiver may have come after the close (a rendezvous receive waits
                    // without reading the sender count): found room only now, as above
                    return withdrawClosedTrySend(ch, seg, i);
                }
                if (seg.casState(i, st, DONE)) {
                    LockSupport.unpark(t);
                    seg.cleanPrev(); // the receivers are here: earlier segments are done with
                    return Result.DONE;
                }
                continue;
            }
            if (w instanceof SelectOp op) {
                int m = SelectMeeting.meetSelect(ch, seg, i, st, op, false, self);
                if (m == SelectMeeting.MET) {
                    seg.cleanPrev();
                    return Result.DONE;
                }
                if (m == SelectMeeting.RETRY) {
                    continue;
                }
                if (m == SelectMeeting.HELPED_HERE) {
                    return Result.HELPED; // our element stays for the partner
                }
                seg.spElement(i, null);
                return m == SelectMeeting.HELPED_ELSEWHERE ? Result.HELPED : Result.FAILED;
            }
            throw new AssertionError("unexpected cell state " + st);
        }
    }

    /**
     * A late try-send found room for its cell only after the close ({@link
     * ChannelState#closedForLateTrySend}): it gives the cell up, keeping the buffer end right, and
     * reports the close. The cell's receiver, if one comes, skips it.
     */
    private static Result withdrawClosedTrySend(ChannelState ch, Segment seg, int i) {
        Withdrawal.abandonSendCell(ch, seg, i, null);
        return Result.CLOSED;
    }

    /**
     * Processes cell {@code i} of {@code seg} for the receiver of cell {@code r}.
     *
     * @param waiter the waiting thread or registering select, or {@code null} for a try-receive
     * @param self the registering select, or {@code null}
     * @return the received value, or {@link Result#INSTALLED}, {@link Result#FAILED}, {@link
     *     Result#CLOSED}, {@link Result#NO_WAITER} or {@link Result#HELPED}
     */
    static Object updateCellReceiveSlow(
            ChannelState ch, Segment seg, int i, long r, Object waiter, SelectOp self) {
        int step = 0;
        while (true) {
            Object st = seg.lvState(i);
            if (st == null && ch.installsAtOnce(waiter)) {
                if (seg.casState(i, null, waiter)) {
                    return Result.INSTALLED; // also with its sender on its way: see installsAtOnce
                }
                continue;
            }
            if (st == null || st == IN_BUFFER) {
                long w = ch.lvSenders();
                if (r < ch.sendersLimit(w)) {
                    // the sender of this cell is on its way: give it a moment, then poison
                    if (step < POISON_AFTER) {
                        step = Waiting.backoff(step); // 64 onSpinWaits, never a yield
                        continue;
                    }
                    if (giveUpReceiverCell(ch, seg, i, st, true)) {
                        return Result.FAILED;
                    }
                    continue;
                }
                if ((w & CLOSED_BIT) != 0) {
                    return Result.CLOSED; // no sender will ever come to this cell
                }
                if (waiter == null) {
                    if (giveUpReceiverCell(ch, seg, i, st, false)) {
                        return Result.NO_WAITER;
                    }
                } else if (seg.casState(i, st, st == IN_BUFFER ? new Cells.WaiterEB(waiter) : waiter)) {
                    // over IN_BUFFER: the buffer end already passed this cell (rare; see WaiterEB)
                    Faults.at(Faults.RECEIVE_INSTALLED);
                    BufferExpansion.expandBuffer(ch);
                    return Result.INSTALLED;
                }
                continue;
            }
            if (st == BUFFERED) {
                return takeBuffered(ch, seg, i);
            }
            if (st == INTERRUPTED_SEND) {
                return Result.FAILED;
            }
            if (st == CLOSED) {
                return Result.CLOSED;
            }
            if (st == CLAIMED) {
                step = Waiting.backoff(step); // CLAIMED is transient (see Waiting.backoff)
                continue;
            }
            Object w = Cells.unwrap(st);
            if (w instanceof Thread t) { // a waiting sender
                Object v = seg.lpElement(i);
                if (seg.casState(i, st, DONE)) {
                    seg.spElement(i, null);
                    LockSupport.unpark(t);
                    BufferExpansion.expandBuffer(ch);
                    return v;
                }
                continue;
            }
            if (w instanceof SelectOp op) {
                int m = SelectMeeting.meetSelect(ch, seg, i, st, op, true, self);
                if (m == SelectMeeting.MET) {
                    return takeValue(ch, seg, i);
                }
                if (m == SelectMeeting.RETRY) {
                    continue;
                }
                if (m == SelectMeeting.HELPED_HERE) {
                    BufferExpansion.expandBuffer(ch); // our receive completed in this cell; the select reads it
                    return Result.HELPED;
                }
                return m == SelectMeeting.HELPED_ELSEWHERE ? Result.HELPED : Result.FAILED;
            }
            throw new AssertionError("unexpected cell state " + st);
        }
    }

    /**
     * The receiver of cell {@code i} gives it up before it moved the buffer end: it poisons the
     * cell ({@code poison}: its sender is in flight) or withdraws from it (no sender yet: a
     * try-receive, or a receive hit by an Error). Both leave a cell that no value will fill, so in
     * a buffered channel the buffer end must move one cell further for it. Until it has, the
     * buffer has one slot less than its capacity. So the cell holds a transient state (BREAKING,
     * INTERRUPTING_RCV) until the move is done, and the cell's sender, whichever kind, waits at
     * the cell for the final state. Then the cell's own try-send never fails for the missing
     * slot (jcstress TrySendVsTryReceiveBuffered, 0,0,0, before), and while the slot is missing,
     * a send that has claimed a cell and not completed holds it, which is how the room check
     * already counts any claimed cell (with the same relaxation: a try-receive does not see that
     * send's value yet; see Sink.trySend). A sender that moved on instead could complete at its
     * next cell, and a receive take its value, with the slot still missing and held by nobody
     * (TrySendAfterReceiverGaveUpTest). Everyone else reads the transient state as the final
     * one. Since stop 38 senders also count the receiver count plus the capacity as room ({@link
     * ChannelState#bufferOrRendezvous}), which by itself gives a sender that moved on its slot at
     * the next cell; the wait is kept, costing no more than the move it waits for.
     *
     * <p>The wait ends like one on CLAIMED (see {@link Waiting#backoff}): the move never waits for
     * a sender, a registering select or a park, and it never yields ({@code mayYield} false), so a
     * virtual thread holding the transient state is never unmounted, and a sender spinning for it
     * (even one pinned to the only carrier) spins only while the holder runs.
     *
     * @param st the state the cell is expected to hold (EMPTY or IN_BUFFER)
     * @return false if the cell changed meanwhile (nothing was done)
     */
    static boolean giveUpReceiverCell(ChannelState ch, Segment seg, int i, Object st, boolean poison) {
        boolean buffered = ch.capacity > 0; // rendezvous, unlimited: no buffer end, no transient state
        Object last = poison ? BROKEN : INTERRUPTED_RCV;
        if (!seg.casState(i, st, !buffered ? last : poison ? BREAKING : INTERRUPTING_RCV)) {
            return false;
        }
        try {
            if (!poison) {
                Withdrawal.onReceiverCellWithdrawn(ch, seg, i, st);
            }
            if (buffered) {
                Faults.at(Faults.RECEIVER_GIVING_UP);
                BufferExpansion.expandBuffer(ch, false);
            }
        } finally {
            if (buffered) {
                seg.svState(i, last); // also after an Error: the cell must not stay transient
            }
        }
        return true;
    }
}
