package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bug 5 of issue 8: an {@link Error} thrown inside an operation (here injected through {@link
 * Faults}, standing for a {@link StackOverflowError} or an {@link OutOfMemoryError}) must leave
 * nothing that others wait for or deliver to: no LOCKED select registration (on a0d3073 the next
 * {@code trySend} and {@code done()} spun forever), no phantom receiver (on a0d3073 a rendezvous
 * {@code trySend} then returned true for a value nobody receives). Needs {@code
 * -Dweft.faults=true} (set by the channels module's surefire configuration).
 */
class ErrorInsideOperationTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @BeforeEach
    void faultsOn() {
        assertTrue(Faults.ENABLED, "run with -Dweft.faults=true");
    }

    @AfterEach
    void faultsOff() {
        Faults.probe = null;
    }

    /** Runs a blocking call on another thread, failing (not hanging) if it does not return. */
    private static <T> T within(java.util.concurrent.Callable<T> call) throws Exception {
        return Forked.virtual(call).get(PATIENCE);
    }

    /** Throws {@code StackOverflowError} the {@code nth} time (1-based) the point is passed. */
    private static void failAt(String point, int nth) {
        AtomicInteger seen = new AtomicInteger();
        Thread victim = Thread.currentThread();
        Faults.probe = p -> {
            if (p.equals(point) && Thread.currentThread() == victim && seen.incrementAndGet() == nth) {
                throw new StackOverflowError("injected at " + point);
            }
        };
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void selectHitWhileRegisteringWithdrawsItsRegistrations(Capacity capacity) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<String> a = capacity.newChannel();
        Channel<String> b = Channel.newRendezvousChannel();
        for (int i = 0; i < capacity.buffer(); i++) {
            assertTrue(a.trySend("fill"));
        }
        Channel<String> full = capacity.newChannel(); // a send clause that must wait
        for (int i = 0; i < capacity.buffer(); i++) {
            assertTrue(full.trySend("fill"));
        }
        failAt(Faults.SELECT_REGISTERED, 2); // after the 2nd clause registered
        assertThrows(
                StackOverflowError.class,
                () -> Select.select(b.receiveClause(), full.sendClause("s"), a.sendClause("t")));
        Faults.probe = null;
        // nobody treats the dead registrations as live, and nobody waits for them
        Forked<Boolean> trySend = Forked.virtual(() -> b.trySend("phantom?"));
        assertFalse(trySend.get(PATIENCE), "a withdrawn receive registration must not take a value");
        Forked<String> tryReceive = Forked.virtual(() -> capacity.isRendezvous() ? full.tryReceive() : null);
        assertNull(tryReceive.get(PATIENCE), "a withdrawn send registration must not deliver");
        Forked<Object> done = Forked.virtual(() -> {
            full.done();
            return b.doneOrClosed();
        });
        assertNull(done.get(PATIENCE));
        // the channels still work
        for (int i = 0; i < capacity.buffer(); i++) {
            assertEquals("fill", within(full::receive));
        }
        assertTrue(within(full::receiveOrClosed) instanceof ChannelDone);
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void receiveHitAfterClaimingItsCellLeavesNoPhantomReceiver(Capacity capacity) throws Exception {
        Channel<String> ch = capacity.newChannel();
        failAt(Faults.RECEIVE_CLAIMED, 1);
        assertThrows(StackOverflowError.class, ch::receive);
        Faults.probe = null;
        if (capacity.isRendezvous()) {
            assertFalse(ch.trySend("v"), "nobody is receiving: a rendezvous trySend must fail");
        } else {
            assertTrue(ch.trySend("v"));
            assertEquals("v", within(ch::receive));
        }
        // the channel still works, and a buffered one still holds exactly its capacity
        if (capacity.isBounded() && !capacity.isRendezvous()) {
            for (int i = 0; i < capacity.buffer(); i++) {
                assertTrue(ch.trySend("f" + i));
            }
            assertFalse(ch.trySend("over"));
            for (int i = 0; i < capacity.buffer(); i++) {
                assertEquals("f" + i, within(ch::receive));
            }
        }
        Forked<String> r = Forked.virtual(ch::receive);
        within(() -> {
            ch.send("after");
            return null;
        });
        assertEquals("after", r.get(PATIENCE));
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void waitingReceiveHitLeavesNoPhantom(Capacity capacity) throws Exception {
        Channel<String> ch = capacity.newChannel();
        failAt(Faults.RECEIVE_CLAIMED, 1);
        Forked<String> r = Forked.virtual(() -> {
            failAt(Faults.RECEIVE_CLAIMED, 1);
            return ch.receive();
        });
        assertTrue(r.failure() instanceof StackOverflowError);
        Faults.probe = null;
        Forked<Boolean> s = Forked.virtual(() -> ch.trySend("v"));
        assertEquals(!capacity.isRendezvous(), s.get(PATIENCE));
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void sendHitAfterClaimingItsCellDeliversNothing(Capacity capacity) throws Exception {
        Channel<String> ch = capacity.newChannel();
        failAt(Faults.SEND_CLAIMED, 1);
        assertThrows(StackOverflowError.class, () -> ch.send("lost"));
        Faults.probe = null;
        assertNull(ch.tryReceive(), "the failed send delivered nothing");
        if (capacity.isBounded() && !capacity.isRendezvous()) {
            for (int i = 0; i < capacity.buffer(); i++) {
                assertTrue(ch.trySend("f" + i), "the buffer keeps its full capacity");
            }
            for (int i = 0; i < capacity.buffer(); i++) {
                assertEquals("f" + i, within(ch::receive));
            }
        }
        Forked<String> r = Forked.virtual(ch::receive);
        within(() -> {
            ch.send("after");
            return null;
        });
        assertEquals("after", r.get(PATIENCE));
        Forked<Object> done = Forked.virtual(ch::doneOrClosed);
        assertNull(done.get(PATIENCE));
    }
    /**
     * A send hit after claiming the cell in which a receiver already waits: the receiver must not
     * stay parked in a cell whose sender is gone (before, {@code abandonSendCell} left it there,
     * later sends went to later cells, and even {@code done()} did not wake it: its cell is below
     * the close's sender count). It retries in another cell, as if it had withdrawn, and gets the
     * next value.
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void sendHitWhileItsReceiverWaitsLeavesTheReceiverWaitingForTheNextValue(Capacity capacity) throws Exception {
        Channel<String> ch = capacity.newChannel();
        Forked<String> r = Forked.virtual(ch::receive).awaitBlocked();
        Forked<String> plainSelect = Forked.virtual(() -> Select.select(ch.receiveClause(), Channel.<String>newRendezvousChannel().receiveClause()))
                .awaitBlocked();
        failAt(Faults.SEND_CLAIMED, 1);
        assertThrows(StackOverflowError.class, () -> ch.send("lost"));
        failAt(Faults.SEND_CLAIMED, 1);
        assertThrows(StackOverflowError.class, () -> ch.send("lost too"));
        Faults.probe = null;
        within(() -> {
            ch.send("after");
            ch.send("after too");
            return null;
        });
        Object first = r.get(PATIENCE);
        Object second = plainSelect.get(PATIENCE);
        assertEquals(java.util.Set.of("after", "after too"), java.util.Set.of(first, second),
                "both receivers get one of the later values");
        assertNull(ch.tryReceive(), "nothing else was delivered");
        assertNull(within(ch::doneOrClosed));
    }

    /**
     * The mirror image: a receive hit after claiming the cell in which a sender already waits.
     * The sender must not stay parked in a cell whose receiver is gone; it sends its value in
     * another cell, to the next receiver. Here a rendezvous channel; a buffered one gets there
     * when an expansion wrapped the waiting sender because its receiver was on its way (see
     * WithdrawnPartnerTest).
     */
    @org.junit.jupiter.api.Test
    void receiveHitWhileItsSenderWaitsLeavesTheSenderSendingToTheNextReceiver() throws Exception {
        Channel<String> ch = Channel.newRendezvousChannel();
        Forked<Void> s = Forked.run(ThreadKind.VIRTUAL, () -> ch.send("waiting")).awaitBlocked();
        Forked<Object> selectSend = Forked.virtual(() -> Select.<Object>select(ch.sendClause("waiting too"),
                Channel.<String>newRendezvousChannel().receiveClause())).awaitBlocked();
        failAt(Faults.RECEIVE_CLAIMED, 1);
        assertThrows(StackOverflowError.class, ch::receive);
        failAt(Faults.RECEIVE_CLAIMED, 1);
        assertThrows(StackOverflowError.class, ch::receive);
        Faults.probe = null;
        Object first = within(ch::receive);
        Object second = within(ch::receive);
        assertEquals(java.util.Set.of("waiting", "waiting too"), java.util.Set.of(first, second),
                "the waiting senders send to the later receivers");
        s.get(PATIENCE);
        selectSend.get(PATIENCE);
        assertNull(within(ch::doneOrClosed));
    }
}
