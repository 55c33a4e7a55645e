package dev.weft.channels;

import static dev.weft.channels.SelectChecks.assertFresh;
import static dev.weft.channels.SelectChecks.drainFilled;
import static dev.weft.channels.SelectChecks.fill;
import static dev.weft.channels.SelectChecks.offer;
import static dev.weft.channels.SelectChecks.spin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * selectWithin / selectOrClosedWithin: they never give up before the timeout, report it
 * (TimeoutException or the timeout value), and a timed-out select leaves no trace; a zero timeout
 * does not wait; a partner racing with the deadline either completes the select or finds nothing.
 */
@Timeout(60)
class SelectTimeoutTest {
    private static final Duration LONG = Duration.ofSeconds(20);
    private static final Object TIMED_OUT = new Object() {
        @Override
        public String toString() {
            return "TIMED_OUT";
        }
    };

    static Stream<Arguments> capacitiesAndThreads() {
        return Stream.of(Capacity.values())
                .flatMap(c -> Stream.of(ThreadKind.values()).map(k -> Arguments.of(c, k)));
    }

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void selectWithinNeverGivesUpBeforeTheTimeoutAndLeavesNoTrace(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        if (capacity.isBounded()) {
            fill(b, capacity);
        }
        for (Duration timeout : new Duration[] {Duration.ofNanos(1), Duration.ofMillis(1), Duration.ofMillis(30)}) {
            Forked<Long> t = Forked.start(kind, () -> {
                long start = System.nanoTime();
                try {
                    if (capacity.isBounded()) {
                        Select.selectWithin(timeout, a.receiveClause(), b.sendClause(5));
                    } else {
                        Select.selectWithin(timeout, a.receiveClause(), b.receiveClause());
                    }
                    return -1L;
                } catch (TimeoutException expected) {
                    return System.nanoTime() - start;
                }
            });
            long elapsed = t.get();
            assertTrue(elapsed >= 0, "selectWithin(" + timeout + ") returned instead of timing out");
            assertTrue(elapsed >= timeout.toNanos(), "timed out after " + elapsed + " ns, before " + timeout);
            assertTrue(elapsed < LONG.toNanos(), "timed out after " + elapsed + " ns for " + timeout);
            assertTrue(!t.interruptedAtEnd(), "a timeout set the interrupt flag");
        }
        if (capacity.isBounded()) {
            drainFilled(b, capacity);
        }
        assertFresh(a, capacity, "a after timed-out selects");
        assertFresh(b, capacity, "b after timed-out selects");
    }

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void selectOrClosedWithinReturnsTheTimeoutValueNoEarlierThanTheTimeout(Capacity capacity, ThreadKind kind)
            throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        for (Duration timeout : new Duration[] {Duration.ofNanos(1), Duration.ofMillis(2), Duration.ofMillis(30)}) {
            Forked<Object[]> t = Forked.start(kind, () -> {
                long start = System.nanoTime();
                Object r = Select.selectOrClosedWithin(timeout, TIMED_OUT, a.receiveClause(v -> "a"), b.receiveClause(v -> "b"));
                return new Object[] {r, System.nanoTime() - start};
            });
            Object[] r = t.get();
            assertSame(TIMED_OUT, r[0]);
            assertTrue((Long) r[1] >= timeout.toNanos(), "timed out after " + r[1] + " ns, before " + timeout);
        }
        // a null timeout value is allowed
        assertNull(Select.selectOrClosedWithin(Duration.ofMillis(1), null, a.receiveClause()));
        assertFresh(a, capacity, "a after timed-out selects");
        assertFresh(b, capacity, "b after timed-out selects");
    }

    /** A zero timeout does not wait: a ready clause completes, otherwise the select times out at once. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void zeroTimeoutDoesNotWait(Capacity capacity) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        for (int i = 0; i < 50; i++) {
            assertThrows(TimeoutException.class, () -> Select.selectWithin(Duration.ZERO, a.receiveClause(), b.receiveClause()));
            assertSame(TIMED_OUT, Select.selectOrClosedWithin(Duration.ZERO, TIMED_OUT, a.receiveClause(), b.receiveClause()));
        }
        for (int i = 0; i < 5; i++) {
            Forked<Void> sender = offer(b, capacity, i, ThreadKind.VIRTUAL);
            assertEquals(i, Select.selectWithin(Duration.ZERO, a.receiveClause(), b.receiveClause()));
            if (sender != null) {
                sender.get();
            }
            sender = offer(a, capacity, i, ThreadKind.VIRTUAL);
            assertEquals(i, Select.selectOrClosedWithin(Duration.ZERO, TIMED_OUT, a.receiveClause(), b.receiveClause()));
            if (sender != null) {
                sender.get();
            }
        }
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    /** A ready clause is selected without waiting for the timeout. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void readyClauseIsSelectedWithoutWaiting(Capacity capacity) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        Forked<Void> sender = offer(b, capacity, 3, ThreadKind.VIRTUAL);
        long start = System.nanoTime();
        assertEquals(3, Select.selectWithin(Duration.ofSeconds(50), a.receiveClause(), b.receiveClause()));
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(40).toNanos());
        if (sender != null) {
            sender.get();
        }
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    /** A partner arriving before the deadline completes the timed select; an enormous timeout waits. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void partnerArrivingBeforeTheDeadlineCompletesTheSelect(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        Duration[] timeouts = {LONG, Duration.ofSeconds(Long.MAX_VALUE), Duration.ofDays(365 * 1000)};
        for (int i = 0; i < timeouts.length; i++) {
            Duration timeout = timeouts[i];
            Forked<Object> selector = Forked.start(kind, () -> Select.selectOrClosedWithin(timeout, TIMED_OUT,
                    a.receiveClause(v -> "a" + v), b.receiveClause(v -> "b" + v))).awaitBlocked();
            b.send(i);
            assertEquals("b" + i, selector.get(), timeout.toString());
            Forked<String> selector2 = Forked.start(kind, () -> Select.selectWithin(timeout,
                    a.receiveClause(v -> "a" + v), b.receiveClause(v -> "b" + v))).awaitBlocked();
            a.send(i);
            assertEquals("a" + i, selector2.get(), timeout.toString());
        }
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    // ---------------------------------------------------------------- racing with the deadline

    /**
     * A timed select over two receive clauses and a sender (trySend) racing with the deadline.
     * Exactly one of: the select got the value (then it was consumed once), or the select timed
     * out (then the value was not consumed: trySend failed on a rendezvous channel, or the value is
     * still buffered).
     */
    @ParameterizedTest
    @MethodSource("raceConfigurations")
    void receiveClauseRacingWithTheDeadline(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        SplittableRandom random = new SplittableRandom(5);
        int iterations = kind == ThreadKind.VIRTUAL ? 300 : 150;
        int selected = 0;
        int timedOut = 0;
        for (int i = 0; i < iterations; i++) {
            int v = i;
            Duration timeout = Duration.ofNanos(random.nextInt(300_000));
            Forked<Object> selector = Forked.start(kind, () -> Select.selectOrClosedWithin(timeout, TIMED_OUT,
                    b.receiveClause(), a.receiveClause()));
            spin(random.nextInt(20_000));
            boolean sent = a.trySend(v);
            Object outcome = selector.get();
            if (outcome == TIMED_OUT) {
                timedOut++;
                if (capacity.isRendezvous()) {
                    assertTrue(!sent, "iteration " + i + ": trySend succeeded but the select timed out");
                } else {
                    // the buffer was empty and only receives ran beside the try-send, so it must
                    // succeed (Sink.trySend). Until stop 38 a failure was accepted here as a
                    // spurious one; it was a bug (fixed in 40e5f92: a select's registration that the
                    // try-send refused had not yet moved the buffer end)
                    assertTrue(sent, "iteration " + i + ": trySend failed on an empty buffer: " + a);
                    assertEquals(v, a.tryReceive(), "iteration " + i + ": a timed-out select consumed the value");
                }
            } else {
                selected++;
                assertTrue(sent, "iteration " + i + ": the select got a value nobody sent");
                assertEquals(v, outcome, "iteration " + i);
            }
            assertNull(a.tryReceive(), "iteration " + i + ": value left over");
        }
        assertEquals(iterations, selected + timedOut);
        System.out.printf("select deadline race (receive) %s/%s: %d selected, %d timed out%n", capacity, kind,
                selected, timedOut);
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    /** The same race with a send clause: a timed-out select delivered nothing, a completed one exactly once. */
    @ParameterizedTest
    @MethodSource("raceConfigurations")
    void sendClauseRacingWithTheDeadline(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        SplittableRandom random = new SplittableRandom(6);
        int iterations = kind == ThreadKind.VIRTUAL ? 300 : 150;
        int selected = 0;
        int timedOut = 0;
        for (int i = 0; i < iterations; i++) {
            int v = 1000 + i;
            fill(a, capacity);
            Duration timeout = Duration.ofNanos(random.nextInt(300_000));
            Forked<Object> selector = Forked.start(kind, () -> Select.selectOrClosedWithin(timeout, TIMED_OUT,
                    b.receiveClause(x -> "received"), a.sendClause(v, () -> "sent")));
            spin(random.nextInt(20_000));
            Integer got = a.tryReceive();
            Object outcome = selector.get();
            java.util.List<Integer> rest = new java.util.ArrayList<>();
            for (Integer x = a.tryReceive(); x != null; x = a.tryReceive()) {
                rest.add(x);
            }
            java.util.List<Integer> all = new java.util.ArrayList<>();
            if (got != null) {
                all.add(got);
            }
            all.addAll(rest);
            java.util.List<Integer> expected = new java.util.ArrayList<>();
            for (int k = 0; k < capacity.buffer(); k++) {
                expected.add(k);
            }
            if (outcome == TIMED_OUT) {
                timedOut++;
            } else {
                selected++;
                assertEquals("sent", outcome, "iteration " + i);
                expected.add(v);
            }
            if (capacity.isRendezvous()) {
                assertEquals(expected, all, "iteration " + i + " (" + outcome + ")");
            } else {
                // the buffer was full: tryReceive took the first buffered value in any case
                assertEquals(0, got, "iteration " + i);
                assertEquals(expected, all, "iteration " + i + " (" + outcome + ")");
            }
        }
        assertEquals(iterations, selected + timedOut);
        System.out.printf("select deadline race (send) %s/%s: %d selected, %d timed out%n", capacity, kind, selected,
                timedOut);
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    static Stream<Arguments> raceConfigurations() {
        return Stream.of(Capacity.RENDEZVOUS, Capacity.ONE, Capacity.UNLIMITED)
                .flatMap(c -> Stream.of(ThreadKind.values()).map(k -> Arguments.of(c, k)));
    }

    /** A timed select woken by close reports the close, not a timeout. */
    @Test
    void closeBeforeTheDeadlineIsReported() throws Exception {
        Channel<Integer> a = Channel.newRendezvousChannel();
        Channel<Integer> b = Channel.newBufferedChannel(2);
        Forked<Object> selector = Forked.virtual(() -> Select.selectOrClosedWithin(LONG, TIMED_OUT, a.receiveClause(),
                b.receiveClause())).awaitBlocked();
        b.done();
        assertEquals(new ChannelDone(b), selector.get());
        Forked<?> selector2 = Forked.virtual(() -> Select.selectWithin(LONG, a.receiveClause(), b.receiveClause()));
        assertInstanceOf(ChannelDoneException.class, selector2.failure());
        Channel<Integer> c = Channel.newRendezvousChannel();
        Forked<?> selector3 = Forked.virtual(() -> Select.selectWithin(LONG, c.receiveClause(), a.receiveClause()))
                .awaitBlocked();
        RuntimeException boom = new RuntimeException("boom");
        a.error(boom);
        Throwable t = selector3.failure();
        if (!(t instanceof ChannelErrorException e) || e.getCause() != boom) {
            fail("expected ChannelErrorException(boom), got " + t);
        }
        assertFresh(c, Capacity.RENDEZVOUS, "c");
    }
}
