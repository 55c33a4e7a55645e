package dev.weft.stress.regression;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import dev.weft.channels.internal.SegmentWatch;
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
 *
 * <p>Reachability is checked the way the GC sees it: a {@link SegmentWatch} keeps weak references
 * to the segments the channel's pointers referenced, and they must clear after GC (the segment
 * count along {@code next} from the pointers only appears in failure messages; it misses segments
 * kept through {@code prev}, issue 8 Bug 1).
 */
class Jox47And48SegmentCleanupTest {

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
            SegmentWatch watch = new SegmentWatch(ch, "capacity " + capacity);
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
                watch.sample();
                interruptAll(senders);
                watch.sample();
                if (batch % 5 == 4) {
                    watch.assertCollected("after " + (batch + 1) * 100 + " interrupted sends");
                }
            }
        }
    }

    /**
     * Same bug class on buffered channels: interrupted receivers (plain and select) must leave
     * their segments removable. Was a bug in channels 3664d08 (fixed in a04dc57): their cells stayed
     * INTERRUPTED_RCV with {@code cleaned=0}, so 1,000 withdrawn receivers on a 1-cell-segment
     * buffered channel kept ~1,000 segments reachable.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void interruptedReceiversOnABufferedChannelLeaveFewSegments(int capacity) throws Exception {
        Channel<Integer> ch = Channel.newBufferedChannel(capacity);
        Channel<Integer> other = Channel.newRendezvousChannel();
        SegmentWatch watch = new SegmentWatch(ch, "capacity " + capacity);
        SegmentWatch otherWatch = new SegmentWatch(other, "other channel");
        for (boolean select : new boolean[] {false, true}) {
            List<Thread> waiters = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                waiters.add(Thread.ofVirtual().start(() -> {
                    try {
                        if (select) {
                            Select.select(other.receiveClause(), ch.receiveClause());
                        } else {
                            ch.receive();
                        }
                        throw new AssertionError("completed on an empty channel");
                    } catch (InterruptedException expected) {
                        // withdrawn
                    }
                }));
            }
            watch.sample();
            otherWatch.sample();
            interruptAll(waiters);
            String when = "after 1,000 interrupted " + (select ? "selects" : "receivers");
            watch.assertCollected(when);
            otherWatch.assertCollected(when);
        }
    }

    /** jox #47: interrupted sends, then interrupted receives, then close. */
    @Test
    void closeAfterInterruptedWaitersLeavesFewSegments() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        SegmentWatch watch = new SegmentWatch(ch, "rendezvous channel");
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
            watch.sample();
            interruptAll(waiters);
            watch.assertCollected("after 500 interrupted " + (send ? "sends" : "receives"));
        }
        ch.done();
        watch.assertCollected("after close");
    }

    /**
     * The same bug class for completed operations: segments that both counters have passed must
     * become unreachable, or a long-lived channel grows without bound (found on rendezvous and
     * unlimited channels, whose buffer-end segment pointer stayed at the first segment; fixed in
     * channels b4d8d4c).
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 16, -1})
    void completedOperationsLeaveFewSegments(int capacity) throws Exception {
        Channel<Integer> ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
        SegmentWatch watch = new SegmentWatch(ch, "capacity " + capacity);
        Thread sender = Threads.start(() -> {
            for (int i = 0; i < 20_000; i++) {
                ch.send(i);
            }
        });
        for (int i = 0; i < 20_000; i++) {
            ch.receive();
            if (i % 100 == 0) {
                watch.sample();
            }
        }
        Threads.join(ch, sender);
        watch.assertCollected("after 20,000 completed send/receive pairs");
    }
}
