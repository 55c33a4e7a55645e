package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.channels.Channel;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bug class found in review (channels b18c636 era): a buffered channel could hold more values than
 * its capacity once timed-out receivers had filled whole segments that got removed before the
 * buffer end reached them, because the buffer expansion jumping over a removed segment did not
 * count the withdrawn receivers' cells it skipped. This module runs with 1-cell segments, where
 * every withdrawn receiver empties a segment.
 *
 * <p>Many threads mix timed sends and receives with random short timeouts; once they are done
 * and the channel is drained, an empty channel must accept exactly {@code capacity} values.
 */
class BufferCapacityAfterWithdrawnReceiversTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    @Timeout(120)
    void emptyChannelAcceptsExactlyItsCapacity(int capacity) throws Exception {
        for (int round = 0; round < 25; round++) {
            Channel<Integer> ch = Channel.newBufferedChannel(capacity);
            Thread[] threads = new Thread[6];
            for (int t = 0; t < threads.length; t++) {
                threads[t] = Threads.start(() -> {
                    ThreadLocalRandom rnd = ThreadLocalRandom.current();
                    for (int i = 0; i < 1500; i++) {
                        Duration d = Duration.ofNanos(rnd.nextInt(1, 100_000));
                        if (rnd.nextBoolean()) {
                            ch.trySend(i, d);
                        } else {
                            ch.tryReceive(d);
                        }
                    }
                });
            }
            Threads.join(ch, threads);
            while (ch.tryReceive() != null) {
                // drain
            }
            int accepted = 0;
            while (accepted <= capacity && ch.trySend(-1)) {
                accepted++;
            }
            assertEquals(capacity, accepted, "round " + round + ": an empty channel of capacity "
                    + capacity + " accepted " + accepted + " values\n" + ch.dumpCells());
        }
    }
}
