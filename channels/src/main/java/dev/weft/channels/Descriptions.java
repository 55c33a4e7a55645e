package dev.weft.channels;

import static dev.weft.channels.ChannelCounters.CLOSED_BIT;
import static dev.weft.channels.ChannelCounters.COUNT_MASK;
import static dev.weft.channels.ChannelCounters.ERROR_BIT;
import static dev.weft.channels.ChannelState.UNLIMITED;

/**
 * Text about a channel: the one line of {@link Channel#toString()} for logs, and the dump of its
 * counters and cells ({@link Channel#dumpCells()}) for debugging the channel itself. The short
 * identity ({@code Channel[orders, capacity 16]}) is {@link ChannelState#describe()}.
 */
final class Descriptions {
    private Descriptions() {}

    /** Segments shown by {@link #dumpCells}; the rest are elided. */
    private static final int MAX_SEGMENTS_IN_DUMP = 16;

    /**
     * One line: identity, open/done/error, and approximate buffered and waiting counts from the
     * counters (see {@link Channel#toString()}). Constant time, bounded text.
     */
    static String line(ChannelState ch) {
        long w = ch.lvSenders();
        long s = w & COUNT_MASK;
        long r = ch.lvReceiverCount();
        int capacity = ch.capacity;
        StringBuilder sb = ch.appendIdentity(new StringBuilder(128));
        boolean closed = (w & CLOSED_BIT) != 0;
        sb.append(", ").append(!closed ? "open" : (w & ERROR_BIT) != 0 ? "error" : "done");
        long end = capacity == UNLIMITED ? Long.MAX_VALUE : capacity > 0 ? Math.max(ch.lvBufferEnd(), r + capacity) : r;
        if (capacity != 0 && !(closed && (w & ERROR_BIT) != 0)) {
            sb.append(", buffered ~").append(Math.max(0L, Math.min(s, end) - r));
        }
        if (!closed) {
            sb.append(", waiting senders ~").append(Math.max(0L, s - Math.max(r, end)))
                    .append(", waiting receivers ~").append(Math.max(0L, r - s));
        }
        return sb.append(']').toString();
    }

    /** The counters and the cell states of the reachable segments (at most 16), multi-line. */
    static String dumpCells(ChannelState ch) {
        long w = ch.lvSenders();
        int capacity = ch.capacity;
        StringBuilder sb = new StringBuilder("Channel(capacity=");
        sb.append(capacity == UNLIMITED ? "unlimited" : String.valueOf(capacity))
                .append(", senders=")
                .append(w & COUNT_MASK)
                .append((w & CLOSED_BIT) != 0 ? ((w & ERROR_BIT) != 0 ? " [error]" : " [done]") : "")
                .append(", receivers=")
                .append(ch.lvReceiverCount());
        if (capacity > 0) {
            sb.append(", bufferEnd=").append(ch.lvBufferEnd());
        }
        sb.append(')');
        int shown = 0;
        for (Segment s = ch.oldestSegment(); s != null && s != Segment.CLOSED_LIST; s = s.next()) {
            if (shown++ == MAX_SEGMENTS_IN_DUMP) {
                sb.append("\n  ...");
                break;
            }
            sb.append("\n  ").append(s);
        }
        return sb.toString();
    }

    /** {@code Channel@<identity hash>}, for one-line messages. */
    static String shortName(Channel<?> ch) {
        return ch == null ? "null" : "Channel@" + Integer.toHexString(System.identityHashCode(ch));
    }
}
