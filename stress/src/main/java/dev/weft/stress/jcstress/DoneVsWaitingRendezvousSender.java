package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Race: {@code done()} vs a rendezvous sender that is (or is about to be) waiting, with a
 * receiver arriving at any time. A sender that was waiting before the close keeps its value
 * receivable ("values of senders already waiting are still received"), so the receiver must get
 * it; a sender that arrives after the close is rejected and the receiver gets {@code ChannelDone}.
 * A receiver that was waiting when the close happened gets {@code ChannelDone}, and then the
 * sender must be rejected too.
 *
 * <p>Result: (sendOrClosed code: 0 sent / -1 done, doneOrClosed code, receiveOrClosed code).
 */
@JCStressTest
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "sender came before close; its value was received")
@Outcome(id = "-1, 0, -1", expect = ACCEPTABLE, desc = "close came first; sender rejected, receiver sees done")
@State
public class DoneVsWaitingRendezvousSender {
    final Channel<Integer> ch = Channel.newRendezvousChannel();

    @Actor
    public void sender(III_Result r) {
        try {
            r.r1 = Codes.of(ch.sendOrClosed(1));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void closer(III_Result r) {
        r.r2 = Codes.of(ch.doneOrClosed());
    }

    @Actor
    public void receiver(III_Result r) {
        try {
            r.r3 = Codes.of(ch.receiveOrClosed());
        } catch (InterruptedException e) {
            r.r3 = Codes.INTERRUPTED;
        }
    }
}
