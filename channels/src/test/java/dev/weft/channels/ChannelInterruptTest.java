package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Interruption is atomic: a blocked operation that throws {@link InterruptedException} had no
 * effect; one whose partner won the race completes normally with the interrupt flag set again.
 */
@Timeout(120)
class ChannelInterruptTest {
    private static final Duration LONG = Duration.ofSeconds(20);
    /** Iterations of each race test with virtual threads (a third of it with platform threads). */
    private static final int RACE_ITERATIONS = Integer.getInteger("weft.test.raceIterations", 1_000);

    static Stream<Arguments> capacitiesAndThreads() {
        return Stream.of(Capacity.values())
                .flatMap(c -> Stream.of(ThreadKind.values()).map(k -> Arguments.of(c, k)));
    }

    /** The blocking receive forms; each returns the received value or the closed state. */
    enum ReceiveOp {
        RECEIVE, RECEIVE_OR_CLOSED, TIMED, TIMED_OR_CLOSED;

        Object call(Channel<Integer> ch) throws InterruptedException {
            return switch (this) {
                case RECEIVE -> ch.receive();
                case RECEIVE_OR_CLOSED -> ch.receiveOrClosed();
                case TIMED -> ch.tryReceive(LONG);
                case TIMED_OR_CLOSED -> ch.tryReceiveOrClosed(LONG);
            };
        }
    }

    /** The blocking send forms. */
    enum SendOp {
        SEND, SEND_OR_CLOSED, TIMED, TIMED_OR_CLOSED;

        void call(Channel<Integer> ch, int v) throws InterruptedException {
            switch (this) {
                case SEND -> ch.send(v);
                case SEND_OR_CLOSED -> assertNull(ch.sendOrClosed(v));
                case TIMED -> assertTrue(ch.trySend(v, LONG));
                case TIMED_OR_CLOSED -> assertNull(ch.trySendOrClosed(v, LONG));
            }
        }
    }

    // ---------------------------------------------------------------- a parked operation

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void interruptedReceiveConsumesNothing(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        for (ReceiveOp op : ReceiveOp.values()) {
            Forked<Object> receiver = Forked.start(kind, () -> op.call(ch)).awaitBlocked();
            receiver.interrupt();
            assertInstanceOf(InterruptedException.class, receiver.failure(), op.toString());
        }
        // four withdrawn receivers: none of them takes what is sent now
        if (capacity.isRendezvous()) {
            assertFalse(ch.trySend(1), "an interrupted receiver is still registered");
        } else {
            assertTrue(ch.trySend(1));
            assertEquals(1, ch.tryReceive(), "an interrupted receiver consumed the value");
        }
        Forked<Integer> receiver = Forked.start(kind, ch::receive).awaitBlocked();
        ch.send(2);
        assertEquals(2, receiver.get());
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void interruptedSendDeliversNothing(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> ch = capacity.newChannel();
        int cap = capacity.buffer();
        for (int i = 0; i < cap; i++) {
            ch.send(i);
        }
        for (SendOp op : SendOp.values()) {
            Forked<Void> sender = Forked.run(kind, () -> op.call(ch, -1 - op.ordinal())).awaitBlocked();
            sender.interrupt();
            assertInstanceOf(InterruptedException.class, sender.failure(), op.toString());
        }
        for (int i = 0; i < cap; i++) {
            assertEquals(i, ch.receive());
        }
        assertNull(ch.tryReceive(), "an interrupted sender delivered its value");
        Forked<Integer> receiver = Forked.start(kind, ch::receive).awaitBlocked();
        assertNull(ch.tryReceive());
        ch.send(5);
        assertEquals(5, receiver.get(), "an interrupted sender delivered its value");
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void interruptFlagSetBeforeAWaitingOperation(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Forked<Void> t = Forked.run(kind, () -> {
            Thread.currentThread().interrupt();
            try {
                ch.receive();
                fail("receive on an empty channel returned with the interrupt flag set");
            } catch (InterruptedException expected) {
                // ok
            }
            if (capacity.isBounded()) {
                for (int i = 0; i < capacity.buffer(); i++) {
                    assertTrue(ch.trySend(i));
                }
                Thread.currentThread().interrupt();
                try {
                    ch.send(-1);
                    fail("send on a full channel returned with the interrupt flag set");
                } catch (InterruptedException expected) {
                    // ok
                }
            }
        });
        t.get();
        if (capacity.isBounded()) {
            for (int i = 0; i < capacity.buffer(); i++) {
                assertEquals(i, ch.tryReceive());
            }
        }
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void nonWaitingOperationsKeepTheInterruptFlag(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(!capacity.isRendezvous());
        Channel<Integer> ch = capacity.newChannel();
        Forked<Void> t = Forked.run(kind, () -> {
            Thread.currentThread().interrupt();
            assertTrue(ch.trySend(1));
            assertEquals(1, ch.tryReceive());
            assertNull(ch.tryReceive());
            assertTrue(Thread.currentThread().isInterrupted(), "a try-operation cleared the interrupt flag");
        });
        t.get();
    }

    /** A try-operation passes over withdrawn waiters to a live one behind them. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void trySendSkipsWithdrawnReceivers(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Forked<Integer> gone1 = Forked.start(kind, ch::receive).awaitBlocked();
        Forked<Integer> gone2 = Forked.start(kind, () -> ch.tryReceive(LONG)).awaitBlocked();
        Forked<Integer> live = Forked.start(kind, ch::receive).awaitBlocked();
        gone1.interrupt();
        gone2.interrupt();
        assertInstanceOf(InterruptedException.class, gone1.failure());
        assertInstanceOf(InterruptedException.class, gone2.failure());
        assertTrue(ch.trySend(1), "a receiver is waiting behind two withdrawn ones: " + ch.dumpCells());
        assertEquals(1, live.get());
        assertNull(ch.tryReceive());
    }

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void tryReceiveSkipsWithdrawnSenders(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> ch = capacity.newChannel();
        int cap = capacity.buffer();
        for (int i = 0; i < cap; i++) {
            ch.send(i);
        }
        Forked<Void> gone1 = Forked.run(kind, () -> ch.send(-1)).awaitBlocked();
        Forked<Boolean> gone2 = Forked.start(kind, () -> ch.trySend(-2, LONG)).awaitBlocked();
        Forked<Void> live = Forked.run(kind, () -> ch.send(cap)).awaitBlocked();
        gone1.interrupt();
        gone2.interrupt();
        assertInstanceOf(InterruptedException.class, gone1.failure());
        assertInstanceOf(InterruptedException.class, gone2.failure());
        for (int i = 0; i <= cap; i++) {
            assertEquals(i, ch.tryReceive(), "value " + i + ": " + ch.dumpCells());
        }
        live.get();
        assertNull(ch.tryReceive());
    }

    // ---------------------------------------------------------------- racing with the partner

    private static final Object INTERRUPTED = new Object() {
        @Override
        public String toString() {
            return "INTERRUPTED";
        }
    };

    /**
     * A receiver blocks, a sender arrives while the receiver is interrupted. Either the receive
     * throws {@link InterruptedException} and the value is still in the channel, or it returns the
     * value and its thread's interrupt flag is set.
     */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void receiveRacingInterruptAndSend(Capacity capacity, ThreadKind kind) throws Exception {
        int iterations = kind == ThreadKind.VIRTUAL ? RACE_ITERATIONS : RACE_ITERATIONS / 3;
        Channel<Integer> ch = capacity.newChannel();
        SplittableRandom random = new SplittableRandom(42);
        int interrupted = 0;
        int completed = 0;
        for (int i = 0; i < iterations; i++) {
            int v = i;
            AtomicBoolean interruptSent = new AtomicBoolean();
            ReceiveOp op = ReceiveOp.values()[i % ReceiveOp.values().length];
            Forked<Object> receiver = Forked.start(kind, () -> {
                Object r;
                try {
                    r = op.call(ch);
                } catch (InterruptedException e) {
                    return INTERRUPTED;
                }
                while (!interruptSent.get()) {
                    Thread.yield(); // so that the interrupt surely happened before we look at the flag
                }
                return r;
            });
            if (random.nextInt(3) == 0) {
                receiver.awaitBlocked();
            }
            Forked<Void> sender = Forked.run(kind, () -> ch.send(v));
            spin(random.nextInt(200));
            receiver.interrupt();
            interruptSent.set(true);
            Object outcome = receiver.value();
            if (outcome == INTERRUPTED) {
                interrupted++;
                assertEquals(v, ch.tryReceive(LONG), "iteration " + i + ": interrupted receive consumed the value");
            } else {
                completed++;
                assertEquals(v, outcome, "iteration " + i);
                assertTrue(receiver.interruptedAtEnd(), "iteration " + i + ": receive completed but the interrupt was lost");
            }
            sender.get();
            assertNull(ch.tryReceive(), "iteration " + i + ": value left over");
        }
        assertEquals(iterations, interrupted + completed);
        System.out.printf("receive race %s/%s: %d interrupted, %d completed%n", capacity, kind, interrupted, completed);
    }

    /**
     * A sender blocks (rendezvous or full buffer), a receiver arrives while the sender is
     * interrupted. Either the send throws {@link InterruptedException} and its value is never
     * received, or it completes, the value is received exactly once and the flag is set.
     */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void sendRacingInterruptAndReceive(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(capacity.isBounded());
        int iterations = kind == ThreadKind.VIRTUAL ? RACE_ITERATIONS : RACE_ITERATIONS / 3;
        int cap = capacity.buffer();
        int sentinel = -7;
        Channel<Integer> ch = capacity.newChannel();
        SplittableRandom random = new SplittableRandom(7);
        int interrupted = 0;
        int completed = 0;
        for (int i = 0; i < iterations; i++) {
            int v = i;
            for (int k = 0; k < cap; k++) {
                ch.send(-1000 - k);
            }
            AtomicBoolean interruptSent = new AtomicBoolean();
            SendOp op = SendOp.values()[i % SendOp.values().length];
            Forked<Object> sender = Forked.start(kind, () -> {
                try {
                    op.call(ch, v);
                } catch (InterruptedException e) {
                    return INTERRUPTED;
                }
                while (!interruptSent.get()) {
                    Thread.yield();
                }
                return "sent";
            });
            if (random.nextInt(3) == 0) {
                sender.awaitBlocked();
            }
            Forked<Integer> receiver = Forked.start(kind, ch::receive);
            spin(random.nextInt(200));
            sender.interrupt();
            interruptSent.set(true);
            Object outcome = sender.value();
            List<Integer> rest = new ArrayList<>();
            if (outcome == INTERRUPTED) {
                interrupted++;
                if (capacity.isRendezvous()) {
                    ch.send(sentinel); // releases the receiver, which must not have got v
                    assertEquals(sentinel, receiver.value(), "iteration " + i + ": interrupted send was received");
                } else {
                    assertEquals(-1000, receiver.value(), "iteration " + i);
                }
            } else {
                completed++;
                assertTrue(sender.interruptedAtEnd(), "iteration " + i + ": send completed but the interrupt was lost");
                assertEquals(capacity.isRendezvous() ? v : -1000, receiver.value(), "iteration " + i);
            }
            for (Integer x = ch.tryReceive(); x != null; x = ch.tryReceive()) {
                rest.add(x);
            }
            List<Integer> expected = new ArrayList<>();
            for (int k = 1; k < cap; k++) {
                expected.add(-1000 - k);
            }
            if (outcome != INTERRUPTED && !capacity.isRendezvous()) {
                expected.add(v);
            }
            assertEquals(expected, rest, "iteration " + i + " (" + outcome + ")");
        }
        assertEquals(iterations, interrupted + completed);
        System.out.printf("send race %s/%s: %d interrupted, %d completed%n", capacity, kind, interrupted, completed);
    }

    /** Many receivers and senders interrupted at random while values flow; exact accounting. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void randomInterruptsUnderLoadLoseAndDuplicateNothing(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        int producers = 3;
        int consumers = 3;
        int perProducer = kind == ThreadKind.VIRTUAL ? 3_000 : 1_000;
        int total = producers * perProducer;
        java.util.concurrent.atomic.AtomicIntegerArray received = new java.util.concurrent.atomic.AtomicIntegerArray(total);
        java.util.concurrent.atomic.AtomicInteger receivedCount = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger interruptsSeen = new java.util.concurrent.atomic.AtomicInteger();
        List<Forked<Void>> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int base = p * perProducer;
            threads.add(Forked.run(kind, () -> {
                for (int i = 0; i < perProducer; i++) {
                    while (true) {
                        try {
                            ch.send(base + i);
                            break;
                        } catch (InterruptedException e) {
                            interruptsSeen.incrementAndGet(); // not sent: send it again
                        }
                    }
                }
            }));
        }
        for (int c = 0; c < consumers; c++) {
            threads.add(Forked.run(kind, () -> {
                while (true) {
                    Object r;
                    try {
                        r = ch.receiveOrClosed();
                    } catch (InterruptedException e) {
                        interruptsSeen.incrementAndGet();
                        continue;
                    }
                    if (r instanceof ChannelDone) {
                        return;
                    }
                    int v = (Integer) r;
                    if (received.getAndIncrement(v) != 0) {
                        fail("value " + v + " received twice");
                    }
                    receivedCount.incrementAndGet();
                    Thread.interrupted(); // an interrupt that arrived after completion: drop it
                }
            }));
        }
        SplittableRandom random = new SplittableRandom(1);
        long deadline = System.nanoTime() + LONG.toNanos();
        while (receivedCount.get() < total) {
            threads.get(random.nextInt(threads.size())).interrupt();
            spin(random.nextInt(2_000));
            if (System.nanoTime() > deadline) {
                fail("stuck at " + receivedCount.get() + " of " + total + ": " + ch.dumpCells());
            }
        }
        for (int p = 0; p < producers; p++) {
            threads.get(p).join();
        }
        ch.done();
        for (Forked<Void> t : threads) {
            Throwable failure = t.failure();
            if (failure != null) {
                throw new AssertionError(failure);
            }
        }
        for (int v = 0; v < total; v++) {
            assertEquals(1, received.get(v), "value " + v);
        }
        assertEquals(new ChannelDone(ch), ch.tryReceiveOrClosed());
        System.out.printf("random interrupts %s/%s: %d interrupts seen%n", capacity, kind, interruptsSeen.get());
    }

    private static void spin(int n) {
        for (int i = 0; i < n; i++) {
            Thread.onSpinWait();
        }
    }
}
