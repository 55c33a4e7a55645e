package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Race: {@code done()} vs two consecutive sends on an unlimited channel (kotlinx.coroutines #1419
 * shape: close must be linearizable). The close has one linearization point: once a send has
 * observed the channel closed, the same thread's later send must too; every value sent before the
 * close is received, in order, before {@code ChannelDone}. The closing thread receives once right
 * after closing.
 *
 * <p>Result: (send 1 code, send 2 code, tryReceiveOrClosed after the close, arbiter: three
 * tryReceiveOrClosed).
 */
@JCStressTest
@Outcome(id = "0, 0, 1, 2, -1, -1", expect = ACCEPTABLE, desc = "both sends before the close")
@Outcome(id = "0, -1, 1, -1, -1, -1", expect = ACCEPTABLE, desc = "close between the sends")
@Outcome(id = "-1, -1, -1, -1, -1, -1", expect = ACCEPTABLE, desc = "close before both sends")
@State
public class CloseLinearizableUnlimited {
    final Channel<Integer> ch = Channel.newUnlimitedChannel();

    @Actor
    public void sender(IIIIII_Result r) {
        r.r1 = Codes.of(ch.trySendOrClosed(1));
        r.r2 = Codes.of(ch.trySendOrClosed(2));
    }

    @Actor
    public void closerThenReceiver(IIIIII_Result r) {
        ch.doneOrClosed();
        r.r3 = Codes.of(ch.tryReceiveOrClosed());
    }

    @Arbiter
    public void check(IIIIII_Result r) {
        r.r4 = Codes.of(ch.tryReceiveOrClosed());
        r.r5 = Codes.of(ch.tryReceiveOrClosed());
        r.r6 = Codes.of(ch.tryReceiveOrClosed());
    }
}
