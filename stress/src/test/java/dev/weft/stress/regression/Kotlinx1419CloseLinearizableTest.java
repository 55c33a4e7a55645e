package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelClosed;
import dev.weft.channels.ChannelDone;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression, kotlinx.coroutines #1419 ("non-linearizable execution of channels": a receiver was
 * woken by close, and then the same thread's send still succeeded against another waiting
 * receiver, i.e. the close had no single linearization point; fixed by making every operation
 * that observes the close help complete it before reporting it).
 */
class Kotlinx1419CloseLinearizableTest {
    /** A thread that observed the close (via its waiting receive) must see it on its next send too. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, -1})
    void afterAReceiverSawTheCloseSendsFail(int capacity) throws Exception {
        for (int i = 0; i < 2000; i++) {
            Channel<Integer> ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
            Object[] r = new Object[2];
            // A second waiting receiver, so that a send which missed the close could rendezvous with it.
            Thread other = Threads.start(() -> r[1] = ch.receiveOrClosed());
            Thread t = Threads.start(() -> {
                r[0] = ch.receiveOrClosed();
                Object send = ch.trySendOrClosed(42);
                if (r[0] instanceof ChannelClosed) {
                    assertInstanceOf(ChannelClosed.class, send, "send after observing the close succeeded");
                }
            });
            Thread.onSpinWait();
            ch.done();
            Threads.join(ch, t, other);
            assertInstanceOf(ChannelDone.class, r[0], "iteration " + i);
            assertInstanceOf(ChannelDone.class, r[1], "iteration " + i);
        }
    }

    /** Sends by one thread stop at one point: all values before it are received, none after. */
    @ParameterizedTest
    @ValueSource(ints = {1, 16, -1})
    void sendsBeforeTheCloseAreReceivedAndNoneAfter(int capacity) throws Exception {
        for (int i = 0; i < 1000; i++) {
            Channel<Integer> ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
            int[] sent = new int[1];
            Thread sender = Threads.start(() -> {
                int k = 0;
                while (true) {
                    Object o = ch.trySendOrClosed(k);
                    if (o instanceof ChannelClosed) {
                        break;
                    }
                    if (o == null) {
                        k++;
                    } else {
                        Thread.onSpinWait(); // full
                    }
                }
                sent[0] = k;
                // Monotonic: once closed, always closed.
                assertInstanceOf(ChannelClosed.class, ch.trySendOrClosed(-1));
            });
            for (int spin = 0; spin < i % 50; spin++) {
                Thread.onSpinWait();
            }
            ch.done();
            Threads.join(ch, sender);
            for (int k = 0; k < sent[0]; k++) {
                assertEquals(k, ch.tryReceiveOrClosed(), "value " + k + " of " + sent[0] + " sent before the close");
            }
            assertInstanceOf(ChannelDone.class, ch.tryReceiveOrClosed());
            // closedForReceive()/isClosedForReceive() after rejected sends: see the test below.
        }
    }

    /**
     * Found by this module, fixed in channels b4d8d4c/b18c636: a send rejected after the close left {@code isClosedForReceive()} false on a closed, drained
     * buffered or unlimited channel (and, when the rejected send raced the close, {@code
     * closedForReceive()} returns {@code null} as well).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 16, -1})
    void closedForReceiveOnceDrainedEvenAfterARejectedSend(int capacity) {
        Channel<Integer> ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
        ch.trySend(1);
        ch.done();
        assertInstanceOf(ChannelClosed.class, ch.trySendOrClosed(2));
        assertEquals(1, ch.tryReceiveOrClosed());
        assertInstanceOf(ChannelDone.class, ch.tryReceiveOrClosed());
        assertTrue(ch.isClosedForReceive(), "closed and drained, but isClosedForReceive() is false: " + ch.dumpCells());
        assertInstanceOf(ChannelDone.class, ch.closedForReceive());
    }
}
