package dev.weft.channels;

import static dev.weft.channels.SelectChecks.assertFresh;
import static dev.weft.channels.SelectChecks.drainFilled;
import static dev.weft.channels.SelectChecks.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

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
 * handful of segments reachable (4, plus those a buffer spans), sampled during the run and checked
 * at the end.
 *
 * <p>The number of selects is {@code -Dweft.test.withdrawnWaiters} (default 1,000,000), like the
 * channel memory tests.
 */
@Tag("memory")
@Timeout(120)
class SelectMemoryTest {
    /** Segments an idle rendezvous or unlimited channel may keep (see ChannelMemoryTest). */
    static final int IDLE_BOUND = 4;
    static final int SELECTS = Integer.getInteger("weft.test.withdrawnWaiters", 1_000_000);
    static final int SAMPLE_EVERY = 10_000;

    /**
     * The segments an idle channel may keep (as in ChannelMemoryTest): those of the sender,
     * receiver and buffer-end positions, plus one, plus the segments a buffer spans (the buffer end
     * runs up to {@code capacity} cells ahead of the receivers; a full buffer spans as many).
     */
    static int idleBound(Channel<?> ch) {
        int size = Channel.segmentSize();
        return IDLE_BOUND + (Math.max(ch.capacity(), 0) + size - 1) / size;
    }

    private static void assertIdle(Channel<?> ch, String when) {
        int bound = idleBound(ch);
        int segments = ch.reachableSegments();
        if (segments > bound) {
            String dump = ch.toString();
            fail(when + ": " + segments + " segments reachable (segment size " + Channel.segmentSize()
                    + "), expected at most " + bound + "\n" + dump.substring(0, Math.min(dump.length(), 2_000)));
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
        SelectClause<Integer> lose = loser.receiveClause(v -> -1);
        SelectClause<Integer> win = winner.receiveClause();
        for (int i = 1; i <= SELECTS; i++) {
            winner.trySend(i);
            int r = Select.select(lose, win);
            if (r != i) {
                fail("select " + i + " returned " + r);
            }
            if (i % SAMPLE_EVERY == 0) {
                assertIdle(loser, "losing channel after " + i + " selects");
                assertIdle(winner, "winning channel after " + i + " selects");
            }
        }
        assertIdle(loser, "losing channel at the end");
        assertIdle(winner, "winning channel at the end");
        assertFresh(loser, capacity, "losing channel");
    }

    /** Send registrations on a full (or rendezvous) losing channel, withdrawn each time. */
    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "ONE", "SIXTEEN"})
    void withdrawnSendRegistrationsOnTheLosingChannel(Capacity capacity) throws Exception {
        Channel<Integer> loser = capacity.newChannel();
        fill(loser, capacity);
        Channel<Integer> winner = Channel.newUnlimitedChannel();
        SelectClause<Integer> lose = loser.sendClause(-1, () -> -1);
        SelectClause<Integer> win = winner.receiveClause();
        for (int i = 1; i <= SELECTS; i++) {
            winner.trySend(i);
            int r = Select.select(lose, win);
            if (r != i) {
                fail("select " + i + " returned " + r);
            }
            if (i % SAMPLE_EVERY == 0) {
                assertIdle(loser, "losing channel after " + i + " selects");
                assertIdle(winner, "winning channel after " + i + " selects");
            }
        }
        assertIdle(loser, "losing channel at the end");
        drainFilled(loser, capacity);
        assertIdle(loser, "losing channel, drained");
        assertFresh(loser, capacity, "losing channel");
    }

    /** Unbiased selects: the losing channel is registered in about half of them. */
    @Test
    void unbiasedSelectsWithOneWinningChannel() throws Exception {
        Channel<Integer> loser = Channel.newRendezvousChannel();
        Channel<Integer> other = Capacity.TWO.newChannel();
        Channel<Integer> winner = Channel.newUnlimitedChannel();
        for (int i = 1; i <= SELECTS / 2; i++) {
            winner.trySend(i);
            int r = Select.selectUnbiased(loser.receiveClause(), winner.receiveClause(), other.receiveClause());
            if (r != i) {
                fail("select " + i + " returned " + r);
            }
            if (i % SAMPLE_EVERY == 0) {
                assertIdle(loser, "losing channel after " + i + " selects");
                assertIdle(other, "other losing channel after " + i + " selects");
            }
        }
        assertIdle(loser, "at the end");
        assertIdle(other, "at the end");
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
                assertIdle(loser, "losing channel after " + i + " selects");
            }
        }
        partner.get(Duration.ofSeconds(60));
        assertIdle(loser, "at the end");
        assertIdle(winner, "winning channel at the end");
        assertFresh(loser, capacity, "losing channel");
    }

    /** Timed-out and interrupted selects withdraw every registration. */
    @Test
    void timedOutAndInterruptedSelects() throws Exception {
        Channel<Integer> a = Channel.newRendezvousChannel();
        Channel<Integer> b = Channel.newBufferedChannel(1);
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
                if (i % SAMPLE_EVERY == 0) {
                    assertIdle(a, "after " + i + " selects");
                    assertIdle(b, "after " + i + " selects");
                }
            }
        }).get(Duration.ofSeconds(100));
        assertIdle(a, "at the end");
        assertIdle(b, "at the end");
        assertEquals(0, b.receive());
        assertFresh(a, Capacity.RENDEZVOUS, "a");
        assertFresh(b, Capacity.ONE, "b");
    }
}
