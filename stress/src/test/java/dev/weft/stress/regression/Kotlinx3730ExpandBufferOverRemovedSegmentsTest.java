package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.channels.Channel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regression, kotlinx.coroutines #3730 ("fix non-linearizability in BufferedChannel.expandBuffer():
 * expandBuffer() was incorrectly processing removed segments"). With 1-cell segments (surefire
 * sets {@code weft.segmentSize=1}), interrupted or timed-out receivers leave cleaned cells whose
 * segments are removed; the buffer end must then move across the removed segments and still
 * provide exactly {@code capacity} slots.
 */
class Kotlinx3730ExpandBufferOverRemovedSegmentsTest {
    @Test
    void capacityIsExactAfterExpandingOverRemovedSegments() throws Exception {
        for (int capacity : new int[] {1, 2, 3}) {
            Channel<Integer> ch = Channel.newBufferedChannel(capacity);
            for (int round = 0; round < 200; round++) {
                int waiters = 1 + round % 5;
                List<Thread> receivers = new ArrayList<>();
                for (int i = 0; i < waiters; i++) {
                    receivers.add(Threads.start(() -> {
                        try {
                            ch.receive();
                            throw new AssertionError("received from an empty channel");
                        } catch (InterruptedException expected) {
                            // withdrawn
                        }
                    }));
                }
                for (Thread t : receivers) {
                    Threads.awaitParked(t);
                }
                receivers.forEach(Thread::interrupt);
                Threads.join(ch, receivers.toArray(new Thread[0]));
                // Timed-out receives too (withdrawn by their own deadline).
                assertNull(ch.tryReceive(Duration.ofNanos(1000)));
                for (int i = 0; i < capacity; i++) {
                    assertTrue(ch.trySend(i), "capacity " + capacity + ", round " + round + ": slot " + i + " missing: " + ch.dumpCells());
                }
                assertFalse(ch.trySend(99), "capacity " + capacity + ", round " + round + ": extra slot: " + ch.dumpCells());
                for (int i = 0; i < capacity; i++) {
                    assertEquals(i, ch.tryReceive());
                }
            }
        }
    }

    @Test
    void concurrentTimedReceivesAndTrySendsAccountExactly() throws Exception {
        Channel<Integer> ch = Channel.newBufferedChannel(2);
        long[] receivedSum = new long[1];
        long[] sentSum = new long[1];
        Thread receiver = Threads.start(() -> {
            for (int i = 0; i < 20_000; i++) {
                Integer v = ch.tryReceive(Duration.ofNanos(i % 3 * 2000));
                if (v != null) {
                    receivedSum[0] += v;
                }
            }
        });
        Thread sender = Threads.start(() -> {
            for (int i = 1; i <= 20_000; i++) {
                if (ch.trySend(i)) {
                    sentSum[0] += i;
                }
            }
        });
        Threads.join(ch, receiver, sender);
        Integer v;
        while ((v = ch.tryReceive()) != null) {
            receivedSum[0] += v;
        }
        assertEquals(sentSum[0], receivedSum[0], "sum of values sent vs received: " + ch.dumpCells());
    }
}
