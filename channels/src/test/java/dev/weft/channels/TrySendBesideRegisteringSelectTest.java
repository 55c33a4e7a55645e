package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A try-send must not fail while the buffer has room, also beside a select whose receive
 * registration it refuses (stop 37's flaky {@code SelectInterruptTest}, and jcstress {@code
 * SelectVsSend}'s outcome "11, 0, 1, 0", which was accepted as a spurious failure until stop 38).
 *
 * <p>A receive that waits in a buffered channel counts itself (the receiver count) before it moves
 * the buffer end for its claim (its expansion, right after its install). A try-send that meets a
 * select's receive registration in that moment refuses it (the select is still registering, so
 * it registers again), which leaves that receive as if it had never come: the buffer is as empty
 * as before. Before the fix, the try-send's next cell was beyond the buffer end, which the
 * refused receive had not yet moved, so the try-send returned false on an empty buffer; and while
 * that expansion was still to come, every later try-send did too once the buffer end was reached.
 * Now a sender counts the room that the receivers already counted will make ({@code receivers +
 * capacity}), as kotlinx.coroutines' {@code BufferedChannel} does.
 *
 * <p>Each test replays it through the fault probe {@link Faults#RECEIVE_INSTALLED}: the select's
 * owner is held right after its registration in {@code a} was installed, the test thread sends,
 * and only then is the select let go.
 */
@Timeout(120)
class TrySendBesideRegisteringSelectTest {
    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    /**
     * With the select held, the first try-send refuses it and {@code capacity} try-sends in all
     * succeed: the buffer is empty. One more fails: the buffer is full. The select, let go,
     * registers again and takes the first value.
     */
    @ParameterizedTest(name = "capacity {0}, selector {1}")
    @CsvSource({"1, PLATFORM", "1, VIRTUAL", "2, PLATFORM", "2, VIRTUAL", "4, PLATFORM", "4, VIRTUAL"})
    void fillsTheBufferBesideARefusedRegistration(int capacity, ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        HeldSelect held = new HeldSelect(capacity, kind);
        for (int v = 100; v < 100 + capacity; v++) {
            assertTrue(held.a.trySend(v), "try-send of " + v + " into a buffer of " + capacity + " holding "
                    + (v - 100) + " values: " + held.a);
        }
        assertFalse(held.a.trySend(999), "the buffer is full: " + held.a);
        assertEquals(100, held.releaseAndSelected());
        for (int v = 101; v < 100 + capacity; v++) {
            assertEquals(v, held.a.tryReceive());
        }
        assertNull(held.a.tryReceive());
        assertBufferHoldsExactly(held.a, capacity);
    }

    /**
     * With the select held, a try-send refuses it and buffers 100, a try-receive takes 100, and
     * then the buffer is empty again, so a try-send of 200 succeeds (before the fix it failed
     * without claiming a cell: the room it read was the buffer end, one receive behind) and one of
     * 300 fails. The select, let go, takes 200.
     */
    @ParameterizedTest(name = "selector {0}")
    @CsvSource({"PLATFORM", "VIRTUAL"})
    void emptiedBufferTakesAValueBesideARefusedRegistration(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        HeldSelect held = new HeldSelect(1, kind);
        assertTrue(held.a.trySend(100), "the buffer is empty: " + held.a);
        assertEquals(100, held.a.tryReceive());
        assertTrue(held.a.trySend(200), "the buffer is empty again: " + held.a);
        assertFalse(held.a.trySend(300), "the buffer is full: " + held.a);
        assertEquals(200, held.releaseAndSelected());
        assertNull(held.a.tryReceive());
        assertBufferHoldsExactly(held.a, 1);
    }

    /** The channel, empty, takes exactly {@code capacity} values, which come out in order. */
    private static void assertBufferHoldsExactly(Channel<Integer> ch, int capacity) {
        for (int v = 0; v < capacity; v++) {
            assertTrue(ch.trySend(v), "room for " + v + ": " + ch);
        }
        assertFalse(ch.trySend(-1), "full: " + ch);
        for (int v = 0; v < capacity; v++) {
            assertEquals(v, ch.tryReceive());
        }
        assertNull(ch.tryReceive());
    }

    /**
     * A select on {@code a} (buffered, empty) and {@code c} (rendezvous, never used) whose owner is
     * held right after its registration in {@code a} was installed, before its buffer-end move.
     */
    private static final class HeldSelect {
        final Channel<Integer> a;
        final Channel<Integer> c = Channel.newRendezvousChannel();
        final Gate gate;
        final Thread selector;
        volatile Object outcome;

        HeldSelect(int capacity, ThreadKind kind) throws InterruptedException {
            a = Channel.newBufferedChannel(capacity);
            selector = kind.builder().unstarted(
                    () -> outcome = Forked.outcome(() -> Select.select(a.receiveClause(), c.receiveClause())));
            gate = new Holds().at(selector, Faults.RECEIVE_INSTALLED);
            selector.start();
            assertTrue(gate.awaitHeld(), "the select did not register in a");
        }

        /** Lets the select go on; returns what it selected. */
        Object releaseAndSelected() throws InterruptedException {
            gate.release();
            assertTrue(selector.join(Forked.PATIENCE), "the select did not finish: " + Forked.stack(selector));
            return outcome;
        }
    }
}
