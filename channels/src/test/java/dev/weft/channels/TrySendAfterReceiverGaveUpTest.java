package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A try-send must not fail while the buffer has room, also when a receiver gave a cell up (CI
 * failure of stop 17: jcstress {@code TrySendVsTryReceiveBuffered}, forbidden outcome {@code 0, 0,
 * 0}: {@code trySend(1)} into an empty buffer(1) returned false, and the value was never received).
 *
 * <p>A receiver that gives its cell up (it poisons the cell of an in-flight sender, or a
 * try-receive withdraws from a cell with no sender) leaves a cell that no value fills, so it moves
 * the buffer end one cell further. Before the fix it made the cell final (BROKEN, INTERRUPTED_RCV)
 * first and moved the buffer end after. The cell's try-send, seeing the final state, retried at
 * its next cell, read the buffer end from before the move, found no room and gave up, although the
 * buffer held fewer values than its capacity the whole time. A blocking send moved on as well,
 * and once it completed at its next cell and a receive took its value, any try-send in that gap
 * failed on an empty buffer (found by review of the first fix, which made only try-sends wait).
 * Now the cell's sender, of either kind, waits at the cell until the move is done.
 *
 * <p>Each test replays that through the fault probes: the sender is held after claiming its cell,
 * the other cells of the buffer but one are filled, the receiver is held after giving the cell up
 * and before the move, and the sender goes on: it must neither finish nor park elsewhere until the
 * receiver is let go. The receiver that gives up is a platform thread: a virtual one parked in the
 * probe, inside the window where a virtual thread is never unmounted otherwise, would starve on a
 * single carrier behind the spinning sender, which no real receiver does.
 */
@Timeout(120)
class TrySendAfterReceiverGaveUpTest {
    /** How long the try-send is left alone while the receiver is held (it must not finish). */
    private static final long HELD_MILLIS = 300;

    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    /** The receiver poisons the sender's cell: it came first and the sender was in flight. */
    @ParameterizedTest(name = "capacity {0}, {1} {2}")
    @CsvSource({"1, PLATFORM, TRY", "1, VIRTUAL, TRY", "2, PLATFORM, TRY", "4, VIRTUAL, TRY",
        "1, VIRTUAL, BLOCKING", "2, PLATFORM, BLOCKING"})
    void afterThePoisonOfItsCell(int capacity, ThreadKind kind, SendKind send) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Replay replay = new Replay(Channel.newBufferedChannel(capacity), kind, send);
        replay.sender.start();
        assertTrue(replay.senderGate.awaitHeld(), "the sender did not claim its cell");
        fillAllButOne(replay.ch, capacity);
        replay.receiver.start();
        assertTrue(replay.receiverGate.awaitHeld(), "the receiver did not poison the in-flight sender's cell");
        replay.finishAndCheck(capacity);
    }

    /** A try-receive withdraws from the sender's cell: it found no sender there yet. */
    @ParameterizedTest(name = "capacity {0}, {1} {2}")
    @CsvSource({"1, PLATFORM, TRY", "1, VIRTUAL, TRY", "2, PLATFORM, TRY", "4, VIRTUAL, TRY",
        "1, VIRTUAL, BLOCKING", "2, PLATFORM, BLOCKING"})
    void afterATryReceiveWithdrewFromItsCell(int capacity, ThreadKind kind, SendKind send) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Replay replay = new Replay(Channel.newBufferedChannel(capacity), kind, send);
        assertTrue(replay.ch.trySend(1));
        replay.holdReceiverAfterItsCheck = true;
        replay.receiver.start();
        assertTrue(replay.checkedGate.awaitHeld(), "the try-receive did not see the value");
        assertEquals(1, replay.ch.tryReceive(), "another receiver takes the value first");
        replay.checkedGate.release(); // now it claims the next cell, which no sender has claimed
        assertTrue(replay.receiverGate.awaitHeld(), "the try-receive did not withdraw from its cell");
        replay.sender.start();
        assertTrue(replay.senderGate.awaitHeld(), "the sender did not claim the withdrawn cell");
        fillAllButOne(replay.ch, capacity);
        replay.finishAndCheck(capacity);
    }

    /** How the held sender sends. */
    enum SendKind {
        TRY,
        BLOCKING;

        /** Sends {@code v}: true when sent (a blocking send returns only when it sent). */
        boolean send(Channel<Integer> ch, int v) throws InterruptedException {
            if (this == TRY) {
                return ch.trySend(v);
            }
            ch.send(v);
            return true;
        }
    }

    /** Buffers {@code capacity - 1} values (2, 3, ...), leaving room for one. */
    private static void fillAllButOne(Channel<Integer> ch, int capacity) {
        for (int v = 2; v <= capacity; v++) {
            assertTrue(ch.trySend(v), "room for value " + v);
        }
    }

    /**
     * The two threads of a replay and where the probe holds them: the sender (sending 100) after
     * it first claims a cell, the receiver (a platform thread, see the class comment) after it
     * gave its cell up and, if asked, after its try-receive's emptiness check.
     */
    private static final class Replay {
        final Channel<Integer> ch;
        final Gate senderGate = new Gate();
        final Gate checkedGate = new Gate();
        final Gate receiverGate = new Gate();
        /** What the sender and the receiver returned. */
        final Object[] outcome = new Object[2];
        final Thread sender;
        final Thread receiver;
        volatile boolean holdReceiverAfterItsCheck;
        private final AtomicBoolean senderHeldOnce = new AtomicBoolean();

        Replay(Channel<Integer> ch, ThreadKind kind, SendKind send) {
            this.ch = ch;
            this.sender = kind.builder().unstarted(() -> outcome[0] = Forked.outcome(() -> send.send(ch, 100)));
            this.receiver = Thread.ofPlatform().unstarted(() -> outcome[1] = Forked.outcome(ch::tryReceive));
            Faults.probe = point -> {
                Thread me = Thread.currentThread();
                if (me == sender && point.equals(Faults.SEND_CLAIMED) && senderHeldOnce.compareAndSet(false, true)) {
                    senderGate.hold();
                } else if (me == receiver && point.equals(Faults.TRY_RECEIVE_CHECKED) && holdReceiverAfterItsCheck) {
                    checkedGate.hold();
                } else if (me == receiver && point.equals(Faults.RECEIVER_GIVING_UP)) {
                    receiverGate.hold();
                }
            };
        }

        /**
         * Lets the sender go on while the receiver is still held, then the receiver; the send
         * must succeed, and the fill values and its value must each be received once: by the held
         * receiver (after giving its cell up it retries, and may take one) or from what is left.
         */
        void finishAndCheck(int capacity) throws Exception {
            senderGate.releaseAndAwaitLeft();
            sender.join(HELD_MILLIS);
            // the fix: the sender spins at its cell for the receiver to move the buffer end.
            // Before it, a try-send returned false here within milliseconds (TERMINATED), and a
            // blocking send moved on to its next cell and parked there (WAITING). A spinning
            // virtual thread reads RUNNABLE, or BLOCKED for a moment inside its yield (seen once
            // in CI on JDK 25), so the check is that it neither finished nor parked
            Thread.State state = sender.getState();
            assertTrue(state == Thread.State.RUNNABLE || state == Thread.State.BLOCKED,
                    "the sender did not wait at its cell for the receiver that gave it up (state "
                            + state + ", outcome " + outcome[0] + ")\n" + ch.dumpCells());
            receiverGate.releaseAndAwaitLeft();
            sender.join(TimeUnit.SECONDS.toMillis(60));
            receiver.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(sender.isAlive() || receiver.isAlive(), "the threads did not finish");
            assertEquals(Boolean.TRUE, outcome[0], "a send into a buffer with room failed\n" + ch.dumpCells());
            List<Object> received = new ArrayList<>();
            if (outcome[1] != null) {
                received.add(outcome[1]);
            }
            for (Integer v; (v = ch.tryReceive()) != null; ) {
                received.add(v);
            }
            List<Object> expected = new ArrayList<>();
            for (int v = 2; v <= capacity; v++) {
                expected.add(v);
            }
            expected.add(100);
            received.sort(null);
            assertEquals(expected, received, "every value received once (the held receiver got " + outcome[1] + ")");
        }
    }
}
