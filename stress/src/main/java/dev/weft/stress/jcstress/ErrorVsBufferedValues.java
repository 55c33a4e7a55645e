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
 * Race: {@code error(t)} vs buffered values. Capacity 2, holding 1. One thread receives and then
 * sends 2; the other closes the channel in error, which discards buffered values. The receive
 * gets 1 (before the error) or {@code ChannelError}; once a thread has seen the error, its later
 * send must see it too; a value sent before the error is discarded by it. Afterwards nothing can be
 * received or sent.
 *
 * <p>Result: (receiveOrClosed, trySendOrClosed, errorOrClosed, arbiter tryReceiveOrClosed,
 * arbiter trySendOrClosed).
 */
@JCStressTest
@Outcome(id = "1, 0, 0, -2, -2", expect = ACCEPTABLE, desc = "receive and send before the error; 2 discarded")
@Outcome(id = "1, -2, 0, -2, -2", expect = ACCEPTABLE, desc = "receive before, send after the error")
@Outcome(id = "-2, -2, 0, -2, -2", expect = ACCEPTABLE, desc = "both after the error; 1 discarded")
@State
public class ErrorVsBufferedValues {
    static final RuntimeException BOOM = new RuntimeException("boom");
    final Channel<Integer> ch = Channel.newBufferedChannel(2);

    public ErrorVsBufferedValues() {
        ch.trySend(1);
    }

    @Actor
    public void receiverThenSender(IIIII_Result r) {
        try {
            r.r1 = Codes.of(ch.receiveOrClosed());
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
        r.r2 = Codes.of(ch.trySendOrClosed(2));
    }

    @Actor
    public void closer(IIIII_Result r) {
        r.r3 = Codes.of(ch.errorOrClosed(BOOM));
    }

    @Arbiter
    public void check(IIIII_Result r) {
        r.r4 = Codes.of(ch.tryReceiveOrClosed());
        r.r5 = Codes.of(ch.trySendOrClosed(3));
    }
}
