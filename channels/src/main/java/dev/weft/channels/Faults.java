package dev.weft.channels;

import java.util.function.Consumer;

/**
 * Fault injection for tests: lets a test throw an {@link Error} at a named point inside an
 * operation, to check what an {@code Error} (say a {@link StackOverflowError} or an {@link
 * OutOfMemoryError}) leaves behind. Off unless the JVM runs with {@code -Dweft.faults=true}; the
 * flag is a constant, so the JIT removes the probes from production code.
 */
final class Faults {
    private Faults() {}

    /**
     * A plain or select send or receive has claimed its cell (its FAA) and not yet found the
     * cell's segment (which may allocate it).
     */
    static final String CELL_RESOLVING = "cell.resolving";
    /** A plain or select send has claimed its cell and not yet updated it. */
    static final String SEND_CLAIMED = "send.claimed";
    /**
     * A plain or select send has read the close reason (no error) and is about to update its cell
     * (buffer its value, wait, or complete a waiting receiver).
     */
    static final String SEND_COMMITTING = "send.committing";
    /** A winning close has set the closed bits and not yet swept the cells. */
    static final String CLOSE_BITS_SET = "close.bits.set";
    /**
     * A try-receive found the channel not empty (before claiming a cell): its count of receivers
     * can still be overtaken.
     */
    static final String TRY_RECEIVE_CHECKED = "try.receive.checked";
    /**
     * A receiver has given its cell up (poisoned it, or withdrawn after a failed try) and not yet
     * moved the buffer end for it: the cell holds BREAKING or INTERRUPTING_RCV.
     */
    static final String RECEIVER_GIVING_UP = "receiver.giving.up";
    /**
     * A try-send found that it could send now (before claiming a cell): another sender can still
     * take the room or the receiver it saw.
     */
    static final String TRY_SEND_CHECKED = "try.send.checked";
    /**
     * A receive of a buffered channel (a waiting thread, or a select's registration) has installed
     * itself in its cell and not yet moved the buffer end for its claim: the receiver count
     * already counts it, the buffer end does not yet.
     */
    static final String RECEIVE_INSTALLED = "receive.installed";
    /** A plain or select receive has claimed its cell and not yet updated it. */
    static final String RECEIVE_CLAIMED = "receive.claimed";
    /** A receiver has read BUFFERED in its cell and not yet stored DONE ({@code takeBuffered}). */
    static final String RECEIVE_TAKING = "receive.taking";
    /**
     * Buffer expansion found, in the cell it expands to, a select's send registration and no
     * receiver for the cell yet, and is about to claim the cell (to move it into the buffer, or
     * to refuse it if the select is still registering).
     */
    static final String EXPAND_MEETS_SELECT = "expand.meets.select";
    /**
     * Buffer expansion moved the buffer end past a cell whose sender had not claimed it when the
     * expansion read the sender count, and has not yet marked the cell passed.
     */
    static final String EXPAND_PASSING = "expand.passing";
    /**
     * A publisher's subscription thread found its subscription not cancelled and has not yet read
     * the demand.
     */
    static final String PUBLISHER_NOT_CANCELLED = "publisher.not.cancelled";
    /**
     * A thread fixed a segment's birth (its CAS from UNBORN won) and has not yet marked the cells
     * the birth owns ({@link SegmentBirth}).
     */
    static final String BIRTH_FIXED = "birth.fixed";
    /** A select has just registered (or completed) one clause. */
    static final String SELECT_REGISTERED = "select.registered";

    /** A select found the Pending descriptor of another select stale and released it. */
    static final String PENDING_STALE = "pending.stale";

    static final boolean ENABLED = Boolean.getBoolean("weft.faults");

    /** The test's probe: called with the point's name on every thread that passes it. */
    static volatile Consumer<String> probe;

    static void at(String point) {
        if (ENABLED) {
            Consumer<String> p = probe;
            if (p != null) {
                p.accept(point);
            }
        }
    }
}
