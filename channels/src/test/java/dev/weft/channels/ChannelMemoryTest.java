package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.channels.internal.SegmentWatch;
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
 * interrupted) waiters on an otherwise idle channel, and completed exchanges, leave only a handful
 * of segments reachable, whatever the segment size. Reachability is checked the way the GC sees
 * it ({@link SegmentWatch}: weak references to the segments the channel's pointers referenced, which
 * must clear after GC), sampled every {@link #SAMPLE_EVERY} operations and checked every {@link
 * #CHECK_EVERY} and at the end. {@code ch.reachableSegments()} only appears in failure messages.
 *
 * <p>The number of waiters is {@code -Dweft.test.withdrawnWaiters} (default 1,000,000).
 */
@Tag("memory")
@Timeout(120)
class ChannelMemoryTest {
    static final int WAITERS = Integer.getInteger("weft.test.withdrawnWaiters", 1_000_000);
    /** How many virtual threads wait at once in the "truly interrupted" variants. */
    static final int BATCH = 1_000;
    /** Every this many operations the watch takes weak references to the pointer segments. */
    static final int SAMPLE_EVERY = 1_000;
    /** Every this many operations the GC runs and the watched segments must be collected. */
    static final int CHECK_EVERY = Math.max(WAITERS / 4, SAMPLE_EVERY);

    /** Samples every {@link #SAMPLE_EVERY} operations, GC-checks every {@link #CHECK_EVERY}. */
    private static void step(SegmentWatch watch, int i, String what) {
        if (i % CHECK_EVERY == 0) {
            watch.assertCollected("after " + i + " " + what);
        } else if (i % SAMPLE_EVERY == 0) {
            watch.sample();
        }
    }

    /** Segments {@code liveWaiters} waiters parked in consecutive cells may keep. */
    private static int segmentsFor(int liveWaiters) {
        return (liveWaiters + Channel.segmentSize() - 1) / Channel.segmentSize() + 1;
    }

    /** After the run the channel still works, and none of the withdrawn waiters comes back. */
    static void assertStillWorks(Channel<Integer> ch, Capacity capacity) throws Exception {
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

    /**
     * The watch is a real measure: segments holding buffered values survive the GC, and are
     * collected once the values are received (so is reachableSegments(), the diagnostic).
     */
    @Test
    void watchedSegmentsSurviveWhileTheyHoldValuesAndAreCollectedAfterwards() throws Exception {
        Channel<Integer> ch = Channel.newUnlimitedChannel();
        SegmentWatch watch = new SegmentWatch(ch, "unlimited channel");
        int n = 20 * Channel.segmentSize();
        for (int i = 0; i < n; i++) {
            ch.send(i);
            watch.sample();
        }
        int alive = watch.aliveAfterGc();
        assertTrue(watch.watched() >= 20 && alive == watch.watched(),
                alive + " of " + watch.watched() + " watched segments alive with " + n + " buffered values");
        int full = ch.reachableSegments();
        assertTrue(full >= 20, full + " segments reachable with " + n + " buffered values");
        for (int i = 0; i < n; i++) {
            assertEquals(i, ch.receive());
            watch.sample();
        }
        watch.assertCollected("after draining");
        assertTrue(ch.reachableSegments() <= ch.idleSegmentBound(), ch.reachableSegments() + " segments reachable");
    }

    /**
     * Values that went through the channel must not keep their segments reachable: after 200,000
     * completed exchanges an empty channel holds as few segments as a new one.
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void completedExchangesDoNotAccumulateSegments(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        SegmentWatch watch = new SegmentWatch(ch, capacity + " channel");
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
                    if (i % SAMPLE_EVERY == 0) {
                        watch.sample();
                    }
                }
                producer.get();
            } else {
                for (int i = 0; i < chunk; i++) {
                    ch.send(i);
                    assertEquals(i, ch.receive());
                    if (i % SAMPLE_EVERY == 0) {
                        watch.sample();
                    }
                }
            }
            if ((done + chunk) % 100_000 == 0) {
                watch.assertCollected("after " + (done + chunk) + " values went through");
            }
        }
        assertStillWorks(ch, capacity);
    }

    // ---------------------------------------------------------------- timed out

    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "SIXTEEN", "UNLIMITED"})
    void timedOutReceiversOnAnIdleChannel(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        SegmentWatch watch = new SegmentWatch(ch, capacity + " channel");
        Duration timeout = Duration.ofNanos(1);
        for (int i = 1; i <= WAITERS; i++) {
            if (ch.tryReceive(timeout) != null) {
                fail("received from an idle channel");
            }
            step(watch, i, "timed-out receives");
        }
        watch.assertCollected("at the end");
        assertStillWorks(ch, capacity);
    }

    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "ONE"})
    void timedOutSendersOnAnIdleChannel(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        SegmentWatch watch = new SegmentWatch(ch, capacity + " channel");
        for (int k = 0; k < capacity.buffer(); k++) {
            ch.send(k);
        }
        Duration timeout = Duration.ofNanos(1);
        for (int i = 1; i <= WAITERS; i++) {
            if (ch.trySend(-i, timeout)) {
                fail("sent to a channel without receivers and room");
            }
            step(watch, i, "timed-out sends");
        }
        watch.assertCollected("at the end");
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
        SegmentWatch watch = new SegmentWatch(ch, "rendezvous channel");
        Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int i = 1; i <= WAITERS; i++) {
                Thread.currentThread().interrupt();
                try {
                    ch.receive();
                    fail("received from an idle channel");
                } catch (InterruptedException expected) {
                    // the flag is cleared
                }
                step(watch, i, "interrupted receives");
            }
            assertFalse(Thread.currentThread().isInterrupted());
        }).get(Duration.ofSeconds(100));
        watch.assertCollected("at the end");
        assertStillWorks(ch, Capacity.RENDEZVOUS);
    }

    @Test
    void selfInterruptedSendersOnAnIdleRendezvousChannel() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        SegmentWatch watch = new SegmentWatch(ch, "rendezvous channel");
        Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int i = 1; i <= WAITERS; i++) {
                Thread.currentThread().interrupt();
                try {
                    ch.send(i);
                    fail("sent without a receiver");
                } catch (InterruptedException expected) {
                    // the flag is cleared
                }
                step(watch, i, "interrupted sends");
            }
        }).get(Duration.ofSeconds(100));
        watch.assertCollected("at the end");
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
        SegmentWatch watch = new SegmentWatch(ch, "channel of capacity " + ch.capacity());
        int checkEveryBatches = Math.max(CHECK_EVERY / BATCH, 1);
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
            watch.sample();
            if ((done / BATCH) % checkEveryBatches == 0) {
                watch.assertCollected("with " + BATCH + " parked " + what, segmentsFor(BATCH));
            }
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
            watch.sample();
            if ((done / BATCH + 1) % checkEveryBatches == 0) {
                watch.assertCollected("after " + (done + BATCH) + " interrupted " + what);
            }
        }
        watch.assertCollected("after " + total + " interrupted " + what);
    }
}
