package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.channels.Channel;
import dev.weft.channels.StressHooks;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regressions, jox #47 ("cleanup send segments when closed": segments full of interrupted cells
 * stayed reachable after close) and jox #48 ("potential memory leak when the channel only sees
 * interrupted sends": with no receiver ever advancing, segments of interrupted sends were never
 * unlinked). Runs with 1-cell segments (surefire sets {@code weft.segmentSize=1}), so every
 * interrupted waiter is a segment to remove.
 */
class Jox47And48SegmentCleanupTest {
    static final int BOUND = 4;

    static void interruptAll(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            Threads.awaitParked(t);
        }
        threads.forEach(Thread::interrupt);
        Threads.join("interrupted waiters", threads.toArray(new Thread[0]));
    }

    /** jox #48: only interrupted sends, never a receive. */
    @Test
    void onlyInterruptedSendsLeaveFewSegments() throws Exception {
        for (int capacity : new int[] {0, 1}) {
            Channel<Integer> ch = Channel.newBufferedChannel(capacity);
            for (int i = 0; i < capacity; i++) {
                ch.trySend(-1);
            }
            for (int batch = 0; batch < 20; batch++) {
                List<Thread> senders = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    int v = i;
                    senders.add(Thread.ofVirtual().start(() -> {
                        try {
                            ch.send(v);
                        } catch (InterruptedException expected) {
                            // withdrawn
                        }
                    }));
                }
                interruptAll(senders);
                int reach = StressHooks.reachableSegments(ch);
                assertTrue(reach <= BOUND, "capacity " + capacity + ", after " + (batch + 1) * 100
                        + " interrupted sends: " + reach + " segments reachable\n" + ch);
            }
        }
    }

    /** jox #47: interrupted sends, then interrupted receives, then close. */
    @Test
    void closeAfterInterruptedWaitersLeavesFewSegments() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        for (boolean send : new boolean[] {true, false}) {
            List<Thread> waiters = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                waiters.add(Thread.ofVirtual().start(() -> {
                    try {
                        if (send) {
                            ch.send(1);
                        } else {
                            ch.receive();
                        }
                        throw new AssertionError("completed without a partner");
                    } catch (InterruptedException expected) {
                        // withdrawn
                    }
                }));
            }
            interruptAll(waiters);
            int reach = StressHooks.reachableSegments(ch);
            assertTrue(reach <= BOUND, "after 500 interrupted " + (send ? "sends" : "receives") + ": " + reach
                    + " segments reachable\n" + ch);
        }
        ch.done();
        int reach = StressHooks.reachableSegments(ch);
        assertTrue(reach <= BOUND, "after close: " + reach + " segments reachable\n" + ch);
    }

    /**
     * The same bug class for completed operations: segments that both counters have passed must
     * become unreachable, or a long-lived channel grows without bound (found on rendezvous and
     * unlimited channels, whose buffer-end segment pointer stays at the first segment).
     *
     * <p>Known bug (excluded by default; {@code -Dstress.excludedGroups=none} runs it). Repro:
     * {@code dev.weft.stress.repro.CompletedSegmentsLeak}.
     */
    @Tag("known-bug")
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 16, -1})
    void completedOperationsLeaveFewSegments(int capacity) throws Exception {
        Channel<Integer> ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
        Thread sender = Threads.start(() -> {
            for (int i = 0; i < 20_000; i++) {
                ch.send(i);
            }
        });
        for (int i = 0; i < 20_000; i++) {
            ch.receive();
        }
        Threads.join(ch, sender);
        int reach = StressHooks.reachableSegments(ch);
        assertTrue(reach <= BOUND, "capacity " + capacity + ": after 20,000 completed send/receive pairs, " + reach
                + " segments reachable (segment size " + StressHooks.segmentSize() + ")");
    }
}
