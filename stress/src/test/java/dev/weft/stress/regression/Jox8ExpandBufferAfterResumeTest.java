package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.channels.Channel;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression, jox #8 ("add missing expandBuffer call"): a receive that resumes a sender waiting
 * past the buffer end must also move the buffer end, or the channel silently loses one slot of
 * capacity per such resume (and eventually behaves like a rendezvous channel).
 */
class Jox8ExpandBufferAfterResumeTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void capacityIsIntactAfterReceivesResumeWaitingSenders(int capacity) throws Exception {
        Channel<Integer> ch = Channel.newBufferedChannel(capacity);
        for (int round = 0; round < 300; round++) {
            for (int i = 0; i < capacity; i++) {
                assertTrue(ch.trySend(i), "round " + round + ": buffer slot " + i + " lost: " + ch.dumpCells());
            }
            Thread sender = Threads.start(() -> ch.send(100));
            Threads.awaitParked(sender);
            for (int i = 0; i < capacity; i++) {
                assertEquals(i, ch.receive());
            }
            Threads.join(ch, sender);
            assertEquals(100, ch.receive());
            // Exactly `capacity` slots again.
            for (int i = 0; i < capacity; i++) {
                assertTrue(ch.trySend(200 + i), "round " + round + ": capacity shrank: " + ch.dumpCells());
            }
            assertFalse(ch.trySend(999), "round " + round + ": capacity grew: " + ch.dumpCells());
            for (int i = 0; i < capacity; i++) {
                assertEquals(200 + i, ch.tryReceive());
            }
        }
    }
}
