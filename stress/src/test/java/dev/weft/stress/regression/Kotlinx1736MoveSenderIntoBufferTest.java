package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelClosed;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regression, kotlinx.coroutines #1736 ("non-linearizability in ArrayChannel while moving an
 * element from the waiting queue to the buffer"). Capacity 1: {@code offer(3)} fills the buffer,
 * {@code send(5)} waits, then {@code close()}; a receive that takes 3 must move 5 into the buffer
 * atomically with resuming its sender. In the bug, a concurrent receiver saw the channel empty
 * (3 taken, 5 not yet moved) and then closed, while 5 was delivered later: a receiver got "closed"
 * although a value sent before the close was still to come.
 *
 * <p>Checked here as: once any receiver has seen {@code ChannelDone}, no value may be received
 * afterwards, and both values sent before the close are received exactly once. {@code
 * trySend(3)} into the empty buffer must succeed: before TrySendAfterReceiverGaveUpTest's fix it
 * failed about 1 run in 3 of this test (a receiver poisoned its cell and moved the buffer end only
 * afterwards), and this test allowed that.
 */
class Kotlinx1736MoveSenderIntoBufferTest {
    @Test
    void noValueAfterDoneWhenMovingAWaitingSenderIntoTheBuffer() throws Exception {
        for (int i = 0; i < 3000; i++) {
            Channel<Integer> ch = Channel.newBufferedChannel(1);
            Object[] r = new Object[2];
            boolean[] sent3 = new boolean[1];
            Thread receiver1 = Threads.start(() -> r[0] = ch.receiveOrClosed());
            Thread sender = Threads.start(() -> {
                sent3[0] = ch.trySend(3);
                ch.send(5);
                ch.done();
            });
            Thread receiver2 = Threads.start(() -> r[1] = ch.receiveOrClosed());
            Threads.join(ch, receiver1, sender, receiver2);
            List<Object> drained = new ArrayList<>();
            Object o;
            while (!((o = ch.tryReceiveOrClosed()) instanceof ChannelClosed)) {
                drained.add(o);
            }
            List<Object> all = new ArrayList<>(drained);
            for (Object x : r) {
                if (!(x instanceof ChannelClosed)) {
                    all.add(x);
                }
            }
            all.sort(null);
            boolean someoneSawDone = r[0] instanceof ChannelClosed || r[1] instanceof ChannelClosed;
            assertTrue(sent3[0], "iteration " + i + ": trySend(3) into an empty buffer failed");
            assertEquals(List.of(3, 5), all, "iteration " + i + ": trySend(3)=" + sent3[0] + " r=" + r[0] + "," + r[1] + " drained=" + drained);
            assertFalse(someoneSawDone && !drained.isEmpty(),
                    "iteration " + i + ": a receiver saw done, but " + drained + " was received later");
        }
    }
}
