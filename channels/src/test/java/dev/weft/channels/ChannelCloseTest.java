package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** done() and error(): what senders, receivers and the closed-state queries see. */
@Timeout(60)
class ChannelCloseTest {

    private static void fill(Channel<Integer> ch, int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            ch.send(i);
        }
    }

    // ---------------------------------------------------------------- closing twice, bad input

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void doneOrClosedReturnsNullWhenItClosesAndTheExistingReasonAfterwards(Capacity capacity) {
        Channel<Integer> ch = capacity.newChannel();
        assertNull(ch.doneOrClosed());
        ChannelDone done = assertInstanceOf(ChannelDone.class, ch.doneOrClosed());
        assertSame(ch, done.channel());
        assertEquals(new ChannelDone(ch), ch.errorOrClosed(new RuntimeException("late")));
        assertThrows(ChannelClosedException.class, ch::done);
        assertThrows(ChannelClosedException.class, () -> ch.error(new RuntimeException("late")));
        // the first close wins
        assertEquals(new ChannelDone(ch), ch.closedForSend());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void errorOrClosedReturnsNullWhenItClosesAndTheExistingReasonAfterwards(Capacity capacity) {
        Channel<Integer> ch = capacity.newChannel();
        RuntimeException first = new RuntimeException("first");
        assertNull(ch.errorOrClosed(first));
        ChannelError error = assertInstanceOf(ChannelError.class, ch.errorOrClosed(new RuntimeException("second")));
        assertSame(first, error.cause());
        assertSame(ch, error.channel());
        assertEquals(new ChannelError(first, ch), ch.doneOrClosed());
        assertThrows(ChannelClosedException.class, ch::done);
        assertThrows(ChannelClosedException.class, () -> ch.error(new RuntimeException("third")));
        assertEquals(new ChannelError(first, ch), ch.closedForSend());
        assertEquals(new ChannelError(first, ch), ch.closedForReceive());
    }

    @Test
    void doneThenDoneThrows() {
        Channel<Integer> ch = Channel.newBufferedDefaultChannel();
        ch.done();
        assertThrows(ChannelClosedException.class, ch::done);
        Channel<Integer> ch2 = Channel.newRendezvousChannel();
        ch2.error(new RuntimeException());
        assertThrows(ChannelClosedException.class, ch2::done);
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void errorWithNullIsRejectedAndDoesNotClose(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        assertThrows(NullPointerException.class, () -> ch.error(null));
        assertThrows(NullPointerException.class, () -> ch.errorOrClosed(null));
        assertFalse(ch.isClosedForSend());
        assertFalse(ch.isClosedForReceive());
        Forked<Integer> receiver = Forked.virtual(ch::receive);
        ch.send(1);
        assertEquals(1, receiver.get());
    }

    // ---------------------------------------------------------------- state queries

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void closedStateOfAnOpenChannel(Capacity capacity) {
        Channel<Integer> ch = capacity.newChannel();
        assertFalse(ch.isClosedForSend());
        assertFalse(ch.isClosedForReceive());
        assertNull(ch.closedForSend());
        assertNull(ch.closedForReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void doneOnAnEmptyChannelClosesBothSides(Capacity capacity) {
        Channel<Integer> ch = capacity.newChannel();
        ch.done();
        assertTrue(ch.isClosedForSend());
        assertTrue(ch.isClosedForReceive());
        assertEquals(new ChannelDone(ch), ch.closedForSend());
        assertEquals(new ChannelDone(ch), ch.closedForReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void doneDrainsBufferedValuesThenReportsDone(Capacity capacity) throws Exception {
        assumeTrue(!capacity.isRendezvous());
        Channel<Integer> ch = capacity.newChannel();
        int n = Math.min(capacity.fillableWithoutReceiver(), 50);
        fill(ch, n);
        ch.done();
        assertTrue(ch.isClosedForSend());
        assertEquals(new ChannelDone(ch), ch.closedForSend());
        for (int i = 0; i < n; i++) {
            assertFalse(ch.isClosedForReceive(), "values are left");
            assertNull(ch.closedForReceive());
            assertEquals(i, switch (i % 4) {
                case 0 -> ch.receive();
                case 1 -> ch.receiveOrClosed();
                case 2 -> ch.tryReceive();
                default -> ch.tryReceiveOrClosed();
            });
        }
        assertTrue(ch.isClosedForReceive());
        assertEquals(new ChannelDone(ch), ch.closedForReceive());
        assertThrows(ChannelDoneException.class, ch::receive);
        assertThrows(ChannelDoneException.class, ch::tryReceive);
        assertEquals(new ChannelDone(ch), ch.receiveOrClosed());
        assertEquals(new ChannelDone(ch), ch.tryReceiveOrClosed());
    }

    /** A send refused because the channel is done must not count as a value still to receive. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void refusedSendsDoNotKeepADoneChannelOpenForReceive(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        if (!capacity.isRendezvous()) {
            ch.send(1);
        }
        ch.done();
        assertThrows(ChannelDoneException.class, () -> ch.send(2));
        assertEquals(new ChannelDone(ch), ch.trySendOrClosed(3));
        assertEquals(new ChannelDone(ch), assertDoesNotThrowInterrupted(() -> ch.sendOrClosed(4)));
        if (!capacity.isRendezvous()) {
            assertFalse(ch.isClosedForReceive());
            assertEquals(1, ch.receive());
        }
        assertTrue(ch.isClosedForReceive(), "done and drained: " + ch.dumpCells());
        assertEquals(new ChannelDone(ch), ch.closedForReceive());
        assertEquals(new ChannelDone(ch), ch.tryReceiveOrClosed());
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void rendezvousSenderWaitingBeforeDoneIsStillReceived(ThreadKind kind) throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Forked<Void> s1 = Forked.run(kind, () -> ch.send(1)).awaitBlocked();
        Forked<Object> s2 = Forked.start(kind, () -> ch.sendOrClosed(2)).awaitBlocked();
        ch.done();
        assertTrue(ch.isClosedForSend());
        assertFalse(ch.isClosedForReceive(), "waiting senders' values are still to be received");
        assertNull(ch.closedForReceive());
        assertEquals(1, ch.receive());
        assertEquals(2, ch.receiveOrClosed());
        s1.get();
        assertNull(s2.get());
        assertTrue(ch.isClosedForReceive());
        assertEquals(new ChannelDone(ch), ch.receiveOrClosed());
        assertThrows(ChannelDoneException.class, () -> ch.send(3));
        assertEquals(new ChannelDone(ch), ch.receiveOrClosed());
    }

    /**
     * jox's contract for {@code done()}: "Any send operations that are in progress will complete
     * normally, when a receiver arrives." Senders waiting in a full buffer at the close claimed
     * their cells before it (the close's sweep starts at the sender count it froze), so each is
     * received, in the order of its claim, after the buffered values, and its send then returns
     * normally; only then is the channel closed for receiving.
     */
    @ParameterizedTest
    @MethodSource("dev.weft.channels.ChannelConcurrencyTest#capacitiesAndThreads")
    void sendersWaitingAtDoneAreReceivedInOrderAndReturnNormally(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> ch = capacity.newChannel();
        int cap = capacity.buffer();
        fill(ch, cap);
        List<Forked<Object>> senders = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int v = 1000 + i;
            senders.add(Forked.start(kind, () -> ch.sendOrClosed(v)).awaitBlocked());
        }
        ch.done();
        assertTrue(ch.isClosedForSend());
        assertFalse(ch.isClosedForReceive(), "values still to be received");
        List<Object> received = new ArrayList<>();
        for (int i = 0; i < cap + 4; i++) {
            for (int j = i; j < 4; j++) {
                // nothing but a receive completes a waiting send: receive j moves sender j into
                // the buffer (cell cap + j), or, in a rendezvous channel, takes its value
                assertFalse(senders.get(j).isDone(), "sender " + j + " completed before receive " + i);
            }
            received.add(ch.receiveOrClosed());
        }
        List<Object> expected = new ArrayList<>();
        for (int i = 0; i < cap; i++) {
            expected.add(i);
        }
        expected.addAll(List.of(1000, 1001, 1002, 1003));
        assertEquals(expected, received, "the buffered values, then each waiting sender's, in order");
        for (Forked<Object> sender : senders) {
            assertNull(sender.get(), "a send waiting at done() returns normally once received");
        }
        assertEquals(new ChannelDone(ch), ch.receiveOrClosed());
        assertTrue(ch.isClosedForReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void errorDiscardsBufferedValues(Capacity capacity) throws Exception {
        assumeTrue(!capacity.isRendezvous());
        Channel<Integer> ch = capacity.newChannel();
        fill(ch, Math.min(capacity.fillableWithoutReceiver(), 50));
        RuntimeException boom = new RuntimeException("boom");
        ch.error(boom);
        assertTrue(ch.isClosedForSend());
        assertTrue(ch.isClosedForReceive());
        assertEquals(new ChannelError(boom, ch), ch.closedForSend());
        assertEquals(new ChannelError(boom, ch), ch.closedForReceive());
        assertEquals(new ChannelError(boom, ch), ch.tryReceiveOrClosed());
        assertEquals(new ChannelError(boom, ch), ch.receiveOrClosed());
        assertSame(boom, assertThrows(ChannelErrorException.class, ch::receive).getCause());
        assertSame(boom, assertThrows(ChannelErrorException.class, ch::tryReceive).getCause());
    }

    // ---------------------------------------------------------------- waking waiters

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void waitingReceiversAreWokenByDone(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Forked<Object> r1 = Forked.virtual(ch::receiveOrClosed).awaitBlocked();
        Forked<Object> r2 = Forked.platform(ch::receiveOrClosed).awaitBlocked();
        Forked<Integer> r3 = Forked.virtual(ch::receive).awaitBlocked();
        ch.done();
        assertEquals(new ChannelDone(ch), r1.get());
        assertEquals(new ChannelDone(ch), r2.get());
        assertInstanceOf(ChannelDoneException.class, r3.failure());
        assertTrue(ch.isClosedForReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void waitingReceiversAreWokenByError(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Forked<Object> r1 = Forked.virtual(ch::receiveOrClosed).awaitBlocked();
        Forked<Object> r2 = Forked.platform(ch::receiveOrClosed).awaitBlocked();
        Forked<Integer> r3 = Forked.virtual(ch::receive).awaitBlocked();
        Error boom = new AssertionError("boom");
        ch.error(boom);
        assertEquals(new ChannelError(boom, ch), r1.get());
        assertEquals(new ChannelError(boom, ch), r2.get());
        assertSame(boom, assertInstanceOf(ChannelErrorException.class, r3.failure()).getCause());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void waitingSendersAreWokenByError(Capacity capacity) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> ch = capacity.newChannel();
        fill(ch, capacity.buffer());
        Forked<Object> s1 = Forked.virtual(() -> ch.sendOrClosed(-1)).awaitBlocked();
        Forked<Void> s2 = Forked.run(ThreadKind.PLATFORM, () -> ch.send(-2)).awaitBlocked();
        Forked<Void> s3 = Forked.run(ThreadKind.VIRTUAL, () -> ch.send(-3)).awaitBlocked();
        RuntimeException boom = new RuntimeException("boom");
        ch.error(boom);
        ChannelError error = assertInstanceOf(ChannelError.class, s1.get());
        assertSame(boom, error.cause());
        assertSame(ch, error.channel());
        assertSame(boom, assertInstanceOf(ChannelErrorException.class, s2.failure()).getCause());
        assertSame(boom, assertInstanceOf(ChannelErrorException.class, s3.failure()).getCause());
        assertEquals(new ChannelError(boom, ch), ch.receiveOrClosed());
    }

    // ---------------------------------------------------------------- operations after close

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void sendAfterDoneFails(Capacity capacity) {
        Channel<Integer> ch = capacity.newChannel();
        ch.done();
        assertThrows(ChannelDoneException.class, () -> ch.send(1));
        assertThrows(ChannelDoneException.class, () -> ch.trySend(1));
        assertEquals(new ChannelDone(ch), assertDoesNotThrowInterrupted(() -> ch.sendOrClosed(1)));
        assertEquals(new ChannelDone(ch), ch.trySendOrClosed(1));
        assertEquals(new ChannelDone(ch), assertDoesNotThrowInterrupted(ch::receiveOrClosed));
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void sendAfterErrorFailsWithTheCause(Capacity capacity) {
        Channel<Integer> ch = capacity.newChannel();
        Exception boom = new java.io.IOException("boom");
        ch.error(boom);
        assertSame(boom, assertThrows(ChannelErrorException.class, () -> ch.send(1)).getCause());
        assertSame(boom, assertThrows(ChannelErrorException.class, () -> ch.trySend(1)).getCause());
        assertEquals(new ChannelError(boom, ch), assertDoesNotThrowInterrupted(() -> ch.sendOrClosed(1)));
        assertEquals(new ChannelError(boom, ch), ch.trySendOrClosed(1));
    }

    @Test
    void closedValuesConvertToTheirExceptions() {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        assertInstanceOf(ChannelDoneException.class, new ChannelDone(ch).toException());
        RuntimeException boom = new RuntimeException();
        ChannelClosedException e = new ChannelError(boom, ch).toException();
        assertInstanceOf(ChannelErrorException.class, e);
        assertSame(boom, e.getCause());
    }

    // ---------------------------------------------------------------- closing under load

    /**
     * Producers send until they are refused while done() lands at a random moment. Every value
     * whose send returned normally is received exactly once, in per-producer order; no refused
     * value is received.
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void doneRacingWithSendersAccountsForEveryValue(Capacity capacity) throws Exception {
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        for (int round = 0; round < 20; round++) {
            Channel<Long> ch = capacity.newChannel();
            int producers = 3;
            List<Forked<Long>> ps = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                long id = p;
                ps.add(Forked.start(p % 2 == 0 ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM, () -> {
                    for (long i = 0; ; i++) {
                        Object r = i % 2 == 0 ? ch.sendOrClosed(id << 32 | i) : ch.trySendOrClosed(id << 32 | i, java.time.Duration.ofSeconds(20));
                        if (r != null) {
                            assertEquals(new ChannelDone(ch), r);
                            return i; // values 0 .. i-1 were sent
                        }
                    }
                }));
            }
            List<Forked<List<Long>>> cs = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                cs.add(Forked.virtual(ch::toList));
            }
            long stopAfter = System.nanoTime() + random.nextInt(2_000_000);
            while (System.nanoTime() < stopAfter) {
                Thread.onSpinWait();
            }
            ch.done();
            long[] sentCount = new long[producers];
            for (int p = 0; p < producers; p++) {
                sentCount[p] = ps.get(p).get();
            }
            long[] received = new long[producers];
            for (Forked<List<Long>> c : cs) {
                long[] last = {-1, -1, -1};
                for (long v : c.get()) {
                    int p = (int) (v >>> 32);
                    long seq = v & 0xFFFF_FFFFL;
                    assertTrue(seq > last[p], "per-producer order");
                    last[p] = seq;
                    received[p]++;
                    assertTrue(seq < sentCount[p], "round " + round + ": received " + p + ":" + seq
                            + " but only " + sentCount[p] + " sends returned normally");
                }
            }
            for (int p = 0; p < producers; p++) {
                assertEquals(sentCount[p], received[p], "round " + round + ", producer " + p
                        + ": sent (normally returned) vs received");
            }
        }
    }

    // ---------------------------------------------------------------- forEach / toList

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void toListCollectsEverythingUntilDone(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Forked<Void> producer = Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int i = 0; i < 300; i++) {
                ch.send(i);
            }
            ch.done();
        });
        List<Integer> list = ch.toList();
        producer.get();
        assertEquals(300, list.size());
        for (int i = 0; i < 300; i++) {
            assertEquals(i, list.get(i));
        }
        assertEquals(List.of(), ch.toList());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void forEachSeesEveryValueAndToListFailsOnError(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Forked<Void> producer = Forked.run(ThreadKind.PLATFORM, () -> {
            for (int i = 0; i < 100; i++) {
                ch.send(i);
            }
            ch.done();
        });
        List<Integer> seen = new ArrayList<>();
        ch.forEach(seen::add);
        producer.get();
        assertEquals(100, seen.size());
        assertEquals(99, seen.get(99));

        Channel<Integer> failing = capacity.newChannel();
        RuntimeException boom = new RuntimeException("boom");
        Forked<List<Integer>> collector = Forked.virtual(failing::toList);
        failing.send(1);
        collector.awaitBlocked();
        failing.error(boom);
        Throwable t = collector.failure();
        assertNotNull(t);
        assertSame(boom, assertInstanceOf(ChannelErrorException.class, t).getCause());
    }

    // ---------------------------------------------------------------- helpers

    private interface InterruptibleSupplier<T> {
        T get() throws InterruptedException;
    }

    private static <T> T assertDoesNotThrowInterrupted(InterruptibleSupplier<T> s) {
        try {
            return s.get();
        } catch (InterruptedException e) {
            return fail(e);
        }
    }
}
