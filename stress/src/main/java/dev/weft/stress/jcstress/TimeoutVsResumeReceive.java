package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Race: timeout vs resume on the receive side. A timed rendezvous {@code tryReceive(20 us)} waits
 * and withdraws itself at the deadline while a {@code trySend(1)} tries to hand it the value. If
 * the send won, the receive returns 1; if the withdrawal won, the send fails and nothing was
 * consumed.
 *
 * <p>Result: (timed tryReceive, trySend, arbiter trySendOrClosed code).
 */
@JCStressTest
@Outcome(id = "1, 1, -3", expect = ACCEPTABLE_INTERESTING, desc = "sender handed over the value before the deadline")
@Outcome(id = "0, 0, -3", expect = ACCEPTABLE, desc = "timed out (or the sender came first); nothing consumed")
@State
public class TimeoutVsResumeReceive {
    final Channel<Integer> ch = Channel.newRendezvousChannel();

    @Actor
    public void receiver(III_Result r) {
        try {
            r.r1 = Codes.of(ch.tryReceive(Duration.ofNanos(20_000)));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void sender(III_Result r) {
        r.r2 = Codes.bool(ch.trySend(1));
    }

    @Arbiter
    public void check(III_Result r) {
        r.r3 = Codes.of(ch.trySendOrClosed(2));
    }
}
