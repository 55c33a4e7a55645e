package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code error()} must wake a receiver that waits in a segment that none of the channel's
 * pointers references any more (stop 24's known problem, found by a randomized repro: W senders
 * and W receivers looping on one channel, {@code error()} after 0-2 ms; about once in 80-970
 * rounds a receiver stayed parked for ever).
 *
 * <p>Interleaving, replayed through the fault probes:
 *
 * <ol>
 *   <li>a receiver claims cell 0 and waits there (no sender yet);
 *   <li>the sender of cell 0 claims it and stops before it touches the cell ({@code
 *       SEND_CLAIMED}): it was descheduled, say;
 *   <li>other pairs move the sender, receiver and buffer-end pointers past segment 0;
 *   <li>{@code error()} runs to its end: its sweep starts from the oldest segment a pointer
 *       references, so it never sees cell 0;
 *   <li>the sender goes on, reads the error and reports it. Before the fix it left the cell to
 *       the sweep, which had not seen it, and the receiver stayed parked for ever.
 * </ol>
 *
 * The user-visible outcome checked is that the waiting receive (plain or a select clause)
 * returns the error.
 */
@Timeout(120)
class ErrorWakesWaiterBehindThePointersTest {
    private static final RuntimeException BOOM = new RuntimeException("boom");

    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    @ParameterizedTest(name = "capacity {0}, {1} threads, select {2}")
    @CsvSource({
        "0, VIRTUAL, false", "0, PLATFORM, false", "1, VIRTUAL, false", "16, VIRTUAL, false",
        "-1, VIRTUAL, false", "0, VIRTUAL, true", "1, PLATFORM, true", "-1, VIRTUAL, true"
    })
    void theErrorWakesAReceiverWhoseSenderSawTheError(int capacity, ThreadKind kind, boolean select)
            throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
        Channel<Integer> idle = Channel.newRendezvousChannel();
        Object[] received = new Object[1];
        Object[] sent = new Object[1];
        Callable<Object> receive = select
                ? () -> Select.selectOrClosed(ch.receiveClause(), idle.receiveClause())
                : ch::receiveOrClosed;
        Thread receiver = kind.start(() -> received[0] = Forked.outcome(receive));
        Forked.awaitBlocked(receiver); // waits in cell 0

        Thread sender = kind.builder().unstarted(() -> sent[0] = Forked.outcome(() -> ch.sendOrClosed(100)));
        Gate senderGate = new Holds().at(sender, Faults.SEND_CLAIMED);
        sender.start();
        assertTrue(senderGate.awaitHeld(), "the sender did not claim cell 0");

        movePointersPastSegmentZero(ch, capacity, kind);

        assertNull(ch.errorOrClosed(BOOM), "the error closes the channel");
        senderGate.release();
        sender.join(TimeUnit.SECONDS.toMillis(60));
        receiver.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(receiver.isAlive(), "the receiver of cell 0 is still parked after error():\n"
                + Forked.stack(receiver) + "\n" + ch.dumpCells());
        assertFalse(sender.isAlive(), "the sender did not finish");
        assertInstanceOf(ChannelError.class, sent[0], "the sender read the error before its cell");
        assertInstanceOf(ChannelError.class, received[0], "the receive reports the error");
    }

    /**
     * The same interleaving, with a select that is still registering (held after its clause on
     * the channel, before its second clause) when the sender of its cell reads the error. A plain
     * send waits until the select stops registering, as the sweep would, then completes the
     * select with the error. A try-send never waits: it refuses the registration, and the select,
     * asked to register that clause again, finds the error.
     */
    @ParameterizedTest(name = "capacity {0}, {1} threads, try-send {2}")
    @CsvSource({"0, VIRTUAL, false", "1, PLATFORM, false", "-1, VIRTUAL, false",
        "0, VIRTUAL, true", "1, PLATFORM, true", "-1, VIRTUAL, true"})
    void aRegisteringSelectInTheCellEndsWithTheError(int capacity, ThreadKind kind, boolean trySend)
            throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
        Channel<Integer> idle = Channel.newRendezvousChannel();
        Object[] received = new Object[1];
        Object[] sent = new Object[1];
        Thread selecting = kind.builder().unstarted(
                () -> received[0] = Forked.outcome(() -> Select.selectOrClosed(ch.receiveClause(), idle.receiveClause())));
        Thread sender = kind.builder().unstarted(
                () -> sent[0] = Forked.outcome(() -> trySend ? ch.trySendOrClosed(100) : ch.sendOrClosed(100)));
        Holds holds = new Holds();
        Gate selectGate = holds.at(selecting, Faults.SELECT_REGISTERED);
        Gate senderGate = holds.at(sender, Faults.SEND_CLAIMED);
        selecting.start();
        assertTrue(selectGate.awaitHeld(), "the select did not register its clause in cell 0");
        sender.start();
        assertTrue(senderGate.awaitHeld(), "the sender did not claim cell 0");
        movePointersPastSegmentZero(ch, capacity, kind);

        assertNull(ch.errorOrClosed(BOOM), "the error closes the channel");
        senderGate.releaseAndAwaitLeft();
        if (trySend) {
            sender.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(sender.isAlive(), "the try-send waits for the registering select:\n" + Forked.stack(sender));
        } else {
            assertTrue(Forked.awaitBlockedOrDone(sender), "the plain send waits for the registering select");
        }
        selectGate.release();
        sender.join(TimeUnit.SECONDS.toMillis(60));
        selecting.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(selecting.isAlive(), "the select is still waiting after error():\n"
                + Forked.stack(selecting) + "\n" + ch.dumpCells());
        assertFalse(sender.isAlive(), "the sender did not finish:\n" + Forked.stack(sender));
        assertInstanceOf(ChannelError.class, sent[0], "the sender read the error before its cell");
        assertInstanceOf(ChannelError.class, received[0], "the select reports the error");
    }

    /** Pairs after cell 0 move the sender, receiver and buffer-end pointers past segment 0. */
    private static void movePointersPastSegmentZero(Channel<Integer> ch, int capacity, ThreadKind kind)
            throws InterruptedException {
        int pairs = 2 * Segment.SIZE + Math.max(capacity, 0) + 2;
        for (int v = 1; v <= pairs; v++) {
            int value = v;
            Thread other = kind.start(() -> Forked.outcome(() -> {
                ch.send(value);
                return null;
            }));
            assertInstanceOf(Integer.class, ch.receiveOrClosed(), "a pair after cell 0");
            other.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertTrue(ch.oldestSegment().id > 0, "precondition: no pointer references segment 0");
    }
}
