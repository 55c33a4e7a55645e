package dev.weft.channels;

import static dev.weft.channels.Cells.State.CLAIMED;
import static dev.weft.channels.Cells.State.CLOSED;
import static dev.weft.channels.Cells.State.DONE;
import static dev.weft.channels.Cells.State.INTERRUPTED_RCV;
import static dev.weft.channels.Cells.State.INTERRUPTED_SEND;

import java.util.concurrent.locks.LockSupport;

/**
 * Anyone other than its owner meeting a select's registration in a cell: a sender or receiver (plain
 * or itself a registering select), buffer expansion, closing. Every change of such a cell goes
 * through {@code CLAIMED} where something is decided while holding it: the meeting thread claims
 * the cell by CAS, then completes the select ({@link #claimAndComplete}), or finalizes the cell as
 * withdrawn ({@link #killCell}) and, if the select is still registering, asks it to register that
 * clause again. A registration known to be dead or refused before the cell is touched is withdrawn
 * by one CAS to the final state instead ({@link #withdrawRegistration}). The select's own side is in
 * {@link SelectRegistration}, its state machine in {@link SelectOp}.
 */
final class SelectMeeting {
    private SelectMeeting() {}

    // results of meetSelect
    /** The rendezvous happened in this cell: the select is selected, the cell is DONE. */
    static final int MET = 0;
    /** The cell changed before it could be claimed: read it again. */
    static final int RETRY = 1;
    /** The registration was dead or refused: the cell is withdrawn, claim another one. */
    static final int WITHDRAWN = 2;
    /** The current select was helped: its rendezvous happened in this very cell. */
    static final int HELPED_HERE = 3;
    /** The current select helped its partner and completed in another cell; this one is withdrawn. */
    static final int HELPED_ELSEWHERE = 4;

    /**
     * Claims cell {@code i} of {@code seg} (state {@code st}, a registration of {@code op}), then
     * completes {@code op}: moves it from WAITING to {@code outcome}, writes {@code cellAfter} into
     * the cell (dropping the element if that is CLOSED) and wakes the owner.
     *
     * @return {@link Result#FAILED} when the cell changed and was not claimed; {@link Result#DONE}
     *     when op completed; otherwise the state op had, and the caller still holds the cell
     *     CLAIMED and must finalize it
     */
    static Object claimAndComplete(
            Segment seg, int i, Object st, SelectOp op, Object outcome, Cells.State cellAfter) {
        if (!seg.casState(i, st, CLAIMED)) {
            return Result.FAILED;
        }
        Object os = op.lvState();
        if (os == SelectOp.WAITING && op.casState(os, outcome)) {
            if (cellAfter == CLOSED) {
                seg.spElement(i, null);
            }
            seg.svState(i, cellAfter);
            op.wake();
            return Result.DONE;
        }
        return os;
    }

    /**
     * Completes, finds dead, or refuses the registration of select {@code op} that cell {@code i}
     * holds (state {@code st}), for the cell's other party: a plain operation ({@code self ==
     * null}) or a registering select {@code self} (then LOCKED by the current thread).
     *
     * <p>Of the threads that come here, only a registering select with a smaller id waits for a
     * registering select, and it parks (see {@link #awaitLargerSelect}); everybody else refuses
     * the registration (also a select's first-clause try, which comes here as a plain operation): the cell is withdrawn and {@code op} registers that clause again.
     * (Closing, which does not come here, parks too: see {@code Closing.closeCell}.)
     *
     * @param send whether {@code op}'s registration in this cell is a send
     * @return {@link #MET}, {@link #RETRY}, {@link #WITHDRAWN}, {@link #HELPED_HERE} or {@link
     *     #HELPED_ELSEWHERE}
     */
    static int meetSelect(
            ChannelState ch, Segment seg, int i, Object st, SelectOp op, boolean send, SelectOp self) {
        int k = op.clauseIndexOf(ch);
        Object selected = SelectOp.selected(k); // allocated (k >= 64) before the cell is claimed
        while (true) {
            Object os = op.lvState();
            if (os == SelectOp.WAITING) {
                Object r = claimAndComplete(seg, i, st, op, selected, DONE);
                if (r == Result.FAILED) {
                    return RETRY;
                }
                if (r == Result.DONE) {
                    return MET;
                }
                seg.svState(i, st); // CLAIMED -> registration: op changed meanwhile, look again
                continue;
            }
            if (SelectOp.isTerminal(os)) {
                return withdrawRegistration(ch, seg, i, st, send, null) ? WITHDRAWN : RETRY;
            }
            // op is registering (LOCKED or Pending)
            if (self != null) {
                if (os instanceof SelectOp.Pending p && p.partner == self) {
                    // op waits for us: complete the rendezvous it described, in its cell
                    if (helpPending(op, p, self)) {
                        withdrawRegistration(ch, seg, i, st, send, null); // unless someone else did
                        return HELPED_ELSEWHERE;
                    }
                    continue; // stale: op was released and retries; it is LOCKED now
                }
                if (op.id() > self.id()) {
                    if (awaitLargerSelect(self, op, seg, i, k, self.clauseIndexOf(ch))) {
                        return HELPED_HERE;
                    }
                    return RETRY;
                }
            }
            // a plain operation, or a select with a larger id: never wait for op; refuse its
            // registration here, and op registers that clause again
            return withdrawRegistration(ch, seg, i, st, send, op) ? WITHDRAWN : RETRY;
        }
    }

    /**
     * {@code self} (LOCKED by the current thread) found, in the cell it works on (cell {@code i}
     * of {@code seg}), the registration of {@code op}, which is registering and has a larger id.
     * It publishes a Pending descriptor and parks until op helps (the rendezvous happened in this
     * cell: returns true), op is no longer registering, or op found the descriptor stale and
     * released it (both: returns false, the caller reads the cell again). It parks on a node in
     * op's lock-waiter stack, which op drains when it stops registering; ids only grow along a
     * chain of such waits, so the chain ends at a select that waits for nobody.
     */
    private static boolean awaitLargerSelect(
            SelectOp self, SelectOp op, Segment seg, int i, int opK, int selfK) {
        SelectOp.Pending p = new SelectOp.Pending(op, selfK, opK, seg, i);
        self.svState(p);
        boolean pushed = false;
        // Registering is not interruptible (the select's await reports an interrupt), but park
        // returns at once while the interrupt flag is set: the flag is cleared for this wait and
        // restored after it. Otherwise this loop spins, without ever unmounting, on the carrier
        // that op's owner may need to stop registering (with one carrier: forever), and pushes
        // a node on op's stack per turn (issue 8, Bug 4; OneCarrierProgressTest,
        // RegisteringSelectWaitTest).
        boolean interrupted = false;
        try {
            while (true) {
                Object s = self.lvState();
                if (s != p) {
                    return SelectOp.isTerminal(s); // helped, or released as stale (LOCKED)
                }
                if (!SelectOp.isLocked(op.lvState())) {
                    if (self.casState(p, SelectOp.LOCKED)) {
                        return false;
                    }
                    continue; // op helped us meanwhile
                }
                if (!pushed) {
                    op.pushLockWaiter(self.owner);
                    pushed = true;
                    continue; // look again after publishing the node (op drains after unlocking)
                }
                if (Thread.interrupted()) {
                    interrupted = true;
                    continue; // look again before parking, now that park can park
                }
                LockSupport.park(self);
                pushed = false; // woken: if op is still locked, wait on a fresh node
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Completes the rendezvous described by {@code p} (published by {@code op}, waiting for {@code
     * self}): in p's cell, which holds self's registration, both selects are selected. Returns
     * false when the descriptor is stale: p's cell no longer holds self's registration (buffer
     * expansion, closing or a plain operation withdrew it), or p's channel is in error; then op
     * is released (Pending -> LOCKED) and reads its cell again.
     */
    private static boolean helpPending(SelectOp op, SelectOp.Pending p, SelectOp self) {
        Segment seg = p.seg;
        int i = p.i;
        Object opSelected = SelectOp.selected(p.k);
        Object selfSelected = SelectOp.selected(p.partnerK);
        int step = 0;
        while (true) {
            Object st = seg.lvState(i);
            if (st == CLAIMED) {
                step = Waiting.backoff(step); // a running thread finishes the cell without waiting
                continue;
            }
            // stale if the cell no longer holds self's registration; also refuse to commit in a
            // channel in error (op checked it when it met us, but that may be long ago)
            if (Cells.unwrap(st) != self || op.clause(p.k).channel().errorBeforeCommit() != null) {
                if (op.casState(p, SelectOp.LOCKED)) {
                    Faults.at(Faults.PENDING_STALE);
                    op.wake();
                }
                return false;
            }
            if (!seg.casState(i, st, CLAIMED)) {
                continue;
            }
            if (!op.casState(p, opSelected)) {
                seg.svState(i, st);
                return false;
            }
            seg.svState(i, DONE);
            self.svState(selfSelected);
            op.wake();
            return true;
        }
    }

    /**
     * Finalizes a cell that the current thread claimed from a registration ({@code st}) that is
     * dead or refused: the registration is withdrawn.
     *
     * @param send whether the registration is a send
     */
    static void killCell(ChannelState ch, Segment seg, int i, Object st, boolean send) {
        seg.svState(i, send ? INTERRUPTED_SEND : INTERRUPTED_RCV);
        countWithdrawn(ch, seg, i, st, send);
    }

    /**
     * Withdraws the registration {@code st} (dead, refused, or its owner's own) from cell {@code
     * i} by one CAS to the final state, where nothing needs deciding while holding the cell, so
     * without a CLAIMED window (an Error inside one would leave the cell held for ever); then
     * counts the cell.
     *
     * @param send whether the registration is a send
     * @param refused the select whose registration this refuses (it registers that clause again),
     *     or {@code null}; asked even if the accounting throws (it may move the buffer end and
     *     allocate a segment), or it would wait with a clause nobody can see (review of 2c740f7)
     * @return false if the cell no longer held {@code st} (nothing was done)
     */
    static boolean withdrawRegistration(
            ChannelState ch, Segment seg, int i, Object st, boolean send, SelectOp refused) {
        if (!seg.casState(i, st, send ? INTERRUPTED_SEND : INTERRUPTED_RCV)) {
            return false;
        }
        try {
            countWithdrawn(ch, seg, i, st, send);
        } finally {
            if (refused != null) {
                refused.requestReregistration();
            }
        }
        return true;
    }

    /** The accounting of a withdrawn cell, once it holds its final state. */
    private static void countWithdrawn(ChannelState ch, Segment seg, int i, Object st, boolean send) {
        if (send) {
            Withdrawal.onSenderCellWithdrawn(ch, seg, i, st);
        } else {
            Withdrawal.onReceiverCellWithdrawn(ch, seg, i, st);
        }
    }
}
