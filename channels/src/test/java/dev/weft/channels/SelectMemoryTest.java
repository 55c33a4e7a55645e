package dev.weft.channels;

import static dev.weft.channels.SelectChecks.assertFresh;
import static dev.weft.channels.SelectChecks.drainFilled;
import static dev.weft.channels.SelectChecks.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.channels.internal.SegmentWatch;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Withdrawn select registrations do not accumulate: in a million selects in which one channel
 * always wins, the losing channel (where every select registered and then withdrew) keeps only a
 * handful of segments reachable (4, plus those a buffer spans). Reachability is checked the way
 * the GC sees it ({@link SegmentWatch}: weak references to the segments the channels' pointers
 * referenced must clear after GC), sampled every {@link #SAMPLE_EVERY} selects and checked every
 * {@link #CHECK_EVERY} and at the end; {@code reachableSegments()} only appears in failure
 * messages.
 *
 * <p>The number of selects is {@code -Dweft.test.withdrawnWaiters} (default 1,000,000), like the
 * channel memory tests.
 */
@Tag("memory")
@Timeout(120)
class SelectMemoryTest {
    static final int SELECTS = Integer.getInteger("weft.test.withdrawnWaiters", 1_000_000);
    static final int SAMPLE_EVERY = 1_000;
    static final int CHECK_EVERY = Math.max(SELECTS / 4, SAMPLE_EVERY);

    /** Samples every {@link #SAMPLE_EVERY} selects and GC-checks every {@link #CHECK_EVERY}. */
    private static void step(int i, SegmentWatch... watches) {
        for (SegmentWatch w : watches) {
            if (i % CHECK_EVERY == 0) {
                w.assertCollected("after " + i + " selects");
            } else if (i % SAMPLE_EVERY == 0) {
                w.sample();
            }
        }
    }

    private static void assertCollected(String when, SegmentWatch... watches) {
        for (SegmentWatch w : watches) {
            w.assertCollected(when);
        }
    }

    /**
     * The losing clause comes first, so every select registers a receiver on it before the
     * winning clause takes a buffered value.
     */
    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "ONE", "SIXTEEN", "UNLIMITED"})
    void withdrawnReceiveRegistrationsOnTheLosingChannel(Capacity capacity) throws Exception {
        Channel<Integer> loser = capacity.newChannel();
        Channel<Integer> winner = Channel.newBufferedChannel(1);
        SegmentWatch loserWatch = new SegmentWatch(loser, "losing channel");
        SegmentWatch winnerWatch = new SegmentWatch(winner, "winning channel");
        SelectClause<Integer> lose = loser.receiveClause(v -> -1);
        SelectClause<Integer> win = winner.receiveClause();
        for (int i = 1; i <= SELECTS; i++) {
            winner.trySend(i);
            int r = Select.select(lose, win);
            if (r != i) {
                fail("select " + i + " returned " + r);
            }
            step(i, loserWatch, winnerWatch);
        }
        assertCollected("at the end", loserWatch, winnerWatch);
        assertFresh(loser, capacity, "losing channel");
    }

    /** Send registrations on a full (or rendezvous) losing channel, withdrawn each time. */
    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "ONE", "SIXTEEN"})
    void withdrawnSendRegistrationsOnTheLosingChannel(Capacity capacity) throws Exception {
        Channel<Integer> loser = capacity.newChannel();
        SegmentWatch loserWatch = new SegmentWatch(loser, "losing channel");
        fill(loser, capacity);
        Channel<Integer> winner = Channel.newUnlimitedChannel();
        SegmentWatch winnerWatch = new SegmentWatch(winner, "winning channel");
        SelectClause<Integer> lose = loser.sendClause(-1, () -> -1);
        SelectClause<Integer> win = winner.receiveClause();
        for (int i = 1; i <= SELECTS; i++) {
            winner.trySend(i);
            int r = Select.select(lose, win);
            if (r != i) {
                fail("select " + i + " returned " + r);
            }
            step(i, loserWatch, winnerWatch);
        }
        assertCollected("at the end", loserWatch, winnerWatch);
        drainFilled(loser, capacity);
        loserWatch.assertCollected("drained");
        assertFresh(loser, capacity, "losing channel");
    }

    /** Unbiased selects: the losing channel is registered in about half of them. */
    @Test
    void unbiasedSelectsWithOneWinningChannel() throws Exception {
        Channel<Integer> loser = Channel.newRendezvousChannel();
        Channel<Integer> other = Capacity.TWO.newChannel();
        Channel<Integer> winner = Channel.newUnlimitedChannel();
        SegmentWatch[] watches = {
            new SegmentWatch(loser, "losing channel"), new SegmentWatch(other, "other losing channel"),
            new SegmentWatch(winner, "winning channel")
        };
        for (int i = 1; i <= SELECTS / 2; i++) {
            winner.trySend(i);
            int r = Select.selectUnbiased(loser.receiveClause(), winner.receiveClause(), other.receiveClause());
            if (r != i) {
                fail("select " + i + " returned " + r);
            }
            step(i, watches);
        }
        assertCollected("at the end", watches);
        assertFresh(loser, Capacity.RENDEZVOUS, "losing channel");
        assertFresh(other, Capacity.TWO, "other losing channel");
    }

    /**
     * Selects that park before a partner completes them on the winning channel (a rendezvous with
     * another thread): their registrations on the losing channel were live while they waited.
     */
    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "SIXTEEN"})
    void parkedSelectsCompletedOnTheOtherChannel(Capacity capacity) throws Exception {
        Channel<Integer> loser = capacity.newChannel();
        Channel<Integer> winner = Channel.newRendezvousChannel();
        SegmentWatch loserWatch = new SegmentWatch(loser, "losing channel");
        SegmentWatch winnerWatch = new SegmentWatch(winner, "winning channel");
        int n = SELECTS / 10;
        Forked<Void> partner = Forked.run(ThreadKind.PLATFORM, () -> {
            for (int i = 1; i <= n; i++) {
                winner.send(i);
            }
        });
        for (int i = 1; i <= n; i++) {
            int r = Select.select(loser.receiveClause(v -> -1), winner.receiveClause());
            if (r != i) {
                fail("select " + i + " returned " + r);
            }
            if (i % SAMPLE_EVERY == 0) {
                loserWatch.sample();
                winnerWatch.sample();
            }
        }
        partner.get(Duration.ofSeconds(60));
        assertCollected("at the end", loserWatch, winnerWatch);
        assertFresh(loser, capacity, "losing channel");
    }

    /** Timed-out and interrupted selects withdraw every registration. */
    @Test
    void timedOutAndInterruptedSelects() throws Exception {
        Channel<Integer> a = Channel.newRendezvousChannel();
        Channel<Integer> b = Channel.newBufferedChannel(1);
        SegmentWatch[] watches = {new SegmentWatch(a, "a"), new SegmentWatch(b, "b")};
        b.send(0);
        Forked.run(ThreadKind.VIRTUAL, () -> {
            int n = SELECTS / 5;
            for (int i = 1; i <= n; i++) {
                if (i % 2 == 0) {
                    try {
                        Select.selectWithin(Duration.ofNanos(1), a.receiveClause(), b.sendClause(i));
                        fail("select " + i + " completed");
                    } catch (TimeoutException expected) {
                        // nothing happened
                    }
                } else {
                    Thread.currentThread().interrupt();
                    try {
                        Select.select(b.sendClause(i), a.receiveClause());
                        fail("select " + i + " completed");
                    } catch (InterruptedException expected) {
                        // nothing happened
                    }
                }
                step(i, watches);
            }
        }).get(Duration.ofSeconds(100));
        assertCollected("at the end", watches);
        assertEquals(0, b.receive());
        assertFresh(a, Capacity.RENDEZVOUS, "a");
        assertFresh(b, Capacity.ONE, "b");
    }
}
