package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.channels.Channel;
import dev.weft.channels.StressHooks;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

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

    /** jox #47: interrupted sends and receives, then close. */
    @Test
    void closeAfterInterruptedWaitersLeavesFewSegments() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            boolean send = i % 3 != 0;
            waiters.add(Thread.ofVirtual().start(() -> {
                try {
                    if (send) {
                        ch.send(1);
                    } else {
                        ch.receive();
                    }
                } catch (InterruptedException expected) {
                    // withdrawn
                } catch (RuntimeException closed) {
                    // not expected here, but the reach check below is what this test is about
                }
            }));
        }
        interruptAll(waiters);
        ch.done();
        int reach = StressHooks.reachableSegments(ch);
        assertTrue(reach <= BOUND, "after close: " + reach + " segments reachable\n" + ch);
    }
}
