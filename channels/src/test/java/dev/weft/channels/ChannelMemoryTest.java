package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Memory stays bounded by the number of live waiters: a million withdrawn (timed-out or
 * interrupted) waiters on an otherwise idle channel leave only a handful of segments reachable,
 * whatever the segment size. {@code ch.reachableSegments()} is sampled during and after each run.
 *
 * <p>The number of waiters is {@code -Dweft.test.withdrawnWaiters} (default 1,000,000).
 */
@Tag("memory")
@Timeout(120)
class ChannelMemoryTest {
    /** Segments an idle channel may keep: those of the sender, receiver and buffer-end positions, plus one. */
    static final int IDLE_BOUND = 4;
    static final int WAITERS = Integer.getInteger("weft.test.withdrawnWaiters", 1_000_000);
    /** How many virtual threads wait at once in the "truly interrupted" variants. */
    static final int BATCH = 1_000;
    static final int SAMPLE_EVERY = 10_000;

    /**
     * An idle buffered channel also keeps the segments its buffer spans: the buffer end runs up to
     * {@code capacity} cells ahead of the receivers and marks the cells it passes.
     */
    static int idleBound(Channel<?> ch) {
        int size = Channel.segmentSize();
        return IDLE_BOUND + (Math.max(ch.capacity(), 0) + size - 1) / size;
    }

    private static void assertIdle(Channel<?> ch, String when) {
        int segments = ch.reachableSegments();
        int bound = idleBound(ch);
        if (segments > bound) {
            fail(when + ": " + segments + " segments reachable (segment size " + Channel.segmentSize()
                    + "), expected at most " + bound);
        }
    }

    private static void assertAtMost(Channel<?> ch, int liveWaiters, String when) {
        int bound = idleBound(ch) + (liveWaiters + Channel.segmentSize() - 1) / Channel.segmentSize();
        int segments = ch.reachableSegments();
        if (segments > bound) {
            fail(when + ": " + segments + " segments reachable with " + liveWaiters
                    + " live waiters (segment size " + Channel.segmentSize() + "), expected at most " + bound);
        }
    }

    /** After the run the channel still works, and none of the withdrawn waiters comes back. */
    private static void assertStillWorks(Channel<Integer> ch, Capacity capacity) throws Exception {
        if (capacity.isRendezvous()) {
            assertFalse(ch.trySend(-5), "a withdrawn receiver took a value");
        } else {
            assertTrue(ch.trySend(-5));
            assertEquals(-5, ch.tryReceive(), "a withdrawn receiver took a value");
        }
        assertNull(ch.tryReceive(), "a withdrawn sender delivered a value");
        Forked<Integer> receiver = Forked.virtual(ch::receive).awaitBlocked();
        ch.send(-6);
        assertEquals(-6, receiver.get());
        assertNull(ch.tryReceive());
    }

    /** reachableSegments() is a real measure: it grows with values held, and shrinks again. */
    @Test
    void reachableSegmentsGrowsWithLiveCellsAndShrinksAfterwards() throws Exception {
        Channel<Integer> ch = Channel.newUnlimitedChannel();
        int n = 20 * Channel.segmentSize();
        for (int i = 0; i < n; i++) {
            ch.send(i);
        }
        int full = ch.reachableSegments();
        assertTrue(full >= 20, full + " segments reachable with " + n + " buffered values");
        for (int i = 0; i < n; i++) {
            assertEquals(i, ch.receive());
        }
        assertIdle(ch, "after draining");
    }

    /**
     * Values that went through the channel must not keep their segments reachable: after 200,000
     * completed exchanges an empty channel holds as few segments as a new one.
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void completedExchangesDoNotAccumulateSegments(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        int n = 200_000;
        int chunk = 20_000;
        for (int done = 0; done < n; done += chunk) {
            if (capacity.isRendezvous()) {
                Forked<Void> producer = Forked.run(ThreadKind.PLATFORM, () -> {
                    for (int i = 0; i < chunk; i++) {
                        ch.send(i);
                    }
                });
                for (int i = 0; i < chunk; i++) {
                    assertEquals(i, ch.receive());
                }
                producer.get();
            } else {
                for (int i = 0; i < chunk; i++) {
                    ch.send(i);
                    assertEquals(i, ch.receive());
                }
            }
            assertIdle(ch, "after " + (done + chunk) + " values went through");
        }
        assertStillWorks(ch, capacity);
    }

    // ---------------------------------------------------------------- timed out

    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "SIXTEEN", "UNLIMITED"})
    void timedOutReceiversOnAnIdleChannel(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Duration timeout = Duration.ofNanos(1);
        for (int i = 1; i <= WAITERS; i++) {
            if (ch.tryReceive(timeout) != null) {
                fail("received from an idle channel");
            }
            if (i % SAMPLE_EVERY == 0) {
                assertIdle(ch, "after " + i + " timed-out receives");
            }
        }
        assertIdle(ch, "at the end");
        assertStillWorks(ch, capacity);
    }

    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "ONE"})
    void timedOutSendersOnAnIdleChannel(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        for (int k = 0; k < capacity.buffer(); k++) {
            ch.send(k);
        }
        Duration timeout = Duration.ofNanos(1);
        for (int i = 1; i <= WAITERS; i++) {
            if (ch.trySend(-i, timeout)) {
                fail("sent to a channel without receivers and room");
            }
            if (i % SAMPLE_EVERY == 0) {
                assertIdle(ch, "after " + i + " timed-out sends");
            }
        }
        assertIdle(ch, "at the end");
        for (int k = 0; k < capacity.buffer(); k++) {
            assertEquals(k, ch.receive());
        }
        assertStillWorks(ch, capacity);
    }

    // ---------------------------------------------------------------- interrupted

    /**
     * One thread, interrupting itself before each receive: a waiter that withdraws at once. It
     * runs on a virtual thread, which spins less before parking than a platform thread.
     */
    @Test
    void selfInterruptedReceiversOnAnIdleRendezvousChannel() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int i = 1; i <= WAITERS; i++) {
                Thread.currentThread().interrupt();
                try {
                    ch.receive();
                    fail("received from an idle channel");
                } catch (InterruptedException expected) {
                    // the flag is cleared
                }
                if (i % SAMPLE_EVERY == 0) {
                    assertIdle(ch, "after " + i + " interrupted receives");
                }
            }
            assertFalse(Thread.currentThread().isInterrupted());
        }).get(Duration.ofSeconds(100));
        assertIdle(ch, "at the end");
        assertStillWorks(ch, Capacity.RENDEZVOUS);
    }

    @Test
    void selfInterruptedSendersOnAnIdleRendezvousChannel() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int i = 1; i <= WAITERS; i++) {
                Thread.currentThread().interrupt();
                try {
                    ch.send(i);
                    fail("sent without a receiver");
                } catch (InterruptedException expected) {
                    // the flag is cleared
                }
                if (i % SAMPLE_EVERY == 0) {
                    assertIdle(ch, "after " + i + " interrupted sends");
                }
            }
        }).get(Duration.ofSeconds(100));
        assertIdle(ch, "at the end");
        assertStillWorks(ch, Capacity.RENDEZVOUS);
    }

    /**
     * Batches of virtual threads park in receive (or send) for real, then are all interrupted.
     * One fifth of {@link #WAITERS} in total, which exercises parked-then-interrupted waiters,
     * interleaved in the cells, without taking minutes.
     */
    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "SIXTEEN", "UNLIMITED"})
    void parkedThenInterruptedReceivers(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        runInterruptedBatches(ch, WAITERS / 5, ch::receive, "receivers");
        assertStillWorks(ch, capacity);
    }

    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "TWO"})
    void parkedThenInterruptedSenders(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        for (int k = 0; k < capacity.buffer(); k++) {
            ch.send(k);
        }
        AtomicInteger next = new AtomicInteger();
        runInterruptedBatches(ch, WAITERS / 5, () -> {
            ch.send(-1 - next.getAndIncrement());
            return null;
        }, "senders");
        for (int k = 0; k < capacity.buffer(); k++) {
            assertEquals(k, ch.receive());
        }
        assertStillWorks(ch, capacity);
    }

    private interface Op {
        Object call() throws InterruptedException;
    }

    private static void runInterruptedBatches(Channel<Integer> ch, int total, Op op, String what) throws Exception {
        List<Thread> batch = new ArrayList<>(BATCH);
        List<Throwable> outcomes = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicInteger wrong = new AtomicInteger();
        for (int done = 0; done < total; done += BATCH) {
            batch.clear();
            outcomes.clear();
            for (int i = 0; i < BATCH; i++) {
                batch.add(Thread.ofVirtual().start(() -> {
                    try {
                        op.call();
                        wrong.incrementAndGet();
                    } catch (Throwable t) {
                        outcomes.add(t);
                    }
                }));
            }
            for (Thread t : batch) {
                Forked.awaitBlocked(t);
            }
            assertAtMost(ch, BATCH, "with " + BATCH + " parked " + what);
            for (Thread t : batch) {
                t.interrupt();
            }
            for (Thread t : batch) {
                if (!t.join(Forked.PATIENCE)) {
                    fail("interrupted thread did not finish: " + t + "\n" + Forked.stack(t));
                }
            }
            assertEquals(0, wrong.get(), "an operation on an idle channel completed");
            assertEquals(BATCH, outcomes.size());
            for (Throwable t : outcomes) {
                assertSame(InterruptedException.class, assertInstanceOf(InterruptedException.class, t).getClass());
            }
            assertIdle(ch, "after " + (done + BATCH) + " interrupted " + what);
        }
    }
}
