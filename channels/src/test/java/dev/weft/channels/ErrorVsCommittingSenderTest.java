package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A send that read "no error" just before {@code error()} took effect must not report success for
 * a value that no receiver takes (CI failure of stop 16: jcstress {@code
 * CloseObservedErrorRendezvous} with 1-cell segments, forbidden outcome {@code 1, -2, 1, -2, 0,
 * -2}: the observer saw the error twice, and the rendezvous send of 2 still returned "sent").
 *
 * <p>Interleaving, replayed through the fault probes:
 *
 * <ol>
 *   <li>the sender claims its cell {@code s} and reads no close reason (held at {@code
 *       SEND_COMMITTING});
 *   <li>{@code error()} sets its bits (held at {@code CLOSE_BITS_SET}, before its sweep);
 *   <li>receivers arrive after the error: each reports the error, but each one's FAA still counts
 *       it, so the receiver count passes {@code s};
 *   <li>the sender goes on. Before the fix it read that count as "a receiver is coming for my
 *       cell", buffered its value and returned; the sweep then discarded the value. (A plain
 *       rendezvous send no longer reads that count at all; the last test covers the bound for a
 *       rendezvous channel with a select's send clause.) A rendezvous
 *       send (or a send to a full buffer) that returns must have a partner that takes the value,
 *       and none came before the error, so the send must report the error.
 * </ol>
 */
@Timeout(120)
class ErrorVsCommittingSenderTest {
    private static final RuntimeException BOOM = new RuntimeException("boom");

    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    @ParameterizedTest(name = "capacity {0}, {1} threads")
    @CsvSource({"0, VIRTUAL", "0, PLATFORM", "1, VIRTUAL", "1, PLATFORM", "2, VIRTUAL"})
    void receiversAfterTheErrorAreNoPartnerForASendBeforeIt(int capacity, ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newBufferedChannel(capacity);
        for (int v = 1; v <= capacity; v++) {
            assertTrue(ch.trySend(v), "fill the buffer");
        }
        Gate senderGate = new Gate();
        Gate closerGate = new Gate();
        Object[] sent = new Object[1];
        Thread sender = kind.builder().unstarted(() -> sent[0] = Forked.outcome(() -> ch.sendOrClosed(100)));
        Thread closer = kind.builder().unstarted(() -> ch.errorOrClosed(BOOM));
        Faults.probe = point -> {
            Thread me = Thread.currentThread();
            if (point.equals(Faults.SEND_COMMITTING) && me == sender) {
                senderGate.hold();
            } else if (point.equals(Faults.CLOSE_BITS_SET) && me == closer) {
                closerGate.hold();
            }
        };
        sender.start();
        assertTrue(senderGate.awaitHeld(), "the sender did not reach its cell");
        closer.start();
        assertTrue(closerGate.awaitHeld(), "the close did not set its bits");
        // receivers after the error: they count, so the receiver count passes the sender's cell
        for (int k = 0; k <= capacity; k++) {
            assertInstanceOf(ChannelError.class, ch.receiveOrClosed(), "a receive after the error");
        }
        senderGate.releaseAndAwaitLeft();
        Forked.awaitBlockedOrDone(sender); // with the fix the sender waits, and the sweep wakes it
        closerGate.release();
        sender.join(TimeUnit.SECONDS.toMillis(60));
        closer.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(sender.isAlive() || closer.isAlive(), "the threads did not finish");
        assertInstanceOf(ChannelError.class, sent[0],
                "the send returned " + sent[0] + " although no receiver took its value before the error");
        assertInstanceOf(ChannelError.class, ch.tryReceiveOrClosed());
        assertEquals(ch.errorIfAny(), sent[0]);
    }

    /**
     * The other side of the bound: a receiver that claimed its cell before the error is a partner.
     * Sender and receiver of cell 0 of a rendezvous channel are both on their way when the error
     * comes (the sender then waits in the cell, the receiver is held after its claim); the error
     * cannot be allowed to break their rendezvous just because it came first in time: when the
     * receiver gets to the cell before the error's sweep, the pair takes effect before the error,
     * so the send succeeds and the receiver gets the value (guards against a fix that refuses
     * every sender once the error bit is set).
     */
    @ParameterizedTest(name = "{0} threads")
    @CsvSource({"VIRTUAL", "PLATFORM"})
    void aReceiverFromBeforeTheErrorStillTakesTheValue(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Gate senderGate = new Gate();
        Gate receiverGate = new Gate();
        Gate closerGate = new Gate();
        Object[] sent = new Object[1];
        Object[] received = new Object[1];
        Thread sender = kind.builder().unstarted(() -> sent[0] = Forked.outcome(() -> ch.sendOrClosed(100)));
        Thread receiver = kind.builder().unstarted(() -> received[0] = Forked.outcome(ch::receiveOrClosed));
        Thread closer = kind.builder().unstarted(() -> ch.errorOrClosed(BOOM));
        Faults.probe = point -> {
            Thread me = Thread.currentThread();
            if (point.equals(Faults.SEND_COMMITTING) && me == sender) {
                senderGate.hold();
            } else if (point.equals(Faults.RECEIVE_CLAIMED) && me == receiver) {
                receiverGate.hold();
            } else if (point.equals(Faults.CLOSE_BITS_SET) && me == closer) {
                closerGate.hold();
            }
        };
        sender.start();
        assertTrue(senderGate.awaitHeld(), "the sender did not reach its cell");
        receiver.start();
        assertTrue(receiverGate.awaitHeld(), "the receiver did not claim its cell");
        closer.start();
        assertTrue(closerGate.awaitHeld(), "the close did not set its bits");
        assertInstanceOf(ChannelError.class, ch.receiveOrClosed(), "a receive after the error");
        senderGate.releaseAndAwaitLeft();
        // a rendezvous send waits in its cell even with its receiver on its way
        // (ChannelState.installsAtOnce); the receiver then completes it
        Forked.awaitBlockedOrDone(sender);
        receiverGate.release();
        sender.join(TimeUnit.SECONDS.toMillis(60));
        receiver.join(TimeUnit.SECONDS.toMillis(60));
        closerGate.release();
        closer.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(sender.isAlive() || receiver.isAlive() || closer.isAlive(), "the threads did not finish");
        assertEquals(null, sent[0], "the send's receiver came before the error, so the send completes");
        assertEquals(100, received[0], "the receiver came before the error and its sender too");
        assertInstanceOf(ChannelError.class, ch.tryReceiveOrClosed());
    }

    /**
     * The first test's interleaving with a select's send clause in a rendezvous channel. A plain
     * rendezvous send no longer reads the receiver count (it installs itself and waits, see
     * {@link ChannelState#installsAtOnce}), so the first test's rendezvous rows no longer reach
     * the bound of {@link ChannelState#receiversLimit}; a select's send clause still does. (One
     * clause: its first try finds no room and claims nothing, so the first {@code
     * SEND_COMMITTING} of the selecting thread is its registration's.)
     */
    @ParameterizedTest(name = "{0} threads")
    @CsvSource({"VIRTUAL", "PLATFORM"})
    void receiversAfterTheErrorAreNoPartnerForASelectSendBeforeIt(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Gate selectorGate = new Gate();
        Gate closerGate = new Gate();
        Object[] sent = new Object[1];
        Thread selector = kind.builder().unstarted(
                () -> sent[0] = Forked.outcome(() -> Select.selectOrClosed(ch.sendClause(100))));
        Thread closer = kind.builder().unstarted(() -> ch.errorOrClosed(BOOM));
        Faults.probe = point -> {
            Thread me = Thread.currentThread();
            if (point.equals(Faults.SEND_COMMITTING) && me == selector) {
                selectorGate.hold();
            } else if (point.equals(Faults.CLOSE_BITS_SET) && me == closer) {
                closerGate.hold();
            }
        };
        selector.start();
        assertTrue(selectorGate.awaitHeld(), "the select did not reach its cell");
        closer.start();
        assertTrue(closerGate.awaitHeld(), "the close did not set its bits");
        assertInstanceOf(ChannelError.class, ch.receiveOrClosed(), "a receive after the error");
        selectorGate.releaseAndAwaitLeft();
        Forked.awaitBlockedOrDone(selector); // the registration waits, and the sweep wakes it
        closerGate.release();
        selector.join(TimeUnit.SECONDS.toMillis(60));
        closer.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(selector.isAlive() || closer.isAlive(), "the threads did not finish");
        assertInstanceOf(ChannelError.class, sent[0],
                "the select's send returned " + sent[0] + " although no receiver took its value before the error");
    }
}
