package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shared checks and set-ups for the select tests: make a clause ready (a parked partner for a
 * rendezvous channel, a buffered value or free room otherwise), and check that a channel holds no
 * leftover registration, value or lost capacity.
 */
final class SelectChecks {
    private SelectChecks() {}

    /**
     * Makes a receive on {@code ch} possible right away and returns the parked sender thread (for
     * a rendezvous channel), or {@code null} when {@code v} was buffered.
     */
    static Forked<Void> offer(Channel<Integer> ch, Capacity capacity, int v, ThreadKind kind)
            throws InterruptedException {
        if (capacity.isRendezvous()) {
            return Forked.run(kind, () -> ch.send(v)).awaitBlocked();
        }
        assertTrue(ch.trySend(v), "room for " + v + ": " + ch.dumpCells());
        return null;
    }

    /**
     * Makes a send on {@code ch} possible right away: for a rendezvous channel a receiver is
     * parked on it (and returned), a buffered channel is expected to have room.
     */
    static Forked<Integer> demand(Channel<Integer> ch, Capacity capacity, ThreadKind kind) {
        if (capacity.isRendezvous()) {
            return Forked.start(kind, ch::receive).awaitBlocked();
        }
        return null;
    }

    /** Fills a bounded channel's buffer with 0, 1, ..., so that a send would wait. */
    static void fill(Channel<Integer> ch, Capacity capacity) throws InterruptedException {
        for (int i = 0; i < capacity.buffer(); i++) {
            assertTrue(ch.trySend(i));
        }
        assertFalse(ch.trySend(-999), "the buffer should be full: " + ch.dumpCells());
    }

    /** Receives the values {@link #fill} put in, in order. */
    static void drainFilled(Channel<Integer> ch, Capacity capacity) {
        for (int i = 0; i < capacity.buffer(); i++) {
            assertEquals(i, ch.tryReceive(), "buffered value " + i + ": " + ch.dumpCells());
        }
    }

    /**
     * The channel is idle and works as a fresh one would: no value or sender is left in it, no
     * receiver is registered in it, its full capacity is available, and a parked receiver gets the
     * next value. Leaves the channel empty.
     */
    static void assertFresh(Channel<Integer> ch, Capacity capacity, String what) throws Exception {
        assertNull(ch.tryReceive(), what + ": a value or a sender was left in the channel: " + ch.dumpCells());
        if (capacity.isRendezvous()) {
            assertFalse(ch.trySend(-1), what + ": a receiver is still registered: " + ch.dumpCells());
        } else if (capacity.isUnlimited()) {
            assertTrue(ch.trySend(-1));
            assertEquals(-1, ch.tryReceive(), what + ": a registered receiver took the value: " + ch.dumpCells());
        } else {
            for (int i = 0; i < capacity.buffer(); i++) {
                assertTrue(ch.trySend(-1 - i), what + ": buffer capacity was lost: " + ch.dumpCells());
            }
            assertFalse(ch.trySend(-100), what + ": the buffer grew: " + ch.dumpCells());
            for (int i = 0; i < capacity.buffer(); i++) {
                assertEquals(-1 - i, ch.tryReceive(), what + ": a registered receiver took a value: " + ch.dumpCells());
            }
        }
        assertNull(ch.tryReceive(), what + ": " + ch.dumpCells());
        Forked<Integer> receiver = Forked.virtual(ch::receive).awaitBlocked();
        ch.send(-77);
        assertEquals(-77, receiver.get(), what);
        assertNull(ch.tryReceive(), what + ": " + ch.dumpCells());
    }

    static void spin(int n) {
        for (int i = 0; i < n; i++) {
            Thread.onSpinWait();
        }
    }
}
