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

import java.util.concurrent.locks.LockSupport;

/**
 * A party gives up its cell: a waiter after an interrupt or timeout, a try-operation that found no
 * partner, a dead or refused select registration (through {@link SelectMeeting#withdrawRegistration}, or
 * {@link SelectMeeting#killCell} after claiming it), and an
 * operation hit by an Error. Here is what withdrawing leaves behind: the cell becomes {@code
 * INTERRUPTED_SEND} or {@code INTERRUPTED_RCV} and is counted as cleaned for segment removal, and
 * the buffer end of a buffered channel is kept right.
 */
final class Withdrawal {
    private Withdrawal() {}

    /**
     * After an interrupt or timeout: withdraws waiter {@code me} from cell {@code i} of {@code seg}
     * (its send or receive, by {@code send}) unless a partner came first.
     *
     * @return {@code null} when it withdrew; otherwise the state the partner left (the operation
     *     then completes normally)
     */
    static Object withdrawWaiter(ChannelState ch, Segment seg, int i, Thread me, boolean send) {
        while (true) {
            Object cur = seg.lvState(i);
            if (!Cells.holds(cur, me)) {
                return cur;
            }
            if (seg.casState(i, cur, send ? INTERRUPTED_SEND : INTERRUPTED_RCV)) {
                if (send) {
                    onSenderCellWithdrawn(ch, seg, i, cur);
                } else {
                    onReceiverCellWithdrawn(ch, seg, i, cur);
                }
                return null;
            }
        }
    }

    /**
     * After a sender's cell went from {@code before} to INTERRUPTED_SEND: drops the element and
     * counts the cell as cleaned. If buffer expansion had counted the waiting sender as buffer
     * space ({@link Cells.WaiterEB}), that space is counted again elsewhere.
     */
    static void onSenderCellWithdrawn(ChannelState ch, Segment seg, int i, Object before) {
        seg.spElement(i, null);
        seg.onCellCleaned(ch);
        if (before instanceof Cells.WaiterEB) {
            BufferExpansion.expandBuffer(ch);
        }
    }

    /**
     * Counts a cell whose receiver withdrew (state {@code before} replaced by INTERRUPTED_RCV) as
     * cleaned. In a buffered channel the buffer end must pass such a cell (it counts as buffer
     * space) before its segment may be removed, or a later expansion jumping over the removed
     * segment would count it twice. So here it is counted only if the buffer end already passed
     * it (the state was IN_BUFFER or WaiterEB); otherwise the expansion that reaches it counts it.
     */
    static void onReceiverCellWithdrawn(ChannelState ch, Segment seg, int i, Object before) {
        if (ch.capacity <= 0
                || before == IN_BUFFER
                || before instanceof Cells.WaiterEB
                || inInitialBuffer(ch, seg, i)) {
            seg.onCellCleaned(ch);
        }
    }

    /** Whether the cell is in a buffered channel's initial buffer, which no expansion visits. */
    private static boolean inInitialBuffer(ChannelState ch, Segment seg, int i) {
        return ch.capacity > 0 && seg.id * ChannelState.SIZE + i < ch.capacity;
    }

    /*
     * What an Error (StackOverflowError, OutOfMemoryError, or any unchecked exception from a
     * fault) thrown between claiming a cell and finishing with it leaves behind: the operation
     * gives its cell up as if it had withdrawn (INTERRUPTED_SEND / INTERRUPTED_RCV), so no phantom
     * sender or receiver stays in the channel and the partner of that cell retries elsewhere. A
     * send that already buffered or handed over its value keeps that effect (the value is
     * delivered). A receive that already took a value, or whose cell already holds one, loses
     * that value with the error. A partner already waiting in the cell is withdrawn on its behalf,
     * exactly as its own interrupt or timeout would withdraw it (as {@link #withdrawWaiter}, or
     * {@link SelectMeeting#withdrawRegistration} for a select's registration, would), and woken: a thread then finds
     * its cell withdrawn and tries again in another cell ({@link Waiting#awaitSend}, {@link Waiting#awaitReceive}), a
     * select registers that clause again. Before, the partner stayed parked in a cell that nobody
     * would ever fill, and even done() did not wake it (ErrorInsideOperationTest). The wake-up (or
     * the request to register again) is attempted even if the cleanup accounting after the
     * partner's withdrawal throws a second Error: that accounting can move the buffer end, which
     * may allocate a segment (ErrorInsideOperationTest). The partner's cell is withdrawn by one CAS
     * to its final state, with no CLAIMED window in between. A second Error thrown while giving
     * the cell up is added to the first as a suppressed exception; the first is what the operation
     * throws ({@link #abandonSendCell(ChannelState, Segment, int, Object, Throwable)}). Known
     * limits: an Error between the claim and the cell is handled on a best-effort basis ({@link
     * ChannelState#segmentOfClaimed}: the recovery repeats the segment search that may have
     * failed, and a StackOverflowError in the few calls before its {@code try} escapes); and an
     * Error thrown while the current thread itself holds a cell CLAIMED (only a StackOverflowError
     * at one of the two or three calls inside that window can be: where the
     * thread that claimed a select's registration completes it, finds it dead or registering and
     * withdraws it, or gives it back) leaves that cell CLAIMED, and every thread that reaches
     * the cell afterwards (its partner, buffer expansion, the sweep of done() or error()) then
     * waits for it for ever.
     */

    /**
     * {@link #abandonSendCell(ChannelState, Segment, int, Object)} for a send hit by {@code
     * cause}: a second Error thrown meanwhile is added to {@code cause} as suppressed, so the
     * caller rethrows the first one.
     */
    static void abandonSendCell(ChannelState ch, Segment seg, int i, Object waiter, Throwable cause) {
        try {
            abandonSendCell(ch, seg, i, waiter);
        } catch (Throwable second) {
            suppress(cause, second);
        }
    }

    /**
     * For a send ({@code send}) or receive hit by {@code cause} after it claimed cell {@code c}
     * and before it found the cell's segment ({@link ChannelState#segmentOfClaimed}): finds the
     * segment again from {@code from} and gives the cell up as above. No segment (the list is
     * closed) or a removed one: no partner can wait in the cell. A second Error, say the same
     * allocation or stack overflow again, is added to {@code cause} (known limit: the cell then
     * stays claimed, and a partner waiting there waits for ever, as before this was handled).
     */
    static void abandonUnresolvedCell(ChannelState ch, boolean send, Segment from, long c, Throwable cause) {
        try {
            Segment seg = ch.segmentOf(send, from, c);
            if (seg != null && seg.id == c / ChannelState.SIZE) {
                int i = (int) (c % ChannelState.SIZE);
                if (send) {
                    abandonSendCell(ch, seg, i, null);
                } else {
                    abandonReceiveCell(ch, seg, i, null);
                }
            }
        } catch (Throwable second) {
            suppress(cause, second);
        }
    }

    /** {@link #abandonReceiveCell} for a receive hit by {@code cause}; as above. */
    static void abandonReceiveCell(ChannelState ch, Segment seg, int i, Object waiter, Throwable cause) {
        try {
            abandonReceiveCell(ch, seg, i, waiter);
        } catch (Throwable second) {
            suppress(cause, second);
        }
    }

    private static void suppress(Throwable cause, Throwable second) {
        if (second != cause) { // the JVM may throw one preallocated OutOfMemoryError twice
            try {
                cause.addSuppressed(second); // allocates: under OutOfMemoryError it may fail
            } catch (Throwable third) {
                // the first Error is what the operation throws; the second is lost
            }
        }
    }

    /**
     * Gives up cell {@code i} of {@code seg} for a send hit by an error, or for a try-send that
     * found room only after the close; idempotent. Such a try-send read its cell EMPTY or
     * IN_BUFFER, but a receiver may install its waiter before this reads the cell again (review
     * of 094094d), or the try-send met a waiting receiver that may have come after its claim (a
     * rendezvous receive waits without reading the sender count): it is withdrawn and woken like
     * the partner of an operation hit by an Error, tries again, and finds the close (before, it
     * stayed parked, and a done() did not wake it: its cell is below the close's sender count).
     */
    static void abandonSendCell(ChannelState ch, Segment seg, int i, Object waiter) {
        int step = 0;
        while (true) {
            Object st = seg.lvState(i);
            if (st == null || st == IN_BUFFER || (waiter != null && Cells.holds(st, waiter))) {
                if (seg.casState(i, st, INTERRUPTED_SEND)) {
                    seg.spElement(i, null);
                    seg.onCellCleaned(ch);
                    // the buffer end counted this cell as space (it passed it, or the cell is in
                    // the initial buffer, which no expansion visits): count another one instead;
                    // an expansion that reaches the cell later skips it by itself
                    if (st == IN_BUFFER || st instanceof Cells.WaiterEB || inInitialBuffer(ch, seg, i)) {
                        BufferExpansion.expandBuffer(ch);
                    }
                    return;
                }
                continue;
            }
            if (st == BROKEN || st == BREAKING || st == INTERRUPTED_RCV || st == INTERRUPTING_RCV || st == CLOSED) {
                seg.spElement(i, null);
                return;
            }
            if (st instanceof Cells.State) {
                if (st == CLAIMED) {
                    step = Waiting.backoff(step); // CLAIMED is transient (see Waiting.backoff)
                    continue;
                }
                return; // delivered (BUFFERED, DONE)
            }
            if (withdrawPartner(ch, seg, i, st, false)) {
                seg.spElement(i, null); // our element, if we wrote it, goes to nobody
                return;
            }
        }
    }

    /**
     * Withdraws the partner waiting in cell {@code i} of {@code seg} (state {@code st}: a thread
     * or a select registration, maybe as WaiterEB) for an operation hit by an Error in that cell,
     * as the partner's own withdrawal would, and wakes it (see above).
     *
     * @param send whether the partner is a sender
     * @return false if the cell changed meanwhile (nothing was done)
     */
    private static boolean withdrawPartner(ChannelState ch, Segment seg, int i, Object st, boolean send) {
        // one CAS to the final state, also for a select's registration (as in
        // SelectMeeting.withdrawRegistration, whose accounting is the same): nothing is decided
        // in between, so no CLAIMED window (review of 3647b74)
        if (!seg.casState(i, st, send ? INTERRUPTED_SEND : INTERRUPTED_RCV)) {
            return false;
        }
        // the partner is woken even if the accounting throws (it may allocate a segment, and
        // this runs in the handler of an Error): its cell is final, nobody else would wake it
        try {
            if (send) {
                onSenderCellWithdrawn(ch, seg, i, st);
            } else {
                onReceiverCellWithdrawn(ch, seg, i, st);
            }
        } finally {
            if (Cells.unwrap(st) instanceof Thread t) {
                LockSupport.unpark(t);
            } else {
                SelectOp op = (SelectOp) Cells.unwrap(st);
                if (!SelectOp.isTerminal(op.lvState())) {
                    op.requestReregistration(); // WAITING or registering: it registers this clause again
                }
            }
        }
        return true;
    }

    /** Gives up cell {@code i} of {@code seg} for a receive hit by an error; idempotent. */
    static void abandonReceiveCell(ChannelState ch, Segment seg, int i, Object waiter) {
        int step = 0;
        while (true) {
            Object st = seg.lvState(i);
            boolean ours = waiter != null && Cells.holds(st, waiter);
            if (ours) {
                if (seg.casState(i, st, INTERRUPTED_RCV)) {
                    onReceiverCellWithdrawn(ch, seg, i, st); // it moved the buffer end when it installed
                    return;
                }
                continue;
            }
            if (st == null || st == IN_BUFFER) {
                if (CellUpdates.giveUpReceiverCell(ch, seg, i, st, false)) {
                    return; // as a failed try-receive
                }
                continue;
            }
            if (st == BUFFERED) {
                if (seg.casState(i, BUFFERED, DONE)) {
                    seg.spElement(i, null); // lost with the error
                    BufferExpansion.expandBuffer(ch);
                    return;
                }
                continue;
            }
            if (st == DONE) {
                seg.spElement(i, null); // a value handed to us: lost with the error
                return;
            }
            if (st instanceof Cells.State) {
                if (st == CLAIMED) {
                    step = Waiting.backoff(step); // CLAIMED is transient (see Waiting.backoff)
                    continue;
                }
                return; // a cell whose sender gave up, or closed
            }
            if (withdrawPartner(ch, seg, i, st, true)) {
                return; // the waiting sender sends its value in another cell
            }
        }
    }
}
