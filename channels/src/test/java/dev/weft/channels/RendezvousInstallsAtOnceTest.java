package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A plain send or receive in a rendezvous channel installs itself in an empty cell without
 * reading the other side's count ({@link ChannelState#installsAtOnce}), so it also waits when its
 * partner has claimed the cell and is on its way (before, a sender read the count, left its value
 * and returned; a receiver spun up to 64 times for its sender and then poisoned the cell). These
 * replays hold that partner after its claim ({@link Faults#RECEIVE_CLAIMED}, {@link
 * Faults#SEND_CLAIMED}) and check that the waiter's extra spin for it is bounded (it parks: with
 * one carrier the partner may not run meanwhile), and that the waiter then behaves as any
 * waiter: its partner completes it, an interrupt withdraws it (the partner moves on to the next
 * cell), and a done that comes meanwhile lets the pair complete. A receive that starts after a
 * close still sees it by itself, without the closer's sweep.
 */
@Timeout(120)
class RendezvousInstallsAtOnceTest {
    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    /** The channel, with the partner of cell 0 (the receiver, in {@code partner}) held after its claim. */
    private record Held(Channel<Integer> ch, Forked<Object> partner, Gate gate) {
        static Held start(ThreadKind kind) throws InterruptedException {
            return start(kind, Faults.RECEIVE_CLAIMED);
        }

        /** Holds the receiver at {@code RECEIVE_CLAIMED}, or a send of 100 at {@code SEND_CLAIMED}. */
        static Held start(ThreadKind kind, String point) throws InterruptedException {
            Channel<Integer> ch = Channel.newRendezvousChannel();
            Gate gate = new Gate();
            Thread[] held = new Thread[1];
            Faults.probe = p -> {
                if (p.equals(point) && Thread.currentThread() == held[0]) {
                    gate.hold();
                }
            };
            boolean receive = point.equals(Faults.RECEIVE_CLAIMED);
            Forked<Object> f = Forked.start(kind, () -> {
                held[0] = Thread.currentThread(); // before its claim: the probe reads it there
                return receive ? ch.receiveOrClosed() : ch.sendOrClosed(100);
            });
            assertTrue(gate.awaitHeld(), "the partner did not claim its cell");
            return new Held(ch, f, gate);
        }

        Forked<Object> receiver() {
            return partner;
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aSendWhoseReceiverIsOnItsWayParksAndTheReceiverCompletesIt(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Held h = Held.start(kind);
        Forked<Object> sender = Forked.start(kind, () -> h.ch().sendOrClosed(100));
        assertTrue(Forked.awaitBlockedOrDone(sender.thread()),
                "the send returned while its receiver was still on its way: it did not wait in its cell");
        h.gate().release();
        assertNull(sender.join().value(), "the send completes with its receiver");
        assertEquals(100, h.receiver().join().value());
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void anInterruptedSendWithdrawsAndItsReceiverMovesOn(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Held h = Held.start(kind);
        Forked<Object> sender = Forked.start(kind, () -> h.ch().sendOrClosed(100));
        assertTrue(Forked.awaitBlockedOrDone(sender.thread()), "the send did not wait in its cell");
        sender.interrupt();
        assertInstanceOf(InterruptedException.class, sender.join().failure(),
                "the interrupt withdrew the send before its receiver came");
        h.gate().releaseAndAwaitLeft();
        assertTrue(Forked.awaitBlockedOrDone(h.receiver().thread()),
                "the receiver found the cell withdrawn and waits in the next");
        assertNull(h.ch().sendOrClosed(200));
        assertEquals(200, h.receiver().join().value(), "the receiver took the next value, not the withdrawn one");
        assertNull(h.ch().tryReceiveOrClosed(), "nothing else is in the channel");
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aDoneWhileTheSendWaitsLetsThePairComplete(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Held h = Held.start(kind);
        Forked<Object> sender = Forked.start(kind, () -> h.ch().sendOrClosed(100));
        assertTrue(Forked.awaitBlockedOrDone(sender.thread()), "the send did not wait in its cell");
        h.ch().done();
        h.gate().release();
        assertNull(sender.join().value(), "a send that claimed its cell before done completes");
        assertEquals(100, h.receiver().join().value());
        assertInstanceOf(ChannelDone.class, h.ch().receiveOrClosed());
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aReceiveWhoseSenderIsOnItsWayWaitsInTheCellAndTheSenderCompletesIt(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Held h = Held.start(kind, Faults.SEND_CLAIMED);
        Channel<Integer> ch = h.ch();
        Gate gate = h.gate();
        Forked<Object> s = h.partner();
        Forked<Object> receiver = Forked.start(kind, ch::receiveOrClosed);
        assertTrue(Forked.awaitBlockedOrDone(receiver.thread()), "the receive did not wait");
        gate.releaseAndAwaitLeft();
        assertNull(s.join().value(), "the send completes with its receiver");
        assertEquals(100, receiver.join().value());
        assertFalse(ch.dumpCells().contains("BROKEN"),
                "the receiver poisoned the cell of its sender on its way instead of waiting there\n"
                        + ch.dumpCells());
    }

    /**
     * A receive that starts after {@code done()} set the closed bits must see the close by
     * itself, even when the closer is hit by an Error right after its OR (standing for a
     * StackOverflowError or OutOfMemoryError in its sweep) and never sweeps: it installs itself
     * in its cell, finds the cell at the close's sender count, and closes it
     * (Waiting.closeIfNoSenderWillCome). Review of 863c81b: it parked for ever.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aReceiveAfterADoneHitByAnErrorStillSeesTheClose(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Holds holds = new Holds();
        holds.failAt(Thread.currentThread(), Faults.CLOSE_BITS_SET);
        assertThrows(StackOverflowError.class, ch::done);
        Faults.probe = null;
        assertTrue(ch.isClosedForSend(), "the closed bits are set");
        Forked<Object> receiver = Forked.start(kind, ch::receiveOrClosed);
        assertInstanceOf(ChannelDone.class, receiver.get(Duration.ofSeconds(10)),
                "a receive that started after the close must see it\n" + ch.dumpCells());
    }

    /**
     * The same without an Error: the closer is only slow (held after its OR). A receive that
     * starts after the close took effect does not wait for the closer's sweep ({@link
     * CloseableChannel}: operations never wait for another operation to make progress).
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aReceiveAfterTheClosedBitsDoesNotWaitForTheCloser(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Holds holds = new Holds();
        Thread closer = Thread.ofPlatform().unstarted(ch::done);
        Gate bitsSet = holds.at(closer, Faults.CLOSE_BITS_SET);
        closer.start();
        assertTrue(bitsSet.awaitHeld(), "done() did not set its bits");
        assertTrue(ch.isClosedForSend());
        Forked<Object> receiver = Forked.start(kind, ch::receiveOrClosed);
        try {
            assertInstanceOf(ChannelDone.class, receiver.get(Duration.ofSeconds(5)),
                    "the receive waited for the closer's sweep\n" + ch.dumpCells());
        } finally {
            bitsSet.releaseAndAwaitLeft();
            closer.join(TimeUnit.SECONDS.toMillis(60));
        }
    }

    /**
     * A timed receive (1 ns) that starts after the closed bits, while the closer has not swept
     * (held, or hit by an Error after its OR): its spin times out before it would park, and it
     * must still report the close, not a timeout. Review of af7c92a: a virtual one returned
     * {@code null} (the close check ran only before a park).
     */
    @ParameterizedTest(name = "{0}, closer hit by an Error: {1}")
    @CsvSource({"VIRTUAL, true", "VIRTUAL, false", "PLATFORM, true", "PLATFORM, false"})
    void aTimedReceiveAfterTheClosedBitsReportsTheCloseNotATimeout(ThreadKind kind, boolean closerFails) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Holds holds = new Holds();
        Thread closer = Thread.ofPlatform().unstarted(() -> Forked.outcome(ch::doneOrClosed));
        Gate bitsSet = null;
        if (closerFails) {
            holds.failAt(closer, Faults.CLOSE_BITS_SET);
        } else {
            bitsSet = holds.at(closer, Faults.CLOSE_BITS_SET);
        }
        closer.start();
        if (closerFails) {
            closer.join(TimeUnit.SECONDS.toMillis(60));
        } else {
            assertTrue(bitsSet.awaitHeld(), "done() did not set its bits");
        }
        assertTrue(ch.isClosedForSend());
        try {
            Forked<Object> r = Forked.start(kind, () -> ch.tryReceiveOrClosed(Duration.ofNanos(1)));
            assertInstanceOf(ChannelDone.class, r.get(Duration.ofSeconds(10)),
                    "a timed receive that started after done() reported a timeout\n" + ch.dumpCells());
        } finally {
            if (bitsSet != null) {
                bitsSet.releaseAndAwaitLeft();
            }
            closer.join(TimeUnit.SECONDS.toMillis(60));
        }
    }
}
