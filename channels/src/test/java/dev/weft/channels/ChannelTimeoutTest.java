package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Timed {@code trySend(value, timeout)} and {@code tryReceive(timeout)}: a timeout returns
 * false/null, is never early, and leaves no trace in the channel.
 */
@Timeout(60)
class ChannelTimeoutTest {
    private static final Duration SHORT = Duration.ofMillis(50);
    private static final Duration LONG = Duration.ofSeconds(20);

    /** Fills a bounded channel so that the next send would wait; returns the values put in. */
    private static List<Integer> fill(Channel<Integer> ch, Capacity capacity) throws InterruptedException {
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < capacity.buffer(); i++) {
            ch.send(1000 + i);
            values.add(1000 + i);
        }
        return values;
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void timedReceiveTimesOutNotEarlyAndConsumesNothing(ThreadKind kind) throws Exception {
        for (Capacity capacity : Capacity.values()) {
            Forked.run(kind, () -> timedReceiveTimesOut(capacity)).get();
        }
    }

    private static void timedReceiveTimesOut(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        long start = System.nanoTime();
        assertNull(ch.tryReceive(SHORT), capacity.toString());
        long elapsed = System.nanoTime() - start;
        assertTrue(elapsed >= SHORT.toNanos(), capacity + ": returned after " + elapsed + " ns");

        start = System.nanoTime();
        assertNull(ch.tryReceiveOrClosed(SHORT), capacity.toString());
        elapsed = System.nanoTime() - start;
        assertTrue(elapsed >= SHORT.toNanos(), capacity + ": returned after " + elapsed + " ns");

        // the timed-out receivers are gone: a rendezvous send finds no receiver, a buffered
        // value stays in the buffer for a later receiver
        if (capacity.isRendezvous()) {
            assertFalse(ch.trySend(1), "a timed-out receiver took a value");
            Forked<Integer> receiver = Forked.virtual(ch::receive).awaitBlocked();
            ch.send(2);
            assertEquals(2, receiver.get());
        } else {
            assertTrue(ch.trySend(1));
            assertEquals(1, ch.tryReceive(), "a timed-out receiver consumed a value");
            assertNull(ch.tryReceive());
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void timedSendTimesOutNotEarlyAndDeliversNothing(ThreadKind kind) throws Exception {
        for (Capacity capacity : Capacity.values()) {
            if (capacity.isBounded()) {
                Forked.run(kind, () -> timedSendTimesOut(capacity)).get();
            }
        }
    }

    private static void timedSendTimesOut(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        List<Integer> buffered = fill(ch, capacity);
        long start = System.nanoTime();
        assertFalse(ch.trySend(-1, SHORT), capacity.toString());
        long elapsed = System.nanoTime() - start;
        assertTrue(elapsed >= SHORT.toNanos(), capacity + ": returned after " + elapsed + " ns");

        start = System.nanoTime();
        assertSame(Sink.NOT_SENT, ch.trySendOrClosed(-2, SHORT), capacity.toString());
        elapsed = System.nanoTime() - start;
        assertTrue(elapsed >= SHORT.toNanos(), capacity + ": returned after " + elapsed + " ns");

        // exactly the buffered values come out, never -1 or -2
        for (int v : buffered) {
            assertEquals(v, ch.receive());
        }
        assertNull(ch.tryReceive(), "a timed-out send delivered its value");
        Forked<Integer> receiver = Forked.virtual(ch::receive).awaitBlocked();
        assertEquals(null, ch.tryReceive());
        ch.send(7);
        assertEquals(7, receiver.get());
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void timedReceiveGetsAValueSentWhileWaiting(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Forked<Integer> receiver = Forked.virtual(() -> ch.tryReceive(LONG)).awaitBlocked();
        ch.send(3);
        assertEquals(3, receiver.get());
        Forked<Object> receiver2 = Forked.platform(() -> ch.tryReceiveOrClosed(LONG)).awaitBlocked();
        ch.send(4);
        assertEquals(4, receiver2.get());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void timedReceiveTakesAnAvailableValueWithoutWaiting(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        if (capacity.isRendezvous()) {
            Forked<Void> sender = Forked.run(ThreadKind.VIRTUAL, () -> ch.send(5)).awaitBlocked();
            assertEquals(5, ch.tryReceive(LONG));
            sender.get();
        } else {
            ch.send(5);
            long start = System.nanoTime();
            assertEquals(5, ch.tryReceive(LONG));
            assertTrue(System.nanoTime() - start < LONG.toNanos() / 2);
            assertNull(ch.tryReceive());
        }
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void timedSendSucceedsWhenAReceiverArrives(Capacity capacity) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> ch = capacity.newChannel();
        List<Integer> buffered = fill(ch, capacity);
        Forked<Boolean> sender = Forked.virtual(() -> ch.trySend(-1, LONG)).awaitBlocked();
        Forked<Object> sender2 = Forked.platform(() -> ch.trySendOrClosed(-2, LONG)).awaitBlocked();
        List<Integer> received = new ArrayList<>();
        for (int i = 0; i < buffered.size() + 2; i++) {
            received.add(ch.receive());
        }
        assertTrue(sender.get());
        assertNull(sender2.get());
        List<Integer> expected = new ArrayList<>(buffered);
        expected.add(-1);
        expected.add(-2);
        assertEquals(expected, received);
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void timedSendWithRoomDoesNotWait(Capacity capacity) throws Exception {
        assumeTrue(!capacity.isRendezvous());
        Channel<Integer> ch = capacity.newChannel();
        long start = System.nanoTime();
        assertTrue(ch.trySend(1, LONG));
        assertTrue(System.nanoTime() - start < LONG.toNanos() / 2);
        assertEquals(1, ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void manyTimedOutReceiversLeaveNoTrace(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        for (int i = 0; i < 2_000; i++) {
            assertNull(ch.tryReceive(Duration.ofNanos(1 + i % 3)));
        }
        if (capacity.isRendezvous()) {
            assertFalse(ch.trySend(1));
        } else {
            assertTrue(ch.trySend(1));
            assertEquals(1, ch.tryReceive());
        }
        Forked<Integer> receiver = Forked.virtual(ch::receive).awaitBlocked();
        ch.send(2);
        assertEquals(2, receiver.get());
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void manyTimedOutSendersLeaveNoTrace(Capacity capacity) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> ch = capacity.newChannel();
        List<Integer> buffered = fill(ch, capacity);
        for (int i = 0; i < 2_000; i++) {
            assertFalse(ch.trySend(-i - 1, Duration.ofNanos(1 + i % 3)));
        }
        for (int v : buffered) {
            assertEquals(v, ch.tryReceive());
        }
        assertNull(ch.tryReceive());
        Forked<Integer> receiver = Forked.virtual(ch::receive).awaitBlocked();
        ch.send(2);
        assertEquals(2, receiver.get());
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void timedReceiveIsWokenByClose(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Forked<Object> r1 = Forked.virtual(() -> ch.tryReceiveOrClosed(LONG)).awaitBlocked();
        Forked<Integer> r2 = Forked.platform(() -> ch.tryReceive(LONG)).awaitBlocked();
        ch.done();
        assertEquals(new ChannelDone(ch), r1.get());
        assertInstanceOf(ChannelDoneException.class, r2.failure());

        Channel<Integer> ch2 = capacity.newChannel();
        RuntimeException boom = new RuntimeException("boom");
        Forked<Object> r3 = Forked.virtual(() -> ch2.tryReceiveOrClosed(LONG)).awaitBlocked();
        Forked<Integer> r4 = Forked.platform(() -> ch2.tryReceive(LONG)).awaitBlocked();
        ch2.error(boom);
        assertEquals(new ChannelError(boom, ch2), r3.get());
        assertSame(boom, assertInstanceOf(ChannelErrorException.class, r4.failure()).getCause());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void timedSendIsWokenByError(Capacity capacity) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> ch = capacity.newChannel();
        fill(ch, capacity);
        Forked<Object> s1 = Forked.virtual(() -> ch.trySendOrClosed(-1, LONG)).awaitBlocked();
        Forked<Boolean> s2 = Forked.platform(() -> ch.trySend(-2, LONG)).awaitBlocked();
        IllegalStateException boom = new IllegalStateException("boom");
        ch.error(boom);
        assertEquals(new ChannelError(boom, ch), s1.get());
        assertSame(boom, assertInstanceOf(ChannelErrorException.class, s2.failure()).getCause());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void timedOperationsOnAClosedChannel(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        ch.done();
        assertThrows(ChannelDoneException.class, () -> ch.trySend(1, LONG));
        assertEquals(new ChannelDone(ch), ch.trySendOrClosed(1, LONG));
        assertThrows(ChannelDoneException.class, () -> ch.tryReceive(LONG));
        assertEquals(new ChannelDone(ch), ch.tryReceiveOrClosed(LONG));

        Channel<Integer> ch2 = capacity.newChannel();
        Exception boom = new Exception("boom");
        ch2.error(boom);
        assertSame(boom, assertThrows(ChannelErrorException.class, () -> ch2.trySend(1, LONG)).getCause());
        assertEquals(new ChannelError(boom, ch2), ch2.trySendOrClosed(1, LONG));
        assertSame(boom, assertThrows(ChannelErrorException.class, () -> ch2.tryReceive(LONG)).getCause());
        assertEquals(new ChannelError(boom, ch2), ch2.tryReceiveOrClosed(LONG));
    }

    // ---------------------------------------------------------------- racing the timeout

    /**
     * A timed receive whose timeout expires just as a sender arrives: either it returns the value,
     * or it returns null and the value is still there for the next receiver.
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void timedReceiveRacingASend(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        int timedOut = 0;
        for (int i = 0; i < 1_000; i++) {
            int v = i;
            Forked<Void> sender = Forked.run(i % 2 == 0 ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM, () -> ch.send(v));
            Integer r = ch.tryReceive(Duration.ofNanos(1 + random.nextInt(50_000)));
            if (r == null) {
                timedOut++;
                assertEquals(v, ch.tryReceive(LONG), "iteration " + i + ": a timed-out receive consumed the value");
            } else {
                assertEquals(v, r, "iteration " + i);
            }
            sender.get();
            assertNull(ch.tryReceive(), "iteration " + i);
        }
        System.out.printf("timed receive race %s: %d of 1000 timed out%n", capacity, timedOut);
    }

    /**
     * A timed send whose timeout expires just as a receiver arrives: either it returns true and the
     * value is received once, or false and the value is never received.
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void timedSendRacingAReceive(Capacity capacity) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> ch = capacity.newChannel();
        int cap = capacity.buffer();
        int sentinel = -7;
        java.util.SplittableRandom random = new java.util.SplittableRandom(4);
        int timedOut = 0;
        for (int i = 0; i < 1_000; i++) {
            for (int k = 0; k < cap; k++) {
                ch.send(-1000 - k);
            }
            Forked<Integer> receiver = Forked.start(i % 2 == 0 ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM, ch::receive);
            boolean sent = ch.trySend(i, Duration.ofNanos(1 + random.nextInt(50_000)));
            if (!sent) {
                timedOut++;
                if (capacity.isRendezvous()) {
                    ch.send(sentinel);
                }
            }
            int expectedByReceiver = capacity.isRendezvous() ? (sent ? i : sentinel) : -1000;
            assertEquals(expectedByReceiver, receiver.value(), "iteration " + i + " (sent=" + sent + ")");
            List<Integer> rest = new ArrayList<>();
            for (Integer x = ch.tryReceive(); x != null; x = ch.tryReceive()) {
                rest.add(x);
            }
            List<Integer> expected = new ArrayList<>();
            for (int k = 1; k < cap; k++) {
                expected.add(-1000 - k);
            }
            if (sent && !capacity.isRendezvous()) {
                expected.add(i);
            }
            assertEquals(expected, rest, "iteration " + i + " (sent=" + sent + ")");
        }
        System.out.printf("timed send race %s: %d of 1000 timed out%n", capacity, timedOut);
    }
}
