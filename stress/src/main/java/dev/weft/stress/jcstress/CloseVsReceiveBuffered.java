package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Race: {@code done()} vs receivers on a channel with buffered values (capacity 2, holding 1 and
 * 2). Closing marks the cells from the send counter on as closed; it must not touch the two
 * buffered cells, so both values are received in order whatever the timing, and only then does
 * the channel report {@code ChannelDone} and closed-for-receive.
 *
 * <p>Result: (receive, receive, doneOrClosed code, arbiter tryReceiveOrClosed, arbiter
 * isClosedForReceive).
 */
@JCStressTest
@Outcome(id = "1, 2, 0, -1, 1", expect = ACCEPTABLE, desc = "both buffered values received, then done")
@State
public class CloseVsReceiveBuffered {
    final Channel<Integer> ch = Channel.newBufferedChannel(2);

    public CloseVsReceiveBuffered() {
        ch.trySend(1);
        ch.trySend(2);
    }

    @Actor
    public void receiver(IIIII_Result r) {
        try {
            r.r1 = Codes.of(ch.receiveOrClosed());
            r.r2 = Codes.of(ch.receiveOrClosed());
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void closer(IIIII_Result r) {
        r.r3 = Codes.of(ch.doneOrClosed());
    }

    @Arbiter
    public void check(IIIII_Result r) {
        r.r4 = Codes.of(ch.tryReceiveOrClosed());
        r.r5 = Codes.bool(ch.isClosedForReceive());
    }
}
