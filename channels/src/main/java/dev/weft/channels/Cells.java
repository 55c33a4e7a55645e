package dev.weft.channels;

/**
 * What a cell's state word can hold. A cell is one slot of the infinite array that a channel
 * models (see {@link ChannelState}); its state word is {@code null} (EMPTY), one of the {@link
 * State} constants below, a waiting {@link Thread}, a registered select ({@code SelectOp}), or a
 * {@link WaiterEB} wrapping one of the last two. Nothing else is ever stored there: result tokens
 * are a different type ({@link Result}).
 *
 * <p>Who may change a cell, every transition with its writer, and where in the code it happens are
 * in {@code docs/cell-states.md} (a diagram and a table). In short: cell {@code i} has exactly one
 * sender, exactly one receiver, at most one buffer expansion, the closing sweep and, for a select
 * registration, the select's owner withdrawing it; every change is a CAS from one expected state;
 * {@link #CLAIMED} is the only lock, held for a few instructions by a running thread; the cell's
 * sender also waits out {@code BREAKING} and {@code INTERRUPTING_RCV} (see {@link
 * CellUpdates#giveUpReceiverCell}).
 */
final class Cells {
    private Cells() {}

    /** The cell states other than EMPTY ({@code null}) and waiters; only identity matters. */
    enum State {
        /** The buffer end passed this cell before its sender wrote it: the send will buffer. */
        IN_BUFFER,
        /** The cell's element slot holds a value that its receiver has not taken yet. */
        BUFFERED,
        /** The sender and the receiver of this cell met; the element is (being) handed over. */
        DONE,
        /** The receiver came first and gave up on an in-flight sender; both retry elsewhere. */
        BROKEN,
        /**
         * Transient, buffered channels only: the receiver gave up on its in-flight sender (as
         * BROKEN) and is moving the buffer end for the cell; then it writes BROKEN. See {@link
         * CellUpdates#giveUpReceiverCell}.
         */
        BREAKING,
        /** The sender withdrew (interrupt, timeout, failed try, dead or refused registration, Error). */
        INTERRUPTED_SEND,
        /** The receiver withdrew (interrupt, timeout, failed try, dead or refused registration, Error). */
        INTERRUPTED_RCV,
        /**
         * Transient, buffered channels only: a receiver that had not yet moved the buffer end (a
         * failed try-receive, or one hit by an Error) withdrew (as INTERRUPTED_RCV) and is moving
         * it for the cell; then it writes INTERRUPTED_RCV. See {@link
         * CellUpdates#giveUpReceiverCell}.
         */
        INTERRUPTING_RCV,
        /** Closing reached the cell: whoever comes here sees the channel closed. No element is kept. */
        CLOSED,
        /**
         * Transient: a thread holds the cell while it completes, kills or refuses a registered
         * select. It never waits, allocates or runs user code while holding it; if the select
         * changed meanwhile, it restores the previous state.
         */
        CLAIMED
    }

    /**
     * A waiter (thread or select) in a cell that buffer expansion has already counted. It has two
     * meanings, by who wrote it:
     *
     * <ul>
     *   <li>buffer expansion wrapped a waiting sender (or a waiter, in {@code passReceiverCell})
     *       because the cell's receiver is already on its way: if that sender withdraws, it must
     *       expand the buffer again, as the expansion it was counted for buffered nothing;
     *   <li>a receiver wrapped itself when it started waiting over {@link #IN_BUFFER} (the buffer
     *       end had already passed the cell): if it withdraws, the cell counts as cleaned at once.
     * </ul>
     *
     * <p>Allocated only in those races.
     */
    static final class WaiterEB {
        final Object waiter;

        WaiterEB(Object waiter) {
            this.waiter = waiter;
        }

        @Override
        public String toString() {
            return "EB(" + waiter + ")";
        }
    }

    /** The waiter in {@code state}, unwrapping {@link WaiterEB}. */
    static Object unwrap(Object state) {
        return state instanceof WaiterEB w ? w.waiter : state;
    }

    /** Whether {@code state} is a (possibly wrapped) waiter: a thread or a select registration. */
    static boolean isWaiter(Object state) {
        return state != null && !(state instanceof State);
    }

    /**
     * Whether the cell's receiver withdrew: INTERRUPTED_RCV, or INTERRUPTING_RCV while it still
     * moves the buffer end (for the cleaned count both are the same).
     */
    static boolean receiverWithdrew(Object state) {
        return state == State.INTERRUPTED_RCV || state == State.INTERRUPTING_RCV;
    }

    /** Whether the cell state still holds {@code me} as its waiter. */
    static boolean holds(Object state, Object me) {
        return state == me || (state instanceof WaiterEB w && w.waiter == me);
    }
}
