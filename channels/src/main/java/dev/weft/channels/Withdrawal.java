package dev.weft.channels;

import static dev.weft.channels.Cells.State.BREAKING;
import static dev.weft.channels.Cells.State.BROKEN;
import static dev.weft.channels.Cells.State.BUFFERED;
import static dev.weft.channels.Cells.State.CLOSED;
import static dev.weft.channels.Cells.State.DONE;
import static dev.weft.channels.Cells.State.INTERRUPTED_RCV;
import static dev.weft.channels.Cells.State.INTERRUPTED_SEND;
import static dev.weft.channels.Cells.State.INTERRUPTING_RCV;
import static dev.weft.channels.Cells.State.IN_BUFFER;

/**
 * A party gives up its cell: a waiter after an interrupt or timeout, a try-operation that found no
 * partner, a dead or refused select registration (through {@link SelectMeeting#killCell}), and an
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
        seg.onCellCleaned();
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
            seg.onCellCleaned();
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
     * that value with the error. Nothing here allocates.
     */

    /**
     * Gives up cell {@code i} of {@code seg} for a send hit by an error, or for a try-send that
     * found room only after the close; idempotent.
     */
    static void abandonSendCell(ChannelState ch, Segment seg, int i, Object waiter) {
        while (true) {
            Object st = seg.lvState(i);
            if (st == null || st == IN_BUFFER || (waiter != null && Cells.holds(st, waiter))) {
                if (seg.casState(i, st, INTERRUPTED_SEND)) {
                    seg.spElement(i, null);
                    seg.onCellCleaned();
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
            }
            return; // delivered (BUFFERED, DONE), or a cell we never wrote
        }
    }

    /** Gives up cell {@code i} of {@code seg} for a receive hit by an error; idempotent. */
    static void abandonReceiveCell(ChannelState ch, Segment seg, int i, Object waiter) {
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
            }
            return;
        }
    }
}
