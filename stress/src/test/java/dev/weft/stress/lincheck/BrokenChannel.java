package dev.weft.stress.lincheck;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A deliberately broken bounded channel for the Lincheck negative controls: the capacity check
 * and the insertion are two separate steps (two senders can both see room), and the closed flag
 * is checked before, not atomically with, the insertion (a send can succeed after a close). Every
 * individual access is thread-safe, so only an interleaving-aware checker finds the bugs.
 */
final class BrokenChannel {
    private final int capacity;
    private final ConcurrentLinkedQueue<Integer> buffer = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private volatile String closed;

    BrokenChannel(int capacity) {
        this.capacity = capacity;
    }

    Object trySend(int v) {
        if (closed != null) {
            return closed;
        }
        if (size.get() >= capacity) { // BUG: check ...
            return "full";
        }
        size.incrementAndGet(); // ... then act
        buffer.add(v);
        return "sent";
    }

    Object tryReceive() {
        if ("error".equals(closed)) {
            return "error";
        }
        Integer v = buffer.poll();
        if (v != null) {
            size.decrementAndGet();
            return v;
        }
        return closed != null ? closed : "empty";
    }

    Object done() {
        if (closed != null) {
            return "already " + closed;
        }
        closed = "done"; // BUG: not a CAS
        return "closed";
    }

    Object error() {
        if (closed != null) {
            return "already " + closed;
        }
        closed = "error";
        buffer.clear();
        size.set(0);
        return "closed";
    }

    boolean isClosedForSend() {
        return closed != null;
    }

    boolean isClosedForReceive() {
        return "error".equals(closed) || "done".equals(closed) && buffer.isEmpty();
    }
}
