package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The partner of an operation hit by an Error is withdrawn from its cell on its behalf and woken
 * ({@link Withdrawal}); found by the review of 6e9b244 (stop 24). Needs {@code -Dweft.faults=true}
 * (set by the channels module's surefire configuration). Both cases failed on 96ff45a.
 */
class WithdrawnPartnerTest {
    @BeforeEach
    void faultsOn() {
        assertTrue(Faults.ENABLED, "run with -Dweft.faults=true");
    }

    @AfterEach
    void faultsOff() {
        Faults.probe = null;
    }

    /**
     * The accounting after the withdrawal (here: the buffer expansion that gives the wrapped
     * sender's slot back) throws a second Error; the withdrawn sender must still be woken. Before:
     * it stayed parked for ever in a cell that nobody would touch again.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void partnerIsWokenEvenIfTheAccountingAfterItsWithdrawalThrows(ThreadKind kind) throws Exception {
        Channel<String> ch = Channel.newBufferedChannel(1);
        assertTrue(ch.trySend("a")); // cell 0 BUFFERED, bufferEnd 1
        Forked<Void> s = Forked.run(kind, () -> ch.send("b")).awaitBlocked(); // waits in cell 1

        Gate r0Gate = new Gate();
        Gate r1Gate = new Gate();
        AtomicInteger claims = new AtomicInteger();
        AtomicReference<Thread> r1Thread = new AtomicReference<>();
        Faults.probe = p -> {
            if (p.equals(Faults.RECEIVE_CLAIMED)) {
                int n = claims.incrementAndGet();
                if (n == 1) {
                    r0Gate.hold(); // R0 claimed cell 0
                } else if (n == 2) {
                    r1Thread.set(Thread.currentThread());
                    r1Gate.hold(); // R1 claimed cell 1
                    throw new StackOverflowError("first Error, R1 at its claimed cell");
                }
            } else if (p.equals(Faults.EXPAND_PASSING) && Thread.currentThread() == r1Thread.get()) {
                throw new OutOfMemoryError("second Error, inside the accounting of R1's withdrawal of S");
            }
        };
        Forked<String> r0 = Forked.virtual(ch::receive);
        assertTrue(r0Gate.awaitHeld());
        Forked<String> r1 = Forked.virtual(ch::receive);
        assertTrue(r1Gate.awaitHeld());
        r0Gate.release();
        assertEquals("a", r0.get()); // its expansion wraps S (WaiterEB): R1 is on its way to cell 1
        r1Gate.release();
        assertInstanceOf(OutOfMemoryError.class, r1.failure());
        Faults.probe = null;

        s.get(Duration.ofSeconds(10)); // S was withdrawn, woken, and sent "b" in another cell
        assertEquals("b", Forked.virtual(ch::receive).get(Duration.ofSeconds(10)));
    }

    /**
     * A timed receive whose sender is hit by an Error is withdrawn and retries in another cell; it
     * must still wait at most its timeout in all. Before: the retry waited a whole timeout again
     * (about 1.9 s for a 1 s timeout here).
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aTimedReceiveWithdrawnByItsSenderWaitsAtMostItsTimeoutInAll(ThreadKind kind) throws Exception {
        Channel<String> ch = Channel.newRendezvousChannel();
        AtomicReference<Long> waitedMs = new AtomicReference<>();
        Forked<Void> r = Forked.run(kind, () -> {
            long t0 = System.nanoTime();
            assertNull(ch.tryReceive(Duration.ofSeconds(1)));
            waitedMs.set((System.nanoTime() - t0) / 1_000_000);
        }).awaitBlocked();
        Thread.sleep(900);
        Thread me = Thread.currentThread();
        Faults.probe = p -> {
            if (p.equals(Faults.SEND_CLAIMED) && Thread.currentThread() == me) {
                throw new StackOverflowError("injected into the receiver's sender");
            }
        };
        assertThrows(StackOverflowError.class, () -> ch.send("lost"));
        Faults.probe = null;
        r.get(Duration.ofSeconds(10));
        assertTrue(waitedMs.get() < 1_500, "tryReceive(1 s) returned after " + waitedMs.get() + " ms");
    }
}
