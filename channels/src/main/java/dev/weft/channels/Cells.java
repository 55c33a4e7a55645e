package dev.weft.channels;

/**
 * The states a cell can hold, apart from waiters. A cell is one slot of the infinite array that a
 * {@link Channel} models; its <em>state</em> word is one of these markers, {@code null}, a waiting
 * {@link Thread}, a registered {@link SelectOp}, or a {@link WaiterEB} wrapping one of the last two.
 *
 * <h2>Who may touch a cell</h2>
 *
 * <p>Cell {@code i} has exactly one sender (the i-th FAA on {@code senders}), exactly one receiver
 * (the i-th FAA on {@code receivers}), at most one buffer expansion (the FAA on {@code bufferEnd}
 * that returned i), the closing sweep, and, for a select registration, the select's owner
 * withdrawing it. Every change is a CAS from one expected state, so of two threads racing on a
 * cell exactly one moves it, and the other reads the new state and acts on that. {@code CLAIMED}
 * is the only lock: it is taken by CAS from a select registration, and its holder finishes the
 * cell in a few instructions without waiting, allocating or calling user code (so every spin on
 * {@code CLAIMED} ends when a running thread takes its next steps).
 *
 * <h2>Every CAS site on a cell: from, to, by whom (see {@link Channel})</h2>
 *
 * <table>
 *   <caption>cell transitions</caption>
 *   <tr><th>from</th><th>to</th><th>by</th><th>where</th></tr>
 *   <tr><td>EMPTY</td><td>BUFFERED</td><td>sender, below the buffer end or with its receiver
 *       on its way</td><td>updateCellSend</td></tr>
 *   <tr><td>EMPTY</td><td>waiter</td><td>sender or receiver that must wait</td>
 *       <td>updateCellSendSlow, updateCellReceiveSlow</td></tr>
 *   <tr><td>EMPTY, IN_BUFFER</td><td>INTERRUPTED_SEND / _RCV</td><td>a try-operation that found
 *       no partner; an operation hit by an Error</td><td>update*Slow, abandon*Cell</td></tr>
 *   <tr><td>EMPTY, IN_BUFFER</td><td>BROKEN</td><td>receiver, its sender in flight after a
 *       bounded spin</td><td>updateCellReceiveSlow</td></tr>
 *   <tr><td>EMPTY</td><td>IN_BUFFER</td><td>buffer expansion passing a cell before its sender
 *       </td><td>passReceiverCell, updateCellExpandBuffer</td></tr>
 *   <tr><td>IN_BUFFER</td><td>BUFFERED</td><td>sender</td><td>updateCellSendSlow</td></tr>
 *   <tr><td>IN_BUFFER</td><td>WaiterEB(receiver)</td><td>receiver that must wait</td>
 *       <td>updateCellReceiveSlow</td></tr>
 *   <tr><td>waiter</td><td>WaiterEB(waiter)</td><td>buffer expansion, when the cell's receiver
 *       is on its way (or waits there)</td><td>passReceiverCell, updateCellExpandBuffer</td></tr>
 *   <tr><td>BUFFERED</td><td>DONE</td><td>receiver, after {@code errorBeforeCommit}; an Error
 *       in the receive (value lost)</td><td>updateCellReceive, abandonReceiveCell</td></tr>
 *   <tr><td>BUFFERED</td><td>CLOSED</td><td>error sweep (cell not claimed); a receiver refused
 *       by the error</td><td>closeCell, updateCellReceiveSlow</td></tr>
 *   <tr><td>waiting Thread</td><td>DONE</td><td>the partner, after {@code
 *       errorBeforeCommit}</td><td>update*Slow</td></tr>
 *   <tr><td>waiting Thread (sender)</td><td>BUFFERED</td><td>buffer expansion, no receiver
 *       yet</td><td>updateCellExpandBuffer</td></tr>
 *   <tr><td>own waiter</td><td>INTERRUPTED_SEND / _RCV</td><td>the waiter (interrupt, timeout,
 *       Error)</td><td>awaitSend, awaitReceive, abandon*Cell</td></tr>
 *   <tr><td>waiter, EMPTY, IN_BUFFER</td><td>CLOSED</td><td>closing sweep</td>
 *       <td>closeCell</td></tr>
 *   <tr><td>select registration</td><td>CLAIMED</td><td>partner, buffer expansion, closing,
 *       the owner withdrawing, a helper completing a Pending</td><td>meetSelect, helpPending,
 *       updateCellExpandBuffer, closeCell, withdraw</td></tr>
 *   <tr><td>CLAIMED</td><td>DONE, BUFFERED, CLOSED, INTERRUPTED_*, or the registration
 *       again</td><td>the holder only (plain write)</td><td>same places, killCell</td></tr>
 * </table>
 *
 * <p>DONE, BROKEN, INTERRUPTED_SEND, INTERRUPTED_RCV and CLOSED are final. From this table the
 * sender's slow path can only meet EMPTY, IN_BUFFER, BROKEN, INTERRUPTED_RCV, CLOSED, CLAIMED or a
 * receiver's waiter (BUFFERED, DONE and INTERRUPTED_SEND are written only by or for the cell's
 * sender, which has not acted yet), and the receiver's slow path only the mirror image; both
 * throw {@code AssertionError} on anything else, which the randomized stress would report.
 */
final class Cells {
    private Cells() {}

    /** A cell state marker; only identity matters, the name is for {@code toString()}. */
    static final class Marker {
        private final String name;

        Marker(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The buffer-end index passed this cell before its sender arrived: the send will buffer. */
    static final Marker IN_BUFFER = new Marker("IN_BUFFER");
    /** The cell's element slot holds a value that its receiver has not taken yet. */
    static final Marker BUFFERED = new Marker("BUFFERED");
    /** The sender and the receiver of this cell met; the element has been (or is being) handed over. */
    static final Marker DONE = new Marker("DONE");
    /** The receiver came first and gave up on an in-flight sender; both retry elsewhere. */
    static final Marker BROKEN = new Marker("BROKEN");
    /** The sender withdrew (interrupt, timeout, failed try, dead select registration). */
    static final Marker INTERRUPTED_SEND = new Marker("INTERRUPTED_SEND");
    /** The receiver withdrew (interrupt, timeout, failed try, dead select registration). */
    static final Marker INTERRUPTED_RCV = new Marker("INTERRUPTED_RCV");
    /** Closing reached the cell: whoever still comes here sees the channel closed. */
    static final Marker CLOSED = new Marker("CLOSED");
    /**
     * Transient: a thread holds the cell while it completes, kills or refuses a registered select.
     * It never waits, allocates or runs user code while holding it; if the select changed
     * meanwhile, it restores the previous state.
     */
    static final Marker CLAIMED = new Marker("CLAIMED");

    /**
     * A waiter (thread or select) that the buffer-end index passed while the cell's receiver was
     * already on its way. If a sender wrapped like this withdraws, it must expand the buffer again,
     * as the expansion it was counted for did not buffer anything. Allocated only in that race.
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

    /** Whether {@code state} is a (possibly wrapped) thread or select waiter. */
    static boolean isWaiter(Object state) {
        Object w = unwrap(state);
        return w instanceof Thread || w instanceof SelectOp;
    }
}
