package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A plain receiver refuses the send registration of a select that is still registering, and the
 * accounting of that withdrawal throws: the select must still be asked to register the clause
 * again. Interleaving (buffered channel of 1, cell 0 holds "a"):
 *
 * <ol>
 *   <li>select S installs its send registration in cell 1 and is held (SELECT_REGISTERED) before
 *       registering its second clause, so it stays LOCKED;
 *   <li>receiver R0 claims cell 0 and R1 claims cell 1 (both held at RECEIVE_CLAIMED);
 *   <li>R0 takes "a"; its expansion (b = 1 &lt; receivers = 2) wraps S as WaiterEB(S);
 *   <li>R1 meets S registering and refuses it (cell 1 -> INTERRUPTED_SEND); the accounting sees
 *       WaiterEB and expands the buffer, which throws (injected at EXPAND_PASSING); R1 throws;
 *   <li>S is released: it must register its send again and deliver "s".
 * </ol>
 *
 * <p>Fails on 2c740f7: there {@code meetSelect} asked for the re-registration only after the
 * accounting, so S was never asked, finished registering and waited for ever with a clause
 * nobody could see. Needs {@code -Dweft.faults=true} (set by the module's surefire config).
 */
class RefusedSelectUnderErrorTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @BeforeEach
    void faultsOn() {
        assertTrue(Faults.ENABLED, "run with -Dweft.faults=true");
    }

    @AfterEach
    void faultsOff() {
        Faults.probe = null;
    }

    @Test
    void selectRefusedWhileRegisteringIsAskedAgainEvenIfTheAccountingThrows() throws Exception {
        Channel<String> ch = Channel.newBufferedChannel(1);
        Channel<String> other = Channel.newRendezvousChannel(); // S's second clause, never ready
        assertTrue(ch.trySend("a")); // cell 0 BUFFERED, buffer end 1

        Gate sGate = new Gate();
        Gate r0Gate = new Gate();
        Gate r1Gate = new Gate();
        AtomicBoolean sHeld = new AtomicBoolean();
        AtomicInteger claims = new AtomicInteger();
        AtomicReference<Thread> r1Thread = new AtomicReference<>();
        AtomicBoolean thrown = new AtomicBoolean();
        Faults.probe = p -> {
            if (p.equals(Faults.SELECT_REGISTERED) && sHeld.compareAndSet(false, true)) {
                sGate.hold(); // S registered its send in cell 1; still LOCKED
            } else if (p.equals(Faults.RECEIVE_CLAIMED)) {
                int n = claims.incrementAndGet();
                if (n == 1) {
                    r0Gate.hold(); // R0 claimed cell 0
                } else if (n == 2) {
                    r1Thread.set(Thread.currentThread());
                    r1Gate.hold(); // R1 claimed cell 1
                }
            } else if (p.equals(Faults.EXPAND_PASSING)
                    && Thread.currentThread() == r1Thread.get()
                    && thrown.compareAndSet(false, true)) {
                throw new OutOfMemoryError("injected into the accounting of R1's refusal of S");
            }
        };

        Forked<Object> s = Forked.virtual(
                () -> Select.<Object>select(ch.sendClause("s", () -> "sent"), other.receiveClause()));
        assertTrue(sGate.awaitHeld(), "S did not register its send");
        Forked<String> r0 = Forked.virtual(ch::receive);
        assertTrue(r0Gate.awaitHeld(), "R0 did not claim cell 0");
        Forked<String> r1 = Forked.virtual(ch::receive);
        assertTrue(r1Gate.awaitHeld(), "R1 did not claim cell 1");

        r0Gate.release();
        assertEquals("a", r0.get(PATIENCE)); // its expansion wrapped S as WaiterEB: R1 is on its way
        r1Gate.release();
        assertInstanceOf(OutOfMemoryError.class, r1.failure(), "R1 refused S and its accounting threw");
        assertTrue(thrown.get(), "the fault was not injected where intended");
        Faults.probe = null;

        sGate.release();
        s.thread().join(PATIENCE);
        if (!s.isDone()) {
            fail("the select whose send was refused (accounting threw) was never asked to register it"
                    + " again: it still waits after " + PATIENCE + "; stack:\n" + Forked.stack(s.thread()));
        }
        assertEquals("sent", s.get(PATIENCE), "the select sends its value");
        assertEquals("s", Forked.virtual(ch::receive).get(PATIENCE));

        // the channel stays usable: its buffer of 1 takes one value, which a receiver gets
        assertTrue(ch.trySend("b"));
        assertEquals("b", Forked.virtual(ch::receive).get(PATIENCE));
        assertEquals(null, Forked.virtual(ch::tryReceive).get(PATIENCE));
    }
}
