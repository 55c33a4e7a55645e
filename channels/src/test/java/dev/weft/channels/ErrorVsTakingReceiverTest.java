package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A receiver that has read BUFFERED in its cell stores DONE without a CAS ({@link
 * CellUpdates#takeBuffered}); that is safe only because no other thread leaves a BUFFERED cell
 * whose receiver has claimed it ({@code docs/cell-states.md}, "Who may write a BUFFERED cell").
 * The one other writer of BUFFERED cells is the error sweep. This replays the closest it can come:
 * the receiver claims its cell before the error, reads BUFFERED, and is held there while {@code
 * error()} runs to the end, sweep included; then it takes its value. If the sweep closed that
 * cell, the receiver would return the {@code null} the sweep leaves in the slot (with a CAS it
 * would have reported the error instead); either way this test fails.
 */
@Timeout(120)
class ErrorVsTakingReceiverTest {
    private static final RuntimeException BOOM = new RuntimeException("boom");

    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    @ParameterizedTest(name = "capacity {0}, {1} thread")
    @CsvSource({"1, VIRTUAL", "1, PLATFORM", "2, VIRTUAL", "16, VIRTUAL", "16, PLATFORM", "-1, VIRTUAL"})
    void aReceiverThatReadItsValueBeforeTheErrorSweepTakesIt(int capacity, ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> ch = Channel.newBufferedChannel(capacity);
        int values = capacity < 0 ? 3 : capacity;
        for (int v = 1; v <= values; v++) {
            assertTrue(ch.trySend(v), "fill the buffer");
        }
        Gate receiverGate = new Gate();
        Object[] received = new Object[1];
        Thread receiver = kind.builder().unstarted(() -> received[0] = Forked.outcome(ch::receiveOrClosed));
        Faults.probe = point -> {
            if (point.equals(Faults.RECEIVE_TAKING) && Thread.currentThread() == receiver) {
                receiverGate.hold();
            }
        };
        receiver.start();
        assertTrue(receiverGate.awaitHeld(), "the receiver did not read BUFFERED in its cell");
        assertNull(ch.errorOrClosed(BOOM), "the error closes the channel, sweep included");
        receiverGate.release();
        receiver.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(receiver.isAlive(), "the receiver did not finish");
        assertEquals(1, received[0], "claimed before the error, so it takes value 1: " + ch.dumpCells());
        // the values nobody had claimed were discarded by the error
        assertInstanceOf(ChannelError.class, ch.receiveOrClosed(), "a receive after the error");
        assertInstanceOf(ChannelError.class, ch.sendOrClosed(9), "a send after the error");
    }
}
