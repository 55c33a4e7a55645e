package dev.weft.channels;

import static dev.weft.channels.SelectChecks.assertFresh;
import static dev.weft.channels.SelectChecks.drainFilled;
import static dev.weft.channels.SelectChecks.fill;
import static dev.weft.channels.SelectChecks.spin;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Interruption of a select is atomic: a select that throws {@link InterruptedException} completed
 * no clause (nothing consumed, nothing delivered, later operations unaffected); one whose partner
 * won the race completes normally and the interrupt flag is set again.
 */
@Timeout(120)
class SelectInterruptTest {
    private static final Duration LONG = Duration.ofSeconds(20);
    private static final Object INTERRUPTED = new Object() {
        @Override
        public String toString() {
            return "INTERRUPTED";
        }
    };

    static Stream<Arguments> capacitiesAndThreads() {
        return Stream.of(Capacity.values())
                .flatMap(c -> Stream.of(ThreadKind.values()).map(k -> Arguments.of(c, k)));
    }

    static Stream<Arguments> raceConfigurations() {
        return Stream.of(Capacity.RENDEZVOUS, Capacity.ONE, Capacity.SIXTEEN, Capacity.UNLIMITED)
                .flatMap(c -> Stream.of(ThreadKind.values()).map(k -> Arguments.of(c, k)));
    }

    /** Every waiting select form. */
    enum Form {
        SELECT, OR_CLOSED, WITHIN, OR_CLOSED_WITHIN, UNBIASED, UNBIASED_OR_CLOSED;

        Object call(SelectClause<?>... clauses) throws Exception {
            return switch (this) {
                case SELECT -> Select.select(clauses);
                case OR_CLOSED -> Select.selectOrClosed(clauses);
                case WITHIN -> Select.selectWithin(LONG, clauses);
                case OR_CLOSED_WITHIN -> Select.selectOrClosedWithin(LONG, "timeout", clauses);
                case UNBIASED -> Select.selectUnbiased(clauses);
                case UNBIASED_OR_CLOSED -> Select.selectUnbiasedOrClosed(clauses);
            };
        }
    }

    // ---------------------------------------------------------------- a waiting select

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void interruptedWaitingSelectThrowsAndCompletesNoClause(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> in1 = capacity.newChannel();
        Channel<Integer> in2 = capacity.newChannel();
        Channel<Integer> out = capacity.newChannel();
        if (capacity.isBounded()) {
            fill(out, capacity);
        }
        for (Form form : Form.values()) {
            Forked<Object> selector = Forked.start(kind, () -> capacity.isBounded()
                    ? form.call(in1.receiveClause(), out.sendClause(-5), in2.receiveClause())
                    : form.call(in1.receiveClause(), in2.receiveClause())).awaitBlocked();
            selector.interrupt();
            assertInstanceOf(InterruptedException.class, selector.failure(), form.toString());
            assertFalse(selector.interruptedAtEnd(), form + ": the flag should be cleared by the InterruptedException");
        }
        assertFresh(in1, capacity, "in1 after interrupted selects");
        assertFresh(in2, capacity, "in2 after interrupted selects");
        if (capacity.isBounded()) {
            drainFilled(out, capacity);
        }
        assertFresh(out, capacity, "out: an interrupted select's send clause delivered");
    }

    /** The flag is already set when a select that has to wait starts: InterruptedException, no effect. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void interruptFlagSetBeforeAWaitingSelect(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> in = capacity.newChannel();
        Channel<Integer> out = capacity.newChannel();
        if (capacity.isBounded()) {
            fill(out, capacity);
        }
        Forked<Void> t = Forked.run(kind, () -> {
            for (Form form : Form.values()) {
                Thread.currentThread().interrupt();
                try {
                    Object r = capacity.isBounded()
                            ? form.call(out.sendClause(-5), in.receiveClause())
                            : form.call(in.receiveClause());
                    fail(form + ": a select that has to wait returned " + r + " with the interrupt flag set");
                } catch (InterruptedException expected) {
                    assertFalse(Thread.currentThread().isInterrupted());
                }
            }
        });
        t.get();
        assertFresh(in, capacity, "in");
        if (capacity.isBounded()) {
            drainFilled(out, capacity);
        }
        assertFresh(out, capacity, "out");
    }

    // ---------------------------------------------------------------- racing with a partner

    /**
     * A select over two receive clauses is interrupted while a value is offered with trySend.
     * Exactly one of: InterruptedException and the value was not consumed (trySend failed on a
     * rendezvous channel, or the value is still buffered), or the select returned the value and the
     * interrupt flag is set.
     */
    @ParameterizedTest
    @MethodSource("raceConfigurations")
    void receiveSelectRacingInterruptAndSend(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        SplittableRandom random = new SplittableRandom(17);
        int iterations = kind == ThreadKind.VIRTUAL ? 600 : 200;
        int interrupted = 0;
        int completed = 0;
        for (int i = 0; i < iterations; i++) {
            int v = i;
            AtomicBoolean interruptSent = new AtomicBoolean();
            boolean unbiased = i % 3 == 2;
            Forked<Object> selector = Forked.start(kind, () -> {
                Object r;
                try {
                    r = unbiased ? Select.selectUnbiased(a.receiveClause(), b.receiveClause())
                            : Select.select(b.receiveClause(), a.receiveClause());
                } catch (InterruptedException e) {
                    return INTERRUPTED;
                }
                while (!interruptSent.get()) {
                    Thread.yield(); // the interrupt surely happened before the flag is looked at
                }
                return r;
            });
            if (random.nextInt(2) == 0) {
                selector.awaitBlocked();
            }
            boolean sent;
            if (random.nextBoolean()) {
                selector.interrupt();
                interruptSent.set(true);
                spin(random.nextInt(3_000));
                sent = a.trySend(v);
            } else {
                Forked<Boolean> sender = Forked.start(kind, () -> a.trySend(v));
                spin(random.nextInt(3_000));
                selector.interrupt();
                interruptSent.set(true);
                sent = sender.get();
            }
            Object outcome = selector.value();
            if (outcome == INTERRUPTED) {
                interrupted++;
                assertFalse(selector.interruptedAtEnd());
                if (capacity.isRendezvous()) {
                    assertFalse(sent, "iteration " + i + ": trySend succeeded but the select was interrupted");
                } else {
                    assertTrue(sent);
                    assertEquals(v, a.tryReceive(), "iteration " + i + ": an interrupted select consumed the value");
                }
            } else {
                completed++;
                assertTrue(sent, "iteration " + i + ": the select got " + outcome + " but nothing was sent");
                assertEquals(v, outcome, "iteration " + i);
                assertTrue(selector.interruptedAtEnd(), "iteration " + i + ": the select completed and lost the interrupt");
            }
            assertNull(a.tryReceive(), "iteration " + i + ": value left over");
            assertNull(b.tryReceive(), "iteration " + i);
        }
        assertEquals(iterations, interrupted + completed);
        System.out.printf("select interrupt race (receive) %s/%s: %d interrupted, %d completed%n", capacity, kind,
                interrupted, completed);
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    /**
     * A select over a receive clause and a send clause (on a full or rendezvous channel) is
     * interrupted while a receiver takes from the send clause's channel. Exactly one of:
     * InterruptedException and the select's value is never received, or the select returned, its
     * value is received exactly once, and the interrupt flag is set.
     */
    @ParameterizedTest
    @MethodSource("raceConfigurations")
    void sendSelectRacingInterruptAndReceive(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> in = capacity.newChannel();
        Channel<Integer> out = capacity.newChannel();
        SplittableRandom random = new SplittableRandom(23);
        int iterations = kind == ThreadKind.VIRTUAL ? 600 : 200;
        int interrupted = 0;
        int completed = 0;
        for (int i = 0; i < iterations; i++) {
            int v = 1000 + i;
            fill(out, capacity);
            AtomicBoolean interruptSent = new AtomicBoolean();
            boolean unbiased = i % 3 == 2;
            Forked<Object> selector = Forked.start(kind, () -> {
                Object r;
                try {
                    r = unbiased ? Select.selectUnbiased(out.sendClause(v, () -> "sent"), in.receiveClause(x -> "received"))
                            : Select.select(in.receiveClause(x -> "received"), out.sendClause(v, () -> "sent"));
                } catch (InterruptedException e) {
                    return INTERRUPTED;
                }
                while (!interruptSent.get()) {
                    Thread.yield();
                }
                return r;
            });
            if (random.nextInt(2) == 0) {
                selector.awaitBlocked();
            }
            spin(random.nextInt(3_000));
            selector.interrupt();
            interruptSent.set(true);
            Integer first = out.tryReceive();
            Object outcome = selector.value();
            List<Integer> got = new ArrayList<>();
            if (first != null) {
                got.add(first);
            }
            for (Integer x = out.tryReceive(); x != null; x = out.tryReceive()) {
                got.add(x);
            }
            List<Integer> expected = new ArrayList<>();
            for (int k = 0; k < capacity.buffer(); k++) {
                expected.add(k);
            }
            if (outcome == INTERRUPTED) {
                interrupted++;
                assertFalse(selector.interruptedAtEnd());
            } else {
                completed++;
                assertEquals("sent", outcome, "iteration " + i);
                assertTrue(selector.interruptedAtEnd(), "iteration " + i + ": the select completed and lost the interrupt");
                expected.add(v);
            }
            assertEquals(expected, got, "iteration " + i + " (" + outcome + ")");
        }
        assertEquals(iterations, interrupted + completed);
        System.out.printf("select interrupt race (send) %s/%s: %d interrupted, %d completed%n", capacity, kind,
                interrupted, completed);
        assertFresh(in, capacity, "in");
        assertFresh(out, capacity, "out");
    }

    /**
     * Selecting producers and consumers over two channels, interrupted at random while values
     * flow. An interrupted select did nothing, so it is simply repeated. Every value is received
     * exactly once.
     */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void randomInterruptsUnderLoadLoseAndDuplicateNothing(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        int producers = 3;
        int consumers = 3;
        int perProducer = kind == ThreadKind.VIRTUAL ? 2_000 : 1_000;
        int total = producers * perProducer;
        AtomicIntegerArray received = new AtomicIntegerArray(total);
        AtomicInteger receivedCount = new AtomicInteger();
        AtomicInteger interruptsSeen = new AtomicInteger();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Forked<Void>> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int base = p * perProducer;
            boolean plainToo = p == 0;
            threads.add(Forked.run(kind, () -> {
                for (int i = 0; i < perProducer; i++) {
                    int v = base + i;
                    while (true) {
                        try {
                            if (plainToo && i % 2 == 0) {
                                a.send(v);
                            } else if (i % 3 == 0) {
                                Select.selectUnbiased(a.sendClause(v), b.sendClause(v));
                            } else {
                                Select.select(b.sendClause(v), a.sendClause(v));
                            }
                            break;
                        } catch (InterruptedException e) {
                            interruptsSeen.incrementAndGet(); // not sent: send it again
                        }
                    }
                }
            }));
        }
        for (int c = 0; c < consumers; c++) {
            int consumer = c;
            threads.add(Forked.run(kind, () -> {
                boolean aOpen = true;
                boolean bOpen = true;
                while (aOpen || bOpen) {
                    Object r;
                    try {
                        if (aOpen && bOpen) {
                            r = consumer % 2 == 0 ? Select.selectOrClosed(a.receiveClause(), b.receiveClause())
                                    : Select.selectUnbiasedOrClosed(b.receiveClause(), a.receiveClause());
                        } else {
                            r = (aOpen ? a : b).receiveOrClosed();
                        }
                    } catch (InterruptedException e) {
                        interruptsSeen.incrementAndGet();
                        continue;
                    }
                    if (r instanceof ChannelDone d) {
                        if (d.channel() == a) {
                            aOpen = false;
                        } else {
                            bOpen = false;
                        }
                        continue;
                    }
                    int v = (Integer) r;
                    if (received.getAndIncrement(v) != 0) {
                        problems.add("value " + v + " received twice");
                    }
                    receivedCount.incrementAndGet();
                    Thread.interrupted(); // an interrupt that arrived after completion: drop it
                }
            }));
        }
        SplittableRandom random = new SplittableRandom(1);
        long deadline = System.nanoTime() + LONG.toNanos();
        while (receivedCount.get() < total && problems.isEmpty()) {
            threads.get(random.nextInt(threads.size())).interrupt();
            spin(random.nextInt(3_000));
            if (System.nanoTime() > deadline) {
                fail("stuck at " + receivedCount.get() + " of " + total + "\na=" + a + "\nb=" + b);
            }
        }
        for (int p = 0; p < producers; p++) {
            threads.get(p).join();
        }
        a.done();
        b.done();
        for (Forked<Void> t : threads) {
            Throwable failure = t.failure();
            if (failure != null) {
                throw new AssertionError(failure);
            }
        }
        assertTrue(problems.isEmpty(), problems.toString());
        for (int v = 0; v < total; v++) {
            assertEquals(1, received.get(v), "value " + v);
        }
        assertEquals(new ChannelDone(a), a.tryReceiveOrClosed());
        assertEquals(new ChannelDone(b), b.tryReceiveOrClosed());
        System.out.printf("select random interrupts %s/%s: %d interrupts seen%n", capacity, kind, interruptsSeen.get());
    }
}
