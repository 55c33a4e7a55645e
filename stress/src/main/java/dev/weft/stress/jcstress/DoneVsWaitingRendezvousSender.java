package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Race: {@code done()} vs a rendezvous sender that is (or is about to be) waiting. The sender's
 * claim of a cell (FAA on the sender counter) races the close bit set in the same counter. A
 * sender that claimed its cell before the close keeps its value receivable ("values of senders
 * already waiting are still received"), so the receive that follows the close must get it; a
 * sender that comes after the close is rejected and the receive gets {@code ChannelDone}.
 *
 * <p>Two actors (jcstress runs at most one actor per CPU): the closing thread receives right
 * after closing, which also guarantees the waiting sender a partner.
 *
 * <p>Result: (sendOrClosed code: 0 sent / -1 done, doneOrClosed code, receiveOrClosed code).
 */
@JCStressTest
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "sender claimed its cell before the close; value received")
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
    public void closerThenReceiver(III_Result r) {
        r.r2 = Codes.of(ch.doneOrClosed());
        try {
            r.r3 = Codes.of(ch.receiveOrClosed());
        } catch (InterruptedException e) {
            r.r3 = Codes.INTERRUPTED;
        }
    }
}
