package dev.weft.channels;

import java.util.Optional;

/**
 * The JFR events of waits ({@code dev.weft.ChannelWait}, {@code dev.weft.SelectWait}), seen from
 * code that must not depend on {@code jdk.jfr}: the module only {@code requires static jdk.jfr},
 * so it works on a runtime without it (for example one made by {@code jlink} without {@code
 * jdk.jfr}, or a module-path launch that does not resolve it). This class never names a {@code
 * jdk.jfr} type; {@link JfrEvents}, which does, is loaded only when {@code jdk.jfr} is readable.
 *
 * <p>Cost while no event is recorded: only the wait path calls in here (after the operation found
 * that it must wait), and {@link #beginChannelWait()} then reads a static final flag and {@code
 * FlightRecorder.isInitialized()}; once a recording ever ran, also the event type's enabled flag.
 * It allocates nothing unless the event is enabled. The event class is loaded only once JFR is
 * initialized, so an application that never records never pays for JFR's setup.
 */
final class WaitEvents {
    private WaitEvents() {}

    static final String SEND = "send";
    static final String RECEIVE = "receive";

    /** Outcomes: the operation completed (a partner took or brought the value, or, for a
     *  buffered channel, the waiting send was moved into the buffer; a select chose a clause). */
    static final String RENDEZVOUS = "rendezvous";

    /** Outcome: the channel (for a select, one clause's channel) was closed. */
    static final String CLOSE = "close";

    /** Outcome: the thread was interrupted; the operation had no effect. */
    static final String INTERRUPT = "interrupt";

    /** Outcome: the timeout elapsed; the operation had no effect. */
    static final String TIMEOUT = "timeout";

    /**
     * Outcome: the cell's partner was hit by an Error (or was a late try-send that found the
     * channel closed) and withdrew this waiter; the operation goes on in another cell (and may
     * wait again: a new event, or find the close).
     */
    static final String RETRY = "retry";

    /** Whether jdk.jfr is in the runtime and this module reads it. */
    static final boolean JFR = jfrReadable();

    private static boolean jfrReadable() {
        if (Boolean.getBoolean("weft.jfr.disabled")) {
            return false;
        }
        try {
            Optional<Module> jfr = ModuleLayer.boot().findModule("jdk.jfr");
            return jfr.isPresent() && WaitEvents.class.getModule().canRead(jfr.get());
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** Starts timing a channel wait; {@code null} (nothing to end) unless the event is enabled. */
    static Object beginChannelWait() {
        if (!JFR) {
            return null;
        }
        try {
            return JfrEvents.beginChannelWait();
        } catch (RuntimeException | LinkageError e) { // e.g. a failed event class init
            return null; // observability must never break an operation
        }
    }

    /** Ends what {@link #beginChannelWait()} started; commits if it lasted the threshold. */
    static void endChannelWait(Object event, ChannelState ch, String operation, String outcome) {
        try {
            JfrEvents.endChannelWait(event, ch, operation, outcome);
        } catch (RuntimeException | LinkageError e) { // e.g. a failed event class init
            // the operation completed: it must not lose its value because of an event
        }
    }

    /** Starts timing a select's wait; {@code null} unless the event is enabled. */
    static Object beginSelectWait() {
        if (!JFR) {
            return null;
        }
        try {
            return JfrEvents.beginSelectWait();
        } catch (RuntimeException | LinkageError e) { // e.g. a failed event class init
            return null;
        }
    }

    /** Ends what {@link #beginSelectWait()} started; commits if it lasted the threshold. */
    static void endSelectWait(Object event, SelectOp op, int clause, String outcome) {
        try {
            JfrEvents.endSelectWait(event, op, clause, outcome);
        } catch (RuntimeException | LinkageError e) { // e.g. a failed event class init
            // the select completed: it must not lose its result because of an event
        }
    }
}
