package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A select that meets the registration of a select with a larger id that is still registering
 * waits for it (the only wait for a registering select, see {@code SelectMeeting.awaitLargerSelect}).
 * That wait must park, also when the waiting thread's interrupt flag is set: registration is not
 * interruptible, and {@code LockSupport.park} returns at once while the flag is set. Before the
 * fix the waiter spun without ever unmounting, so with one carrier the registering select's
 * owner never ran again (issue 8, Bug 4, found by {@link OneCarrierProgressTest}), and each turn
 * pushed a node on the registering select's waiter stack until the heap ran out.
 *
 * <p>B = {@code select(x.send, y.receive)} registers its send in x and is held (LOCKED, as if
 * descheduled) before its second clause. A = {@code select(z.receive, x.receive)}, with a smaller
 * id and its interrupt flag set, meets B's registration while it registers: it must park until B
 * stops registering, then take B's value, and keep its interrupt flag for the caller. (A's first
 * clause is on an empty channel z: a select tries its first clause like a try-operation before
 * registering anything, and a try-operation refuses a registering select instead of waiting for
 * it; {@link #firstClauseRefusesARegisteringSelectAndStillMeetsIt} covers that case.)
 */
@Timeout(120)
class RegisteringSelectWaitTest {
    /** How long A may take to park; it parks within microseconds when it can. */
    private static final long PARK_PATIENCE_MS = 5_000;

    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void interruptedSelectWaitingForARegisteringSelectParks(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<String> x = Channel.newRendezvousChannel();
        Channel<String> y = Channel.newRendezvousChannel();
        Channel<String> z = Channel.newRendezvousChannel();
        // thread ids order the selects: A's thread is created first, so id(A) < id(B)
        Thread a = kind.builder().unstarted(() -> run(() -> {
            Thread.currentThread().interrupt();
            assertEquals("A got b", Select.select(
                    z.receiveClause(v -> "A got z"), x.receiveClause(v -> "A got " + v)));
            aKeptInterrupt = Thread.currentThread().isInterrupted();
        }));
        Thread b = kind.builder().unstarted(() -> run(() -> assertEquals("B sent",
                Select.select(x.sendClause("b", () -> "B sent"), y.receiveClause(v -> "B got " + v)))));
        assertTrue(a.threadId() < b.threadId());

        CountDownLatch bRegistered = new CountDownLatch(1);
        CountDownLatch releaseB = new CountDownLatch(1);
        holdAfterFirstClause(b, bRegistered, releaseB);
        b.start();
        assertTrue(bRegistered.await(20, TimeUnit.SECONDS), "B did not register");
        a.start();
        boolean parked = awaitParked(a);
        String stackA = Forked.stack(a);
        releaseB.countDown(); // in any case: a spinning A stops once B stops registering
        a.join(20_000);
        b.join(20_000);
        assertTrue(parked, "A did not park while B was registering; A's stack:\n" + stackA);
        assertTrue(!a.isAlive() && !b.isAlive(), "the selects did not complete");
        assertTrue(failure == null, () -> "a select failed: " + failure);
        assertTrue(aKeptInterrupt, "A's interrupt flag was lost");
    }

    /**
     * A = {@code select(x.receive)} meets B's registration in its first clause's try, which
     * refuses it (B is asked to register that clause again) and finds nothing; A then registers
     * and waits. Once B stops registering, it registers its send again, meets A's registration
     * and completes with it: the refusal loses no rendezvous.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void firstClauseRefusesARegisteringSelectAndStillMeetsIt(ThreadKind kind) throws Exception {
        firstClauseMeetsARegisteringSelect(kind, false);
    }

    /**
     * As above, with A's interrupt flag set: A registers after its try and, since nothing
     * completed it, throws {@link InterruptedException} (before the try, A waited for B and took
     * its value; both are outcomes of a select that no clause completed before the interrupt).
     * B's value is delivered exactly once, to a later receive.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void interruptedFirstClauseRefusesARegisteringSelectAndThrows(ThreadKind kind) throws Exception {
        firstClauseMeetsARegisteringSelect(kind, true);
    }

    private void firstClauseMeetsARegisteringSelect(ThreadKind kind, boolean interrupted) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<String> x = Channel.newRendezvousChannel();
        Channel<String> y = Channel.newRendezvousChannel();
        AtomicBoolean aInterrupted = new AtomicBoolean();
        Thread a = kind.builder().unstarted(() -> run(() -> {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            try {
                assertEquals("A got b", Select.select(x.receiveClause(v -> "A got " + v)));
            } catch (InterruptedException e) {
                aInterrupted.set(true);
            }
        }));
        Thread b = kind.builder().unstarted(() -> run(() -> assertEquals("B sent",
                Select.select(x.sendClause("b", () -> "B sent"), y.receiveClause(v -> "B got " + v)))));
        CountDownLatch bRegistered = new CountDownLatch(1);
        CountDownLatch releaseB = new CountDownLatch(1);
        holdAfterFirstClause(b, bRegistered, releaseB);
        b.start();
        assertTrue(bRegistered.await(20, TimeUnit.SECONDS), "B did not register");
        a.start();
        if (interrupted) {
            a.join(20_000); // A must not wait for B: B is held until A is done
            assertTrue(!a.isAlive() && aInterrupted.get(),
                    () -> "A did not throw InterruptedException while B was registering: " + failure);
        } else {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PARK_PATIENCE_MS);
            while (!(a.getState() == Thread.State.WAITING
                    && Forked.stack(a).contains("SelectRegistration.await"))) {
                assertTrue(a.isAlive() && System.nanoTime() - deadline < 0,
                        () -> "A did not register and wait while B was registering: " + failure);
                Thread.sleep(1);
            }
        }
        releaseB.countDown();
        if (interrupted) {
            assertEquals("b", x.receive()); // B registered its send again; it is delivered once
            assertEquals(null, x.tryReceive());
        }
        a.join(20_000);
        b.join(20_000);
        assertTrue(!a.isAlive() && !b.isAlive(), "the selects did not complete");
        assertTrue(failure == null, () -> "a select failed: " + failure);
    }

    /** Holds {@code b} after it registers its first clause (LOCKED) until {@code release} opens. */
    private static void holdAfterFirstClause(Thread b, CountDownLatch registered, CountDownLatch release) {
        Gate.holdFirstArrival(Faults.SELECT_REGISTERED, b, registered, release);
    }

    private volatile Throwable failure;
    private volatile boolean aKeptInterrupt;

    private void run(Forked.Action action) {
        try {
            action.run();
        } catch (Throwable t) {
            failure = t;
        }
    }

    /**
     * Whether {@code t} parks inside {@code awaitLargerSelect} and stays parked: it is seen WAITING
     * there, then in each of 50 samples over 500 ms. (A platform thread reads WAITING during every
     * park call, also one that returns at once because the interrupt flag is set; a thread
     * spinning through such calls is also seen RUNNABLE between them.)
     */
    private static boolean awaitParked(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PARK_PATIENCE_MS);
        while (!parkedInAwait(t)) {
            if (!t.isAlive()) {
                fail("A finished while B was still registering");
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(1);
        }
        for (int k = 0; k < 50; k++) {
            Thread.sleep(10);
            if (!parkedInAwait(t)) {
                return false;
            }
        }
        return true;
    }

    private static boolean parkedInAwait(Thread t) {
        return t.getState() == Thread.State.WAITING && Forked.stack(t).contains("awaitLargerSelect");
    }
}
