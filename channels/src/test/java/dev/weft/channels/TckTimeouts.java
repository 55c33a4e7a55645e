package dev.weft.channels;

/** Timeouts of the Reactive Streams TCK runs, generous for a loaded machine. */
final class TckTimeouts {
    private TckTimeouts() {}

    /** How long the TCK waits for a signal it expects. */
    static final long DEFAULT_MILLIS = 5_000;

    /** How long the TCK waits to make sure a signal does not come (every such check costs it). */
    static final long NO_SIGNALS_MILLIS = 200;

    /** How often the TCK polls for an expected signal. */
    static final long POLL_MILLIS = 10;

    /** How long the TCK waits for the publisher to drop a cancelled subscriber (rule 3.13). */
    static final long GC_MILLIS = 2_000;
}
