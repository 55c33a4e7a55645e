package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Race: a blocking {@code send} and a blocking {@code receive} on a rendezvous channel claim the
 * same cell (index 0 of both counters); whichever arrives first stores itself as the waiter, the
 * other completes the rendezvous by CAS on the cell and unparks it.
 *
 * <p>Both operations always have a partner, so every sample terminates. Result: (send completed,
 * value received). Unlisted outcomes are forbidden: a lost value, a wrong value, an exception.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "rendezvous completed, value delivered once")
@State
public class SendVsReceiveSameCell {
    final Channel<Integer> ch = Channel.newRendezvousChannel();

    @Actor
    public void sender(II_Result r) {
        try {
            ch.send(1);
            r.r1 = 1;
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void receiver(II_Result r) {
        try {
            r.r2 = ch.receive();
        } catch (InterruptedException e) {
            r.r2 = Codes.INTERRUPTED;
        }
    }
}
