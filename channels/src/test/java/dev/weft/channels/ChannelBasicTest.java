package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Construction, send/receive, FIFO order, the non-blocking try-operations and bad input. */
@Timeout(60)
class ChannelBasicTest {

    // ---------------------------------------------------------------- construction

    @Test
    void segmentSizeReflectsTheSystemProperty() {
        String property = System.getProperty("weft.segmentSize");
        int expected = property == null ? 32 : Integer.parseInt(property.trim());
        assertEquals(expected, Channel.segmentSize(), "weft.segmentSize=" + property);
    }

    @Test
    void capacityBelowMinusOneIsRejected() {
        // -1 is unlimited, as in jox: see JoxCompatibilityTest
        assertThrows(IllegalArgumentException.class, () -> new Channel<Integer>(-2));
        assertThrows(IllegalArgumentException.class, () -> new Channel<Integer>(Integer.MIN_VALUE));
        assertThrows(IllegalArgumentException.class, () -> Channel.<Integer>newBufferedChannel(-2));
        assertThrows(IllegalArgumentException.class, () -> Channel.<Integer>newBufferedChannel(-100));
    }

    @Test
    void everyFactoryCreatesTheRightCapacity() throws Exception {
        assertBehavesAsBuffered(0, Channel::new);
        assertBehavesAsBuffered(0, () -> new Channel<>(0));
        assertBehavesAsBuffered(0, Channel::newRendezvousChannel);
        assertBehavesAsBuffered(0, () -> Channel.newBufferedChannel(0));
        assertBehavesAsBuffered(1, () -> new Channel<>(1));
        assertBehavesAsBuffered(3, () -> Channel.newBufferedChannel(3));
        assertBehavesAsBuffered(16, Channel::newBufferedDefaultChannel);
        Channel<Integer> unlimited = Channel.newUnlimitedChannel();
        for (int i = 0; i < 5_000; i++) {
            assertTrue(unlimited.trySend(i), "unlimited channel refused value " + i);
        }
        for (int i = 0; i < 5_000; i++) {
            assertEquals(i, unlimited.tryReceive());
        }
        assertNull(unlimited.tryReceive());
    }

    private static void assertBehavesAsBuffered(int capacity, Supplier<Channel<Integer>> factory) {
        Channel<Integer> ch = factory.get();
        for (int i = 0; i < capacity; i++) {
            assertTrue(ch.trySend(i), "capacity " + capacity + ": value " + i + " should fit");
        }
        assertFalse(ch.trySend(-1), "capacity " + capacity + ": buffer should be full");
        for (int i = 0; i < capacity; i++) {
            assertEquals(i, ch.tryReceive());
        }
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void toStringDescribesTheChannel(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        assertFalse(ch.toString().isBlank());
        Forked<Integer> receiver = Forked.virtual(ch::receive).awaitBlocked();
        String withWaiter = ch.toString();
        assertNotNull(withWaiter);
        assertFalse(withWaiter.isBlank());
        ch.send(1);
        assertEquals(1, receiver.get());
        for (int i = 0; i < Math.min(capacity.fillableWithoutReceiver(), 5); i++) {
            ch.send(i);
        }
        assertFalse(ch.toString().isBlank());
        ch.done();
        assertFalse(ch.toString().isBlank());
    }

    // ---------------------------------------------------------------- send / receive

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void sendThenReceiveAcrossThreadsKeepsOrder(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        int n = 5_000;
        Forked<Void> producer = Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int i = 0; i < n; i++) {
                ch.send(i);
            }
        });
        for (int i = 0; i < n; i++) {
            assertEquals(i, ch.receive());
        }
        producer.get();
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void platformThreadsPingPong(Capacity capacity) throws Exception {
        Channel<Integer> ping = capacity.newChannel();
        Channel<Integer> pong = capacity.newChannel();
        int n = 2_000;
        Forked<Void> echo = Forked.run(ThreadKind.PLATFORM, () -> {
            for (int i = 0; i < n; i++) {
                pong.send(ping.receive() + 1);
            }
        });
        for (int i = 0; i < n; i++) {
            ping.send(i);
            assertEquals(i + 1, pong.receive());
        }
        echo.get();
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void bufferedSendsCompleteWithoutReceiver(Capacity capacity) throws Exception {
        assumeTrue(!capacity.isRendezvous());
        Channel<Integer> ch = capacity.newChannel();
        int n = capacity.fillableWithoutReceiver();
        for (int i = 0; i < n; i++) {
            ch.send(i); // must not block
        }
        for (int i = 0; i < n; i++) {
            assertEquals(i, ch.receive());
        }
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void sendBlocksUntilThereIsRoomOrAReceiver(Capacity capacity) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> ch = capacity.newChannel();
        int cap = capacity.buffer();
        for (int i = 0; i < cap; i++) {
            ch.send(i);
        }
        Forked<Void> sender = Forked.run(ThreadKind.VIRTUAL, () -> ch.send(cap)).awaitBlocked();
        assertFalse(sender.isDone());
        assertEquals(0, ch.receive());
        sender.get();
        for (int i = 1; i <= cap; i++) {
            assertEquals(i, ch.receive());
        }
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void receiveBlocksUntilAValueIsSent(Capacity capacity) throws Exception {
        Channel<String> ch = capacity.newChannel();
        Forked<String> receiver = Forked.platform(ch::receive).awaitBlocked();
        assertFalse(receiver.isDone());
        ch.send("x");
        assertEquals("x", receiver.get());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void waitingReceiversAreServedInArrivalOrder(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        List<Forked<Integer>> receivers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            receivers.add(Forked.virtual(ch::receive).awaitBlocked());
        }
        for (int i = 0; i < 5; i++) {
            ch.send(i);
            assertEquals(i, receivers.get(i).get(), "receiver " + i);
        }
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void waitingSendersAreServedInArrivalOrder(Capacity capacity) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> ch = capacity.newChannel();
        int cap = capacity.buffer();
        for (int i = 0; i < cap; i++) {
            ch.send(i);
        }
        List<Forked<Void>> senders = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int v = cap + i;
            senders.add(Forked.run(ThreadKind.VIRTUAL, () -> ch.send(v)).awaitBlocked());
        }
        for (int i = 0; i < cap + 5; i++) {
            assertEquals(i, ch.receive());
        }
        for (Forked<Void> s : senders) {
            s.get();
        }
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void sendOrClosedAndReceiveOrClosedOnAnOpenChannel(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Forked<Object> receiver = Forked.virtual(ch::receiveOrClosed);
        assertNull(ch.sendOrClosed(7));
        assertEquals(7, receiver.get());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void fifoPerProducerWithManyProducers(Capacity capacity) throws Exception {
        Channel<Long> ch = capacity.newChannel();
        int producers = 4;
        int perProducer = 2_000;
        List<Forked<Void>> ps = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            long id = p;
            ps.add(Forked.run(ThreadKind.VIRTUAL, () -> {
                for (int i = 0; i < perProducer; i++) {
                    ch.send(id << 32 | i);
                }
            }));
        }
        long[] next = new long[producers];
        for (int i = 0; i < producers * perProducer; i++) {
            long v = ch.receive();
            int p = (int) (v >>> 32);
            assertEquals(next[p], v & 0xFFFF_FFFFL, "order of producer " + p);
            next[p]++;
        }
        for (Forked<Void> p : ps) {
            p.get();
        }
        assertNull(ch.tryReceive());
    }

    // ---------------------------------------------------------------- try-operations

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void tryReceiveOnAnEmptyChannelReturnsNull(Capacity capacity) {
        Channel<Integer> ch = capacity.newChannel();
        assertNull(ch.tryReceive());
        assertNull(ch.tryReceiveOrClosed());
        assertNull(ch.tryReceive());
    }

    @Test
    void rendezvousTrySendFailsWithoutAWaitingReceiver() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        assertFalse(ch.trySend(1));
        assertSame(Sink.NOT_SENT, ch.trySendOrClosed(2));
        assertFalse(ch.trySend(3));
        // nothing was left behind: a waiting receiver gets only what is sent later
        assertNull(ch.tryReceive());
        Forked<Integer> receiver = Forked.virtual(ch::receive).awaitBlocked();
        ch.send(4);
        assertEquals(4, receiver.get());
        assertNull(ch.tryReceive());
    }

    @Test
    void rendezvousTrySendSucceedsWhenAReceiverWaits() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Forked<Integer> receiver = Forked.platform(ch::receive).awaitBlocked();
        assertTrue(ch.trySend(42));
        assertEquals(42, receiver.get());
        Forked<Object> receiver2 = Forked.virtual(ch::receiveOrClosed).awaitBlocked();
        assertNull(ch.trySendOrClosed(43));
        assertEquals(43, receiver2.get());
        assertFalse(ch.trySend(44));
    }

    @Test
    void rendezvousTryReceiveTakesFromAWaitingSender() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        assertNull(ch.tryReceive());
        Forked<Void> sender = Forked.run(ThreadKind.PLATFORM, () -> ch.send(5)).awaitBlocked();
        assertEquals(5, ch.tryReceive());
        sender.get();
        assertNull(ch.tryReceive());
        Forked<Object> sender2 = Forked.virtual(() -> ch.sendOrClosed(6)).awaitBlocked();
        assertEquals(6, ch.tryReceiveOrClosed());
        assertNull(sender2.get());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void bufferedTrySendFillsExactlyTheCapacity(Capacity capacity) throws Exception {
        assumeTrue(capacity.isBounded() && !capacity.isRendezvous());
        Channel<Integer> ch = capacity.newChannel();
        int cap = capacity.buffer();
        for (int i = 0; i < cap; i++) {
            assertTrue(ch.trySend(i), "value " + i + " of " + cap);
        }
        assertFalse(ch.trySend(-1));
        assertSame(Sink.NOT_SENT, ch.trySendOrClosed(-2));
        assertEquals(0, ch.tryReceive());
        assertTrue(ch.trySend(cap));
        assertFalse(ch.trySend(-3));
        for (int i = 1; i <= cap; i++) {
            assertEquals(i, ch.tryReceive());
        }
        assertNull(ch.tryReceive());
        // and again, so the buffer's end moved forward correctly
        for (int i = 0; i < cap; i++) {
            assertNull(ch.trySendOrClosed(i));
        }
        assertFalse(ch.trySend(-4));
        for (int i = 0; i < cap; i++) {
            assertEquals(i, ch.tryReceiveOrClosed());
        }
        assertNull(ch.tryReceiveOrClosed());
    }

    @Test
    void unlimitedTrySendNeverFails() {
        Channel<Integer> ch = Channel.newUnlimitedChannel();
        for (int i = 0; i < 50_000; i++) {
            assertTrue(ch.trySend(i));
        }
        for (int i = 0; i < 50_000; i++) {
            assertEquals(i, ch.tryReceive());
        }
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void tryReceiveOnAFullBufferLetsAWaitingSenderIn(Capacity capacity) throws Exception {
        assumeTrue(capacity.isBounded() && !capacity.isRendezvous());
        Channel<Integer> ch = capacity.newChannel();
        int cap = capacity.buffer();
        for (int i = 0; i < cap; i++) {
            ch.send(i);
        }
        Forked<Void> sender = Forked.run(ThreadKind.VIRTUAL, () -> ch.send(cap)).awaitBlocked();
        assertEquals(0, ch.tryReceive());
        sender.get();
        for (int i = 1; i <= cap; i++) {
            assertEquals(i, ch.tryReceive());
        }
        assertNull(ch.tryReceive());
    }

    // ---------------------------------------------------------------- bad input

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void nullValuesAreRejectedAndTheChannelStaysUsable(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        assertThrows(NullPointerException.class, () -> ch.send(null));
        assertThrows(NullPointerException.class, () -> ch.sendOrClosed(null));
        assertThrows(NullPointerException.class, () -> ch.trySend(null));
        assertThrows(NullPointerException.class, () -> ch.trySendOrClosed(null));
        assertThrows(NullPointerException.class, () -> ch.trySend(null, Duration.ofMillis(10)));
        assertThrows(NullPointerException.class, () -> ch.trySendOrClosed(null, Duration.ofMillis(10)));
        assertThrows(NullPointerException.class, () -> ch.sendClause(null));
        assertThrows(NullPointerException.class, () -> ch.sendClause(null, () -> 1));

        assertFalse(ch.isClosedForSend());
        assertNull(ch.tryReceive(), "a rejected null must leave nothing behind");
        Forked<Integer> receiver = Forked.virtual(ch::receive);
        ch.send(1);
        assertEquals(1, receiver.get());
        if (capacity.isRendezvous()) {
            assertFalse(ch.trySend(2), "no receiver is waiting");
        } else {
            assertTrue(ch.trySend(2));
            assertEquals(2, ch.tryReceive());
        }
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void badTimeoutsAreRejected(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        assertThrows(NullPointerException.class, () -> ch.trySend(1, null));
        assertThrows(NullPointerException.class, () -> ch.trySendOrClosed(1, null));
        assertThrows(NullPointerException.class, () -> ch.tryReceive(null));
        assertThrows(NullPointerException.class, () -> ch.tryReceiveOrClosed(null));
        assertThrows(IllegalArgumentException.class, () -> ch.trySend(1, Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> ch.trySendOrClosed(1, Duration.ofNanos(-1)));
        assertThrows(IllegalArgumentException.class, () -> ch.tryReceive(Duration.ofSeconds(-5)));
        assertThrows(IllegalArgumentException.class, () -> ch.tryReceiveOrClosed(Duration.ofMillis(-1)));
        // nothing was sent, nothing consumed, the channel is open
        assertNull(ch.tryReceive());
        assertFalse(ch.isClosedForSend());
        if (!capacity.isRendezvous()) {
            ch.send(9);
            assertEquals(9, ch.tryReceive(Duration.ofSeconds(5)));
        }
        Forked<Integer> receiver = Forked.virtual(ch::receive).awaitBlocked();
        assertTrue(ch.trySend(10, Duration.ofSeconds(5)));
        assertEquals(10, receiver.get());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void zeroTimeoutDoesNotWait(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        assertNull(ch.tryReceive(Duration.ZERO));
        assertNull(ch.tryReceiveOrClosed(Duration.ZERO));
        if (capacity.isRendezvous()) {
            assertFalse(ch.trySend(1, Duration.ZERO));
            assertSame(Sink.NOT_SENT, ch.trySendOrClosed(1, Duration.ZERO));
            Forked<Integer> receiver = Forked.virtual(ch::receive).awaitBlocked();
            assertTrue(ch.trySend(2, Duration.ZERO));
            assertEquals(2, receiver.get());
        } else {
            int n = Math.min(capacity.fillableWithoutReceiver(), 100);
            for (int i = 0; i < n; i++) {
                assertTrue(ch.trySend(i, Duration.ZERO));
            }
            if (capacity.isBounded()) {
                assertFalse(ch.trySend(-1, Duration.ZERO));
                assertSame(Sink.NOT_SENT, ch.trySendOrClosed(-1, Duration.ZERO));
            }
            for (int i = 0; i < n; i++) {
                assertEquals(i, ch.tryReceive(Duration.ZERO));
            }
            assertNull(ch.tryReceive(Duration.ZERO));
        }
    }
}
