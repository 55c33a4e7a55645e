package dev.weft.channels;

import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;

/**
 * The part of {@link WaitEvents} that uses {@code jdk.jfr}; loaded only when that module is
 * readable. Event types are looked up only once the recorder is initialized (looking one up
 * initializes JFR's metadata, which takes a good fraction of a second).
 */
final class JfrEvents {
    private JfrEvents() {}

    /** The event types, looked up on first use after the recorder was initialized. */
    private static final class Types {
        static final EventType CHANNEL_WAIT = EventType.getEventType(ChannelWaitEvent.class);
        static final EventType SELECT_WAIT = EventType.getEventType(SelectWaitEvent.class);
    }

    static Object beginChannelWait() {
        if (!FlightRecorder.isInitialized() || !Types.CHANNEL_WAIT.isEnabled()) {
            return null;
        }
        ChannelWaitEvent e = new ChannelWaitEvent();
        e.begin();
        return e;
    }

    static void endChannelWait(Object event, ChannelState ch, String operation, String outcome) {
        ChannelWaitEvent e = (ChannelWaitEvent) event;
        e.end();
        if (e.shouldCommit()) {
            e.channel = ch.describe();
            e.operation = operation;
            e.outcome = outcome;
            e.commit();
        }
    }

    static Object beginSelectWait() {
        if (!FlightRecorder.isInitialized() || !Types.SELECT_WAIT.isEnabled()) {
            return null;
        }
        SelectWaitEvent e = new SelectWaitEvent();
        e.begin();
        return e;
    }

    static void endSelectWait(Object event, SelectOp op, int clause, String outcome) {
        SelectWaitEvent e = (SelectWaitEvent) event;
        e.end();
        if (e.shouldCommit()) {
            e.clauses = op.describeClauses();
            e.selectedClause = clause;
            e.outcome = outcome;
            e.commit();
        }
    }
}
