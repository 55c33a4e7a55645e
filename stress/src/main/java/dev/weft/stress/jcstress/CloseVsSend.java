package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: {@code done()} vs {@code sendOrClosed} on a buffered channel (capacity 1, so the send never
 * waits). The close flag and the sender's cell claim race: a send linearized before the close must
 * be received afterwards; a send after it must report {@code ChannelDone} and deliver nothing.
 *
 * <p>Result: (send code: 0 sent / -1 done, doneOrClosed code, arbiter receive, arbiter receive).
 */
@JCStressTest
@Outcome(id = "0, 0, 1, -1", expect = ACCEPTABLE, desc = "send before close: value still received, then done")
@Outcome(id = "-1, 0, -1, -1", expect = ACCEPTABLE, desc = "close before send: send rejected, nothing delivered")
@State
public class CloseVsSend {
    final Channel<Integer> ch = Channel.newBufferedChannel(1);

    @Actor
    public void sender(IIII_Result r) {
        try {
            r.r1 = Codes.of(ch.sendOrClosed(1));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void closer(IIII_Result r) {
        r.r2 = Codes.of(ch.doneOrClosed());
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r3 = Codes.of(ch.tryReceiveOrClosed());
        r.r4 = Codes.of(ch.tryReceiveOrClosed());
    }
}
