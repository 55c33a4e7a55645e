package dev.weft.stress.lincheck;

import java.util.ArrayDeque;

/**
 * Sequential specification of a buffered or unlimited channel under the non-blocking operations
 * (the Lincheck tests' {@code sequentialSpecification}). Method names and signatures match the
 * {@code @Operation}s of the tests; results use the same plain values as {@link ChannelOps}. It
 * models the documented semantics: {@code done()} keeps buffered values (they are still received,
 * then "done"); {@code error()} discards them (every receive then gets "error"). The spurious
 * failure of try-operations under contention is not in the spec itself; {@link
 * RelaxedTryOpsVerifier} maps such failures to {@link #trySendFailed} and {@link
 * #tryReceiveFailed}.
 */
public abstract class ChannelSpec {
    private final int capacity;
    private final ArrayDeque<Integer> buffer = new ArrayDeque<>();
    private String closed; // null, "done" or "error"

    protected ChannelSpec(int capacity) {
        this.capacity = capacity;
    }

    public Object trySend(int v) {
        if (closed != null) {
            return closed;
        }
        if (capacity >= 0 && buffer.size() >= capacity) {
            return "full";
        }
        buffer.add(v);
        return "sent";
    }

    public Object tryReceive() {
        if ("error".equals(closed)) {
            return "error";
        }
        if (!buffer.isEmpty()) {
            return buffer.poll();
        }
        return closed != null ? closed : "empty";
    }

    /** The same as {@link #tryReceive()}: the close-model tests name the operation after the API call. */
    public Object tryReceiveOrClosed() {
        return tryReceive();
    }

    /**
     * A {@code trySend} that failed under contention ({@link RelaxedTryOpsVerifier}): no effect;
     * its result must still show the close if the channel is closed at its linearization point.
     */
    public Object trySendFailed(int v) {
        return closed != null ? closed : "full";
    }

    /**
     * A receive that found nothing under contention ({@link RelaxedTryOpsVerifier}): no effect; its
     * result must still show the close if the channel is closed for receive at that point.
     */
    public Object tryReceiveFailed() {
        return isClosedForReceive() ? closed : "empty";
    }

    public Object done() {
        if (closed != null) {
            return "already " + closed;
        }
        closed = "done";
        return "closed";
    }

    public Object error() {
        if (closed != null) {
            return "already " + closed;
        }
        closed = "error";
        buffer.clear();
        return "closed";
    }

    public boolean isClosedForSend() {
        return closed != null;
    }

    public Object closedForReceive() {
        return "error".equals(closed) ? "error" : "done".equals(closed) && buffer.isEmpty() ? "done" : "open";
    }

    public boolean isClosedForReceive() {
        return "error".equals(closed) || "done".equals(closed) && buffer.isEmpty();
    }

    /** Capacity 1. */
    public static final class Buffered1 extends ChannelSpec {
        public Buffered1() {
            super(1);
        }
    }

    /** Capacity 2. */
    public static final class Buffered2 extends ChannelSpec {
        public Buffered2() {
            super(2);
        }
    }

    /** Unlimited. */
    public static final class Unlimited extends ChannelSpec {
        public Unlimited() {
            super(-1);
        }
    }
}
