package dev.weft.channels;

import static dev.weft.channels.Cells.State.CLAIMED;

import java.util.concurrent.locks.LockSupport;

/**
 * The owner's side of a select: registering its clauses in their channels, waiting, registering
 * refused clauses again, withdrawing the registrations that lost, and taking the value of a
 * selected receive clause. The state machine is in {@link SelectOp}; what other threads do when
 * they meet a registration is in {@link SelectMeeting}.
 */
final class SelectRegistration {
    private SelectRegistration() {}

    /**
     * Registers clause {@code k} (op is LOCKED); returns {@code null} when registered, otherwise
     * the terminal state op reached.
     */
    static Object registerClause(SelectOp op, int k) {
        SelectClause<?> c = op.clause(k);
        Object r = c.channel().register(op, k, c.isSend(), c.sendValue());
        if (r == Result.INSTALLED) {
            op.setRegistered(k, true);
            return null;
        }
        Object st;
        if (r == Result.HELPED) {
            op.wakeLockWaiters(); // the helper already did; harmless again
            return op.lvState();
        } else if (r == Result.DONE) {
            st = SelectOp.selected(k);
        } else if (c.channel().isCloseSignal(r)) {
            // identity, not type: a received value may itself be a ChannelClosed object
            st = new SelectOp.ClosedSel(k, (ChannelClosed) r);
        } else {
            op.recordValue(k, r);
            st = SelectOp.selected(k);
        }
        op.svState(st);
        return st;
    }

    /**
     * Parks until op is completed, cancelling it on interrupt or timeout; registers again the
     * clauses that another operation refused. A cancel by interrupt clears the flag (the caller
     * throws {@link InterruptedException}); an interrupt that lost to a partner stays set.
     *
     * @param order the registration order ({@code null}: clause order), for {@link #reregister}
     * @return op's terminal state, or {@link Result#INTERRUPTED} when cancelled by an interrupt
     */
    static Object await(SelectOp op, long timeout, int[] order) {
        long deadline = timeout > 0 ? Waiting.deadline(timeout) : 0L;
        Spin spin = op.clause(0).channel().spin;
        boolean interrupted = false;
        op.svState(SelectOp.WAITING);
        try {
            while (true) {
                Object st = op.lvState();
                if (SelectOp.isTerminal(st)) {
                    return st;
                }
                if (op.takeReregisterRequest()) {
                    if (op.casState(SelectOp.WAITING, SelectOp.LOCKED)) {
                        Object r = reregister(op, order);
                        if (r != null) {
                            return r;
                        }
                        op.svState(SelectOp.WAITING);
                    }
                    continue;
                }
                // a zero timeout never waits, so, like every operation that does not wait, it
                // leaves the interrupt flag alone
                Object w = timeout == 0L
                        ? Result.TIMED_OUT
                        : Waiting.spinThenPark(null, 0, op.owner, op, deadline, spin, op, false);
                if (w == Result.INTERRUPTED || w == Result.TIMED_OUT) {
                    if (op.casState(SelectOp.WAITING, SelectOp.CANCELLED)) {
                        // an interrupt is reported as InterruptedException instead of the flag
                        return w == Result.INTERRUPTED ? Result.INTERRUPTED : SelectOp.CANCELLED;
                    }
                    // a partner completed it first (only partners move it from WAITING): the
                    // interrupt stays visible to the caller
                    interrupted |= w == Result.INTERRUPTED;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@link #await}, recording a JFR {@code dev.weft.SelectWait} event when enabled. */
    static Object awaitObserved(SelectOp op, long timeout, int[] order) {
        Object event = WaitEvents.beginSelectWait();
        if (event == null) {
            return await(op, timeout, order);
        }
        Object st = await(op, timeout, order);
        if (st == Result.INTERRUPTED) {
            WaitEvents.endSelectWait(event, op, -1, WaitEvents.INTERRUPT);
        } else if (st == SelectOp.CANCELLED) {
            WaitEvents.endSelectWait(event, op, -1, WaitEvents.TIMEOUT);
        } else if (st instanceof SelectOp.ClosedSel c) {
            WaitEvents.endSelectWait(event, op, c.k(), WaitEvents.CLOSE);
        } else if (st instanceof SelectOp.Selected sel) {
            WaitEvents.endSelectWait(event, op, sel.k(), WaitEvents.RENDEZVOUS);
        }
        return st;
    }

    /**
     * Registers again every clause whose registration was refused (op is LOCKED): from {@link
     * #await}, and between two clauses of the first registration, so that a clause refused before
     * its channel was closed is registered again (and finds the close) before a later clause can
     * complete. Clauses are registered again in registration order ({@code order}, or clause
     * order when {@code null}), so an unbiased select keeps the order it drew.
     *
     * @return {@code null} when every clause is registered again, otherwise op's terminal state
     */
    static Object reregister(SelectOp op, int[] order) {
        for (int j = 0, n = op.clauseCount(); j < n; j++) {
            int k = order == null ? j : order[j];
            if (!op.isRegistered(k)) {
                continue;
            }
            Segment seg = op.segment(k);
            int i = op.index(k);
            int step = 0;
            Object st;
            while ((st = seg.lvState(i)) == CLAIMED) {
                step = Waiting.backoff(step); // the holder restores it: we are LOCKED
            }
            if (Cells.unwrap(st) == op) {
                continue;
            }
            op.setRegistered(k, false);
            Object r = registerClause(op, k);
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    /**
     * After a {@link Throwable} (an {@link Error} such as {@link StackOverflowError} or {@link
     * OutOfMemoryError}) escaped registration or waiting: stop registering, so nobody waits for
     * this select, and withdraw every registration. If a partner completed the select
     * concurrently, that clause's outcome is lost with the error.
     */
    static void abort(SelectOp op) {
        while (true) {
            Object s = op.lvState();
            if (SelectOp.isTerminal(s)) {
                break;
            }
            if (s == SelectOp.LOCKED) {
                op.svState(SelectOp.CANCELLED); // owner-only state
                break;
            }
            if (op.casState(s, SelectOp.CANCELLED)) { // WAITING or Pending: a partner may race
                break;
            }
        }
        // always: the Error may have struck between a terminal state write and its drain, and a
        // select or a close parked on this one must not wait forever
        op.wakeLockWaiters();
        cleanup(op, -1);
    }

    /** Withdraws every registration but clause {@code selected}'s. */
    static void cleanup(SelectOp op, int selected) {
        for (int k = 0, n = op.clauseCount(); k < n; k++) {
            if (op.isRegistered(k) && k != selected) {
                withdraw(op.clause(k).channel(), op, k);
            }
        }
    }

    /**
     * Withdraws the registration of clause {@code k} of {@code op} from its cell in {@code ch}, if
     * it is still there; if another thread holds the cell, that thread finalizes it.
     */
    private static void withdraw(ChannelState ch, SelectOp op, int k) {
        Segment seg = op.segment(k);
        int i = op.index(k);
        while (true) {
            Object st = seg.lvState(i);
            if (Cells.unwrap(st) != op) {
                return;
            }
            if (SelectMeeting.withdrawRegistration(ch, seg, i, st, op.clause(k).isSend(), null)) {
                return;
            }
        }
    }

    /**
     * The value the selected receive clause {@code k} got: taken during registration, or read
     * from its cell (and the slot cleared).
     */
    static Object takeValue(SelectOp op, int k) {
        Object taken = op.valueTaken(k);
        if (taken != null) {
            return taken;
        }
        Segment seg = op.segment(k);
        int i = op.index(k);
        int step = 0;
        while (seg.lvState(i) == CLAIMED) {
            step = Waiting.backoff(step); // the partner is finishing the cell
        }
        Object v = seg.lpElement(i);
        seg.spElement(i, null);
        seg.cleanPrev(); // a completed receive: earlier segments are done with
        return v;
    }
}
