package dev.weft.channels;

/**
 * The states a cell can hold, apart from waiters. A cell is one slot of the infinite array that a
 * {@link Channel} models; its <em>state</em> word is one of these markers, {@code null}, a waiting
 * {@link Thread}, a registered {@link SelectOp}, or a {@link WaiterEB} wrapping one of the last two.
 * The transitions are listed in the overview comment of {@link Channel}.
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
     * Transient: a thread holds the cell while it tries to complete a registered select. It never
     * waits while holding it: if the select is busy, it restores the previous state.
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
