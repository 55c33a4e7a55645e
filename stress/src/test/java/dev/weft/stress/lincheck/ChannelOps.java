package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelDone;
import dev.weft.channels.ChannelError;
import dev.weft.channels.Sink;

/** Maps the results of weft's {@code ...OrClosed} operations to plain values Lincheck can compare. */
final class ChannelOps {
    private ChannelOps() {}

    static final RuntimeException BOOM = new RuntimeException("boom");

    static String closed(Object o) {
        if (o instanceof ChannelDone) {
            return "done";
        }
        if (o instanceof ChannelError e) {
            return e.cause() == BOOM ? "error" : "error(" + e.cause() + ")";
        }
        return "unexpected " + o;
    }

    static Object trySend(Channel<Integer> ch, int v) {
        Object o = ch.trySendOrClosed(v);
        return o == null ? "sent" : o == Sink.NOT_SENT ? "full" : closed(o);
    }

    static Object tryReceive(Channel<Integer> ch) {
        Object o = ch.tryReceiveOrClosed();
        return o == null ? "empty" : o instanceof Integer ? o : closed(o);
    }

    static Object done(Channel<Integer> ch) {
        Object o = ch.doneOrClosed();
        return o == null ? "closed" : "already " + closed(o);
    }

    static Object error(Channel<Integer> ch) {
        Object o = ch.errorOrClosed(BOOM);
        return o == null ? "closed" : "already " + closed(o);
    }
}
