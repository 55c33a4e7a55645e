package dev.weft.channels;

/**
 * The result tokens of the internal operations, one vocabulary for sends, receives and select
 * registration. A receive returns either a value or one of these; no user value can be one (the
 * type is package-private). They are never stored in a cell (cell states are {@link Cells.State}).
 */
enum Result {
    /** The send completed (buffered, or handed to a receiver); a select's send clause is selected. */
    DONE,
    /** The operation's waiter (thread or select registration) is now in the cell. */
    INSTALLED,
    /** The cell is unusable (poisoned or withdrawn by its partner): claim another cell. */
    FAILED,
    /** The channel is closed for this operation. */
    CLOSED,
    /** A try-operation found no partner and withdrew from its cell. */
    NO_WAITER,
    /** The registering select was completed by a partner while registering; read its state. */
    HELPED,
    /** A wait ended because the thread was interrupted (its flag is cleared). */
    INTERRUPTED,
    /** A wait ended because its deadline passed. */
    TIMED_OUT
}
