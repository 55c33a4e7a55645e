package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.channels.internal.SegmentWatch;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Receivers (and senders) that give up their cells while others move the channel's pointers, measured
 * the way the GC sees it. Two platform threads call {@code tryReceive} with a timeout of 1 ns on
 * an idle channel, so each one installs itself in a cell and withdraws from it (the segment counts
 * a cleaned cell) while the other one moves the receive pointer onto and off the same segments
 * (the segment counts pointers, in the same word). Nothing is sent meanwhile, so the send pointer
 * stays on the first segment and every segment after it is reachable from it until it is unlinked
 * (a sender would walk over the withdrawn cells and take the segments with it). The same with
 * senders on a channel without room, whose send pointer moves while the receive pointer stays.
 *
 * <p>Every withdrawn segment between the pointers must be unlinked. A lost update of that word
 * (stop 34's mutation m06: {@code decPointers} as a read and a write) keeps a fully withdrawn
 * segment linked for good, so afterwards the class histogram of the live heap (a full GC) holds
 * more segments than an idle channel may keep. {@link SegmentCountsRaceTest} checks the word
 * itself in lockstep; this test checks what a user would see, without asking the channel.
 */
@Tag("memory")
@Timeout(120)
class RacingWithdrawalsMemoryTest {
    static final int PER_THREAD = Integer.getInteger("weft.test.racingWithdrawals", 400_000);
    static final String SEGMENT = Segment.class.getName();

    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "SIXTEEN", "UNLIMITED"})
    void withdrawnSegmentsAreUnlinkedWhileOtherReceiversMoveThePointers(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        race(ch, capacity + " channel, receivers", ch::lvReceiverCount, () -> {
            if (ch.tryReceive(TIMEOUT) != null) {
                throw new AssertionError("received from an idle channel");
            }
        });
        ChannelMemoryTest.assertStillWorks(ch, capacity);
    }

    /** The same for senders on a channel without room: the send pointer moves, the receive one stays. */
    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "ONE"})
    void withdrawnSegmentsAreUnlinkedWhileOtherSendersMoveThePointers(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        SelectChecks.fill(ch, capacity);
        race(ch, capacity + " channel, senders", ch::lvSenders, () -> {
            if (ch.trySend(-2, TIMEOUT)) {
                throw new AssertionError("sent to a channel without receivers and room");
            }
        });
        SelectChecks.drainFilled(ch, capacity);
        ChannelMemoryTest.assertStillWorks(ch, capacity);
    }

    private static final Duration TIMEOUT = Duration.ofNanos(1);

    private interface Op {
        void run() throws InterruptedException;
    }

    /**
     * Two platform threads run {@code op} {@link #PER_THREAD} times each while a third one samples
     * the pointers' segments now and then; then the live heap may hold no more segments than before
     * plus what an idle channel keeps, and every watched segment must be collectable. {@code
     * claimed} (the counter of the side that withdraws) must show that every operation claimed a
     * cell, so that the race did happen (a timeout that never installed would pass vacuously).
     */
    private static void race(Channel<Integer> ch, String name, LongSupplier claimed, Op op) throws Exception {
        long claimedBefore = claimed.getAsLong();
        HeapHistogram before = HeapHistogram.take();
        assertNotNull(before, "this JVM cannot take a class histogram");
        SegmentWatch watch = new SegmentWatch(ch, name);
        AtomicBoolean running = new AtomicBoolean(true);
        FirstRaces.Workers workers = new FirstRaces.Workers(ThreadKind.PLATFORM, 2, t -> {
            for (int i = 1; i <= PER_THREAD; i++) {
                op.run();
            }
        });
        Thread sampler = Thread.ofPlatform().start(() -> {
            while (running.get()) {
                watch.sample();
                LockSupport.parkNanos(20_000L); // leaves the cores to the two workers
            }
        });
        try {
            workers.join(Duration.ofSeconds(100), ch::dumpCells);
        } finally {
            running.set(false);
            sampler.join();
        }
        assertTrue(claimed.getAsLong() - claimedBefore >= 2L * PER_THREAD, name + ": only "
                + (claimed.getAsLong() - claimedBefore) + " cells claimed by " + 2 * PER_THREAD + " operations");
        HeapHistogram after = HeapHistogram.take();
        long segments = after.instancesOf(SEGMENT) - before.instancesOf(SEGMENT);
        int bound = ch.idleSegmentBound();
        assertTrue(segments <= bound, name + ", after " + 2 * PER_THREAD + " racing withdrawals: "
                + segments + " more segments alive after a full GC than before, at most " + bound
                + " expected (segment size " + Channel.segmentSize() + "; watched: " + watch.watched()
                + ", reachable along next: " + ch.reachableSegments() + ")");
        watch.assertCollected("after " + 2 * PER_THREAD + " racing withdrawals");
    }
}
