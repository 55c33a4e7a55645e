package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Platform threads' waits through every transition of their spin window (see {@code Waiting}):
 * bursts where the partner is there (spins win), idle gaps of 2 ms (parks far longer than 8
 * windows mark the channel idle), the first handoffs after a gap (a short window, then short parks
 * restore the full one), and timed receives that time out in an idle gap (recorded as idle) or
 * in a burst. Every value must arrive exactly once and in order; a lost wake-up in any transition
 * shows as a hang, which the timeout turns into a failure.
 */
@Timeout(60)
class PlatformWaitTransitionsTest {
    private static final int BURSTS = 20;
    private static final int PER_BURST = 500;

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void burstsAndIdleGapsDeliverEveryValueOnceInOrder(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread sender = Thread.ofPlatform().start(() -> {
            try {
                for (int b = 0; b < BURSTS; b++) {
                    for (int i = 0; i < PER_BURST; i++) {
                        ch.send(b * PER_BURST + i);
                    }
                    Thread.sleep(2); // the receiver parks for the gap
                }
                ch.done();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        });
        int expected = 0;
        while (true) {
            // every third receive is timed: in a gap it times out, in a burst it usually does not
            Object v = expected % 3 == 0 ? ch.tryReceiveOrClosed(Duration.ofNanos(300_000)) : ch.receiveOrClosed();
            if (v instanceof ChannelDone) {
                break;
            }
            if (v == null) {
                continue; // timed out: nothing was consumed
            }
            assertEquals(expected, v, "values arrive once and in order");
            expected++;
        }
        sender.join(TimeUnit.SECONDS.toMillis(30));
        assertNull(failure.get(), () -> "sender failed: " + failure.get());
        assertEquals(BURSTS * PER_BURST, expected);
    }
}
