package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A buffer slot must not be lost when a sender withdraws from a cell that a buffer expansion is
 * passing (found by review of the fix for try-sends across {@code done()}, stop 23).
 *
 * <p>An expansion moves the buffer end to cell {@code b}, reads the sender count, finds no sender
 * there yet, and then marks the cell IN_BUFFER. If the cell's sender claims it in between and
 * withdraws while the cell is still EMPTY, {@link Withdrawal#abandonSendCell} counts no new slot,
 * leaving that to the expansion (an expansion that reaches a withdrawn cell goes on to the next
 * one). Before the fix, the expansion that was passing the cell took the withdrawn sender for one
 * that had completed the cell, and returned: the channel had one slot less for ever. Two senders
 * withdraw like that: one hit by an Error (then the open channel refuses a try-send into an empty
 * buffer), and a try-send that claimed beyond the room it had seen and found the channel closed
 * (then a sender waiting behind it is never moved into the buffer).
 *
 * <p>Each test replays the interleaving through the fault probes; the held threads are platform
 * threads.
 */
@Timeout(120)
class ExpansionPassesWithdrawnSenderTest {
    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    /** A send hit by an Error in the passing cell: the open channel keeps its capacity. */
    @Test
    void sendHitByAnErrorKeepsTheCapacity() throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newBufferedChannel(1);
        assertTrue(ch.trySend(0));
        Object[] outcome = new Object[2];
        Thread receiver = Thread.ofPlatform().unstarted(() -> outcome[0] = Forked.outcome(ch::receive));
        Thread sender = Thread.ofPlatform().unstarted(() -> outcome[1] = Forked.outcome(() -> {
            ch.send(1);
            return "sent";
        }));
        Holds holds = new Holds();
        Gate passing = holds.at(receiver, Faults.EXPAND_PASSING);
        holds.failAt(sender, Faults.SEND_CLAIMED);
        receiver.start();
        assertTrue(passing.awaitHeld(), "the receive did not expand the buffer past an empty cell");
        sender.start();
        sender.join(TimeUnit.SECONDS.toMillis(60));
        assertInstanceOf(StackOverflowError.class, outcome[1], "the send was not hit by the injected error");
        passing.releaseAndAwaitLeft();
        receiver.join(TimeUnit.SECONDS.toMillis(60));
        assertEquals(0, outcome[0]);

        assertTrue(ch.trySend(5), "a try-send into the empty buffer of an open channel failed\n" + ch.dumpCells());
        assertEquals(5, ch.receive());
    }

    /**
     * A late try-send withdraws from the passing cell because the channel is closed: the sender
     * that waits in the next cell (it claimed before the close) is moved into the buffer.
     */
    @Test
    void lateTrySendAfterTheCloseLetsTheNextSenderIn() throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newBufferedChannel(1);
        Object[] outcome = new Object[3];
        Thread trySender = Thread.ofPlatform().unstarted(() -> outcome[0] = Forked.outcome(() -> ch.trySend(1)));
        Thread receiver = Thread.ofPlatform().unstarted(() -> outcome[1] = Forked.outcome(ch::receive));
        Thread waiting = Thread.ofPlatform().unstarted(() -> outcome[2] = Forked.outcome(() -> ch.trySend(2, Duration.ofSeconds(5))));
        Holds holds = new Holds();
        Gate checked = holds.at(trySender, Faults.TRY_SEND_CHECKED);
        Gate claimed = holds.at(trySender, Faults.SEND_CLAIMED);
        Gate passing = holds.at(receiver, Faults.EXPAND_PASSING);

        trySender.start();
        assertTrue(checked.awaitHeld(), "the try-send did not see room");
        assertTrue(ch.trySend(0), "another sender takes the room first");
        receiver.start();
        assertTrue(passing.awaitHeld(), "the receive did not expand the buffer past an empty cell");
        checked.releaseAndAwaitLeft();
        assertTrue(claimed.awaitHeld(), "the try-send did not claim the passing cell");
        waiting.start();
        Forked.awaitBlocked(waiting); // it claimed the next cell and found no room
        assertNull(ch.doneOrClosed());

        claimed.releaseAndAwaitLeft();
        trySender.join(TimeUnit.SECONDS.toMillis(60));
        assertInstanceOf(ChannelDoneException.class, outcome[0], "the late try-send found the channel closed");
        passing.releaseAndAwaitLeft();
        receiver.join(TimeUnit.SECONDS.toMillis(60));
        assertEquals(0, outcome[1]);
        waiting.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(waiting.isAlive());
        assertEquals(Boolean.TRUE, outcome[2], "the sender that claimed before the close was not let into the buffer\n" + ch.dumpCells());
        assertEquals(2, ch.receive());
        assertInstanceOf(ChannelDone.class, ch.receiveOrClosed());
    }
}
