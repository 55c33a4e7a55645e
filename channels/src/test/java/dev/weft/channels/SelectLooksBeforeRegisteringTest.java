package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A select of one or two clauses whose first try failed looks, for a few spins, for a clause
 * that can complete before it registers ({@link SelectRegistration#aboutToComplete}): the hint it
 * reads ({@link ChannelState#tryMayComplete}) agrees with the try-operations, a partner that
 * comes during the look completes the select with nothing registered, a select with a zero
 * timeout or on an interrupted thread does not look, and only the first clause (in registration
 * order) is tried after a look, so that a close of an earlier clause is not passed over for a
 * later clause that became ready after it.
 */
@Timeout(60)
class SelectLooksBeforeRegisteringTest {
    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    /**
     * On one thread the hint is exact: before every try-operation of a random sequence (and after
     * a done, and after an error) it says whether the try completes (a value, a send, or the
     * close), for both sides.
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void theHintSaysWhetherTheTryCompletes(Capacity capacity) {
        for (int end = 0; end < 2; end++) {
            Channel<Integer> ch = capacity.newChannel();
            SplittableRandom rnd = new SplittableRandom(42 + end);
            for (int step = 0; step < 400; step++) {
                if (step == 300) {
                    if (end == 0) {
                        ch.done();
                    } else {
                        ch.error(new RuntimeException("boom"));
                    }
                }
                boolean send = rnd.nextInt(3) == 0;
                boolean hint = ch.tryMayComplete(send);
                Object r = send ? ch.trySendOrClosed(step) : ch.tryReceiveOrClosed();
                boolean completed = send ? r != Sink.NOT_SENT : r != null;
                String what = capacity + ", " + (send ? "send" : "receive") + " at step " + step;
                assertEquals(completed, hint, () -> what + ": " + ch.dumpCells());
            }
        }
    }

    /** A partner that claimed its cell (another thread, which then waits there) makes the hint true. */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aWaitingPartnerMakesTheHintTrue(ThreadKind kind) throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        assertEquals(false, ch.tryMayComplete(false));
        Thread sender = kind.start(() -> {
            try {
                ch.send(5);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!ch.tryMayComplete(false)) {
            assertTrue(System.nanoTime() < until, "the sender never claimed its cell");
            Thread.onSpinWait();
        }
        assertEquals(false, ch.tryMayComplete(true), "no receiver waits");
        assertEquals(5, ch.receive());
        sender.join();
    }

    /**
     * The look watches the first clause (in registration order) and gives up when the other one
     * looks ready first; it takes nothing.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void theLookWatchesTheFirstClauseAndGivesUpForTheOther(ThreadKind kind) throws Exception {
        assumeLooks(kind);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = kind.start(() -> {
            try {
                Channel<Integer> empty = Channel.newRendezvousChannel();
                Channel<Integer> full = Channel.newBufferedChannel(1);
                full.send(1);
                SelectClause<Integer> e = empty.receiveClause();
                SelectClause<Integer> f = full.receiveClause();
                Spin spin = empty.spin;
                Thread me = Thread.currentThread();
                AtomicInteger missed = new AtomicInteger();
                Faults.probe = point -> {
                    if (Thread.currentThread() == me && point.equals(Faults.SELECT_LOOK_MISSED)) {
                        missed.incrementAndGet();
                    }
                };
                assertEquals(0, SelectRegistration.aboutToComplete(f, e, spin), "ready at the first spin");
                assertEquals(0, SelectRegistration.aboutToComplete(f, null, spin));
                assertEquals(0, missed.get());
                assertEquals(-1, SelectRegistration.aboutToComplete(e, f, spin), "the other clause is ready");
                if (Faults.ENABLED) {
                    assertEquals(1, missed.get(), "it gave up at its first spin, for the other clause");
                }
                assertEquals(-1, SelectRegistration.aboutToComplete(e, null, spin), "nothing comes");
                if (Faults.ENABLED) {
                    assertTrue(missed.get() > 2, "it kept looking while nothing came: " + missed.get());
                }
                Channel<Integer> room = Channel.newBufferedChannel(1);
                assertEquals(0, SelectRegistration.aboutToComplete(room.sendClause(2), e, spin), "a send with room");
                assertEquals(1, full.receive(), "the look took nothing");
            } catch (Throwable x) {
                failure.set(x);
            }
        });
        t.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    /**
     * A value that reaches the first clause's channel during the look completes the select
     * without a registration (the probe at SELECT_REGISTERED never runs). Fails without the look
     * (the probe's point is never reached, no value comes, and the select times out).
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aPartnerThatComesDuringTheLookCompletesItWithNothingRegistered(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        assumeLooks(kind);
        Channel<Integer> a = Channel.newBufferedChannel(1);
        Channel<Integer> b = Channel.newRendezvousChannel();
        AtomicInteger registered = new AtomicInteger();
        Object selected = selectOn(kind, a, b, Duration.ofSeconds(5), point -> {
            if (point.equals(Faults.SELECT_REGISTERED)) {
                registered.incrementAndGet();
            }
            return point.equals(Faults.SELECT_LOOK_MISSED) ? () -> a.trySend(7) : null;
        });
        assertEquals(7, selected);
        assertEquals(0, registered.get(), "the select registered a clause");
        assertEquals(null, b.tryReceive());
    }

    /**
     * A select with a zero timeout, or on an interrupted thread, does not look: it registers at
     * once, and then times out, or throws.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aZeroTimeoutOrAnInterruptDoesNotLook(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        for (boolean interrupted : new boolean[] {false, true}) {
            Channel<Integer> a = Channel.newBufferedChannel(1);
            Channel<Integer> b = Channel.newRendezvousChannel();
            AtomicInteger looked = new AtomicInteger();
            Object selected = selectOn(kind, a, b, interrupted ? null : Duration.ZERO, interrupted, point -> {
                if (point.equals(Faults.SELECT_LOOK_MISSED)) {
                    looked.incrementAndGet();
                }
                return null;
            });
            if (interrupted) {
                assertInstanceOf(InterruptedException.class, selected);
            } else {
                assertEquals("timeout", selected);
            }
            assertEquals(0, looked.get(), () -> (interrupted ? "an interrupted select" : "a zero timeout") + " looked");
        }
    }

    /**
     * The look found the first clause's channel open and empty; then that channel is closed, and
     * only after the close a value reaches the second clause. The select must report the close:
     * a later clause that looks ready makes it register, in order, and the registration of the
     * first clause finds the close. Fails when the look tries the clause that looked ready (the
     * select then returned 7, from a channel that received it after the earlier clause's close).
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aCloseOfAnEarlierClauseDuringTheLookIsNotPassedOver(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        assumeLooks(kind);
        Channel<Integer> a = Channel.newRendezvousChannel();
        Channel<Integer> b = Channel.newBufferedChannel(1);
        Object selected = selectOn(kind, a, b, Duration.ofSeconds(5), point ->
                point.equals(Faults.SELECT_LOOK_MISSED) ? () -> {
                    a.done();
                    b.trySend(7);
                } : null);
        assertInstanceOf(ChannelDone.class, selected);
        assertEquals(7, b.tryReceive(), "the value stays in b");
    }

    /**
     * Review of the look (helper 15): the look saw the second clause ready; a try of the first
     * clause, then of the second, would not be atomic. Here 1 reaches {@code b} during the look;
     * then, at the moment the second clause's try has read the counters, another thread takes
     * 1, closes {@code a} (or puts it in error; the call returns) and only then sends 2 to {@code
     * b}. No moment had {@code a} open and 2 at the head of {@code b}, so the select must not
     * return 2. Fails when the clauses are tried in order after the look (it returned 2): now only
     * a look that sees the first clause ready tries it again, and a later ready clause makes the
     * select register at once, where the close meets the registration.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aCloseBetweenTwoTriesAfterTheLookIsNotPassedOver(ThreadKind kind) throws Exception {
        passOverBetweenTries(kind, false);
    }

    /** The same with {@code error()}: an error wins over any clause. */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void anErrorBetweenTwoTriesAfterTheLookIsNotPassedOver(ThreadKind kind) throws Exception {
        passOverBetweenTries(kind, true);
    }

    private static void passOverBetweenTries(ThreadKind kind, boolean error) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> a = Channel.newRendezvousChannel();
        Channel<Integer> b = Channel.newBufferedChannel(1);
        AtomicReference<Object> taken = new AtomicReference<>();
        AtomicInteger checks = new AtomicInteger();
        Object selected = selectOn(kind, a, b, Duration.ofSeconds(5), point -> {
            if (point.equals(Faults.SELECT_LOOK_MISSED)) {
                return () -> onOtherThread(() -> b.trySend(1));
            }
            if (point.equals(Faults.TRY_RECEIVE_CHECKED) && checks.getAndIncrement() == 0) {
                onOtherThread(() -> {
                    taken.set(b.tryReceive());
                    if (error) {
                        a.error(new RuntimeException("boom"));
                    } else {
                        a.done();
                    }
                    b.trySend(2);
                });
            }
            return null;
        });
        assertNotEquals(2, selected, () -> "the select passed over a's " + (error ? "error" : "close")
                + " for a value sent to b after it returned (taken before: " + taken.get() + ")");
        if (!Integer.valueOf(1).equals(selected)) {
            Class<?> closed = error ? ChannelError.class : ChannelDone.class;
            assertTrue(closed.isInstance(selected), () -> "expected the close, got " + selected);
        }
    }

    private static void onOtherThread(Runnable action) {
        Thread h = Thread.ofPlatform().start(action);
        try {
            h.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Skips a case that needs a look of a few spins on threads of {@code kind}: not when platform
     * spinning is off (one CPU, or {@code weft.spinMicros.platform=0}), nor when virtual threads
     * spin less than twice.
     */
    private static void assumeLooks(ThreadKind kind) {
        assumeTrue(kind == ThreadKind.PLATFORM ? Waiting.PLATFORM_SPIN_NANOS > 0 : Waiting.VIRTUAL_SPINS >= 2,
                "no look of a few spins on " + kind + " threads in this configuration");
    }

    /** What a probe does at a point: an action to run once on the select's thread, or null. */
    private interface Step {
        Runnable at(String point);
    }

    /** As below, on a thread that is not interrupted. */
    private static Object selectOn(ThreadKind kind, Channel<Integer> a, Channel<Integer> b, Duration timeout,
            Step step) throws Exception {
        Object r = selectOn(kind, a, b, timeout, false, step);
        if (r instanceof Throwable x) {
            throw new AssertionError(x);
        }
        return r;
    }

    /**
     * Runs {@code selectOrClosedWithin(timeout, "timeout", a, b)} ({@code selectOrClosed(a, b)}
     * when {@code timeout} is null) on a new thread of {@code kind}, which first sets its own
     * interrupt flag if {@code interrupted}; the probe runs {@code step}'s first action (once) on
     * that thread. Returns what the select returned, or what it threw.
     */
    private static Object selectOn(ThreadKind kind, Channel<Integer> a, Channel<Integer> b, Duration timeout,
            boolean interrupted, Step step) throws Exception {
        AtomicReference<Object> result = new AtomicReference<>();
        AtomicReference<Thread> selector = new AtomicReference<>();
        AtomicInteger actions = new AtomicInteger();
        Faults.probe = point -> {
            if (Thread.currentThread() != selector.get()) {
                return;
            }
            Runnable action = step.at(point);
            if (action != null && actions.getAndIncrement() == 0) {
                action.run();
            }
        };
        Thread t = kind.builder().unstarted(() -> {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            try {
                result.set(timeout == null
                        ? Select.selectOrClosed(a.receiveClause(), b.receiveClause())
                        : Select.selectOrClosedWithin(timeout, "timeout", a.receiveClause(), b.receiveClause()));
            } catch (Throwable x) {
                result.set(x);
            }
        });
        selector.set(t);
        t.start();
        t.join();
        Faults.probe = null;
        return result.get();
    }
}
