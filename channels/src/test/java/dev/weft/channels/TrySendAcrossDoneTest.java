package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A try-send must take effect at one moment inside its call, so it may not buffer its value in
 * room that a receive made after a {@code done()} that returned while the try-send was running
 * (CI failures at stops 22 and 23: Lincheck's {@code Buffered1ChannelLincheckTest} and {@code
 * Buffered2ChannelLincheckTest}, where two {@code trySend}s into a buffer of one both reported
 * "sent" around a {@code done()}, and a receive that started after the close got the value).
 *
 * <p>The try-send claims its cell before the close, beyond the buffer end, and is delayed before
 * it looks at the cell. Then the channel is closed, and a receive that starts after the close
 * makes room for that cell: it moves the buffer end past it (a buffered channel), or it claims the
 * cell as its receiver (a rendezvous channel). Before the fix the try-send then buffered its value
 * and reported it sent; there was no moment when that was true (before the close the buffer was
 * full, or no receiver had come; after it, a send reports the close). Now it reads the closed
 * bits after finding room and reports the close.
 *
 * <p>Each test replays that through the fault probes, one step at a time. The held threads are
 * platform threads, so that no carrier is taken by a thread that waits in a probe.
 */
@Timeout(120)
class TrySendAcrossDoneTest {
    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    /** How the try-send is made; each reports "closed" differently. */
    enum TryKind {
        TRY_SEND,
        TRY_SEND_OR_CLOSED,
        SELECT_WITH_DEFAULT;

        Object send(Channel<Integer> ch, int v) throws InterruptedException {
            return switch (this) {
                case TRY_SEND -> ch.trySend(v);
                case TRY_SEND_OR_CLOSED -> ch.trySendOrClosed(v);
                case SELECT_WITH_DEFAULT -> Select.selectOrClosed(ch.sendClause(v, () -> "sent"), Select.defaultClause("default"));
            };
        }

        /**
         * Checks that {@code outcome} reports the close (and not "sent", nor "no room"): {@code
         * trySend} throws, the others return it.
         */
        void assertReportedClosed(Object outcome, Channel<Integer> ch) {
            String where = "the try-send reported " + outcome + "\n" + ch.dumpCells();
            if (this == TRY_SEND) {
                assertInstanceOf(ChannelDoneException.class, outcome, where);
            } else {
                assertInstanceOf(ChannelDone.class, outcome, where);
            }
        }
    }

    /**
     * A buffered channel: the try-send sees room for one value, another sender takes it, the
     * try-send claims the cell beyond the buffer end, {@code done()}
     * returns, and a receive takes the first value, which moves the buffer end past the held
     * sender's cell (it marks the cell IN_BUFFER).
     */
    @ParameterizedTest(name = "capacity {0}, {1}")
    @CsvSource({"1, TRY_SEND", "2, TRY_SEND", "4, TRY_SEND", "1, TRY_SEND_OR_CLOSED", "2, SELECT_WITH_DEFAULT"})
    void bufferedRoomMadeAfterTheClose(int capacity, TryKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newBufferedChannel(capacity);
        for (int v = 1; v < capacity; v++) {
            assertTrue(ch.trySend(v));
        }
        Holds holds = new Holds();
        Object[] outcome = new Object[1];
        Thread sender = Thread.ofPlatform().unstarted(() -> outcome[0] = Forked.outcome(() -> kind.send(ch, 100)));
        Gate checked = holds.at(sender, Faults.TRY_SEND_CHECKED);
        Gate claimed = holds.at(sender, Faults.SEND_CLAIMED);
        sender.start();
        assertTrue(checked.awaitHeld(), "the try-send did not see room");
        assertTrue(ch.trySend(capacity), "another sender takes the last room first");
        checked.releaseAndAwaitLeft();
        assertTrue(claimed.awaitHeld(), "the try-send did not claim the cell beyond the buffer");

        assertNull(ch.doneOrClosed(), "done() closes the channel");
        assertEquals(1, ch.receive(), "a receive after the close takes the first value");

        claimed.releaseAndAwaitLeft();
        sender.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(sender.isAlive(), "the try-send did not return");
        kind.assertReportedClosed(outcome[0], ch);
        List<Object> rest = drain(ch);
        List<Object> expected = new ArrayList<>();
        for (int v = 2; v <= capacity; v++) {
            expected.add(v);
        }
        assertEquals(expected, rest, "the values sent before the close, and nothing else");
    }

    /**
     * A rendezvous channel: the try-send sees a waiting receiver, another sender takes that
     * receiver first, the try-send claims the next cell, {@code done()} returns, and a receive
     * that starts after the close claims that cell (and is held there, before it looks at
     * the cell). That receiver came after the close, so it is no partner for the try-send.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"TRY_SEND", "TRY_SEND_OR_CLOSED", "SELECT_WITH_DEFAULT"})
    void rendezvousReceiverCameAfterTheClose(TryKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Object[] outcome = new Object[3];
        Holds holds = new Holds();
        Thread sender = Thread.ofPlatform().unstarted(() -> outcome[1] = Forked.outcome(() -> kind.send(ch, 100)));
        Thread late = Thread.ofPlatform().unstarted(() -> outcome[2] = Forked.outcome(ch::receiveOrClosed));
        Gate lateClaimed = holds.at(late, Faults.RECEIVE_CLAIMED);
        Gate claimed = trySendClaimedBeyondItsRoom(ch, holds, sender, outcome);

        assertNull(ch.doneOrClosed(), "done() closes the channel");
        late.start();
        assertTrue(lateClaimed.awaitHeld(), "the late receive did not claim the try-send's cell");

        claimed.releaseAndAwaitLeft();
        sender.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(sender.isAlive(), "the try-send did not return");
        kind.assertReportedClosed(outcome[1], ch);
        lateClaimed.releaseAndAwaitLeft();
        late.join(TimeUnit.SECONDS.toMillis(60));
        assertInstanceOf(ChannelDone.class, outcome[2], "the late receive got " + outcome[2]);
    }

    /**
     * As above, but the late receive reaches the try-send's cell first and waits there: a plain
     * rendezvous receive installs itself without reading the sender count ({@link
     * ChannelState#installsAtOnce}), so it no longer waits for the in-flight try-send and poisons
     * the cell. The try-send then meets a waiting receiver that came after the close; it must not
     * complete with it (it reports the close, and the receiver, woken, finds the close too).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"TRY_SEND", "TRY_SEND_OR_CLOSED", "SELECT_WITH_DEFAULT"})
    void rendezvousReceiverCameAfterTheCloseAndWaits(TryKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Object[] outcome = new Object[3];
        Holds holds = new Holds();
        Thread sender = Thread.ofPlatform().unstarted(() -> outcome[1] = Forked.outcome(() -> kind.send(ch, 100)));
        Gate claimed = trySendClaimedBeyondItsRoom(ch, holds, sender, outcome);

        assertNull(ch.doneOrClosed(), "done() closes the channel");
        Thread late = Thread.ofPlatform().start(() -> outcome[2] = Forked.outcome(ch::receiveOrClosed));
        Forked.awaitBlockedOrDone(late); // it waits in the try-send's cell (or, before, gave it up)

        claimed.releaseAndAwaitLeft();
        sender.join(TimeUnit.SECONDS.toMillis(60));
        late.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(sender.isAlive() || late.isAlive(), "the threads did not finish");
        kind.assertReportedClosed(outcome[1], ch);
        assertInstanceOf(ChannelDone.class, outcome[2], "the late receive got " + outcome[2]);
    }

    /**
     * A try-send that claimed a cell within the room it had seen takes effect at its claim, before
     * the close: held there across {@code done()}, it still sends, and the value is received. An
     * unlimited channel (capacity -1 here) has room for every cell at the claim.
     */
    @ParameterizedTest(name = "capacity {0}")
    @CsvSource({"1", "3", "-1"})
    void claimedWithinItsRoomStillSends(int capacity) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
        Holds holds = new Holds();
        Object[] outcome = new Object[1];
        Thread sender = Thread.ofPlatform().unstarted(() -> outcome[0] = Forked.outcome(() -> ch.trySend(100)));
        Gate claimed = holds.at(sender, Faults.SEND_CLAIMED);
        sender.start();
        assertTrue(claimed.awaitHeld());
        assertNull(ch.doneOrClosed());
        claimed.releaseAndAwaitLeft();
        sender.join(TimeUnit.SECONDS.toMillis(60));
        assertEquals(Boolean.TRUE, outcome[0], "the try-send had room at its claim\n" + ch.dumpCells());
        assertEquals(List.of(100), drain(ch));
    }

    /**
     * The rendezvous setup of the two tests above: a receiver waits (its outcome goes to {@code
     * outcome[0]}); the try-send {@code sender} sees it, another sender takes it first, and the
     * try-send claims the next cell, beyond the room it had seen.
     *
     * @return the gate that holds the try-send after its claim
     */
    private static Gate trySendClaimedBeyondItsRoom(Channel<Integer> ch, Holds holds, Thread sender, Object[] outcome)
            throws InterruptedException {
        Thread first = Thread.ofPlatform().start(() -> outcome[0] = Forked.outcome(ch::receive));
        Forked.awaitBlocked(first);
        Gate checked = holds.at(sender, Faults.TRY_SEND_CHECKED);
        Gate claimed = holds.at(sender, Faults.SEND_CLAIMED);
        sender.start();
        assertTrue(checked.awaitHeld(), "the try-send did not see the waiting receiver");
        assertTrue(ch.trySend(1), "another sender meets the waiting receiver first");
        first.join(TimeUnit.SECONDS.toMillis(60));
        assertEquals(1, outcome[0]);
        checked.releaseAndAwaitLeft();
        assertTrue(claimed.awaitHeld(), "the try-send did not claim the next cell");
        return claimed;
    }

    /** Receives until the channel reports done; the values in order. */
    private static List<Object> drain(Channel<Integer> ch) throws InterruptedException {
        List<Object> values = new ArrayList<>();
        for (Object r; !((r = ch.receiveOrClosed()) instanceof ChannelDone); ) {
            assertFalse(r instanceof ChannelClosed, "closed with " + r);
            values.add(r);
        }
        return values;
    }
}
