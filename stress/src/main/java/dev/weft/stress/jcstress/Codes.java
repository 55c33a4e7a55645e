package dev.weft.stress.jcstress;

import dev.weft.channels.ChannelDone;
import dev.weft.channels.ChannelError;
import dev.weft.channels.Sink;

/**
 * Integer codes that the jcstress scenarios record, so outcomes stay readable in the report.
 *
 * <p>Positive numbers are channel values (or, for selects, the value the clause callback
 * returned). Everything else is one of the negative codes below.
 */
final class Codes {
    private Codes() {}

    /** Nothing: {@code null} from a try-op, "not attempted", or a flag that is off. */
    static final int NONE = 0;
    /** A {@link ChannelDone}. */
    static final int DONE = -1;
    /** A {@link ChannelError}. */
    static final int ERROR = -2;
    /** {@link Sink#NOT_SENT}. */
    static final int NOT_SENT = -3;
    /** The operation threw {@link InterruptedException}. */
    static final int INTERRUPTED = -4;
    /** A timed operation timed out. */
    static final int TIMEOUT = -5;
    /** Something unexpected (wrong type, unexpected exception). Never acceptable. */
    static final int WEIRD = -99;

    /** Encodes what an {@code ...OrClosed} operation returned. */
    static int of(Object o) {
        if (o == null) {
            return NONE;
        }
        if (o instanceof Integer i) {
            return i;
        }
        if (o instanceof ChannelDone) {
            return DONE;
        }
        if (o instanceof ChannelError) {
            return ERROR;
        }
        if (o == Sink.NOT_SENT) {
            return NOT_SENT;
        }
        return WEIRD;
    }

    static int bool(boolean b) {
        return b ? 1 : 0;
    }
}
