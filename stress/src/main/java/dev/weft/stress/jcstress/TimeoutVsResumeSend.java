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
 * Race: timeout vs resume on the send side. A timed rendezvous {@code trySend(1, 20 us)} waits
 * and then withdraws itself by CAS when the deadline passes, while a {@code tryReceive()} tries to
 * take the waiting value by CAS on the same cell. One CAS wins: either the send reports success
 * and the receiver has 1, or the send reports a timeout and nothing was delivered.
 *
 * <p>Result: (timed trySend, tryReceive, arbiter tryReceive).
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "receiver took the value before the deadline")
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "timed out (or the receiver came first); nothing delivered")
@State
public class TimeoutVsResumeSend {
    final Channel<Integer> ch = Channel.newRendezvousChannel();

    @Actor
    public void sender(III_Result r) {
        try {
            r.r1 = Codes.bool(ch.trySend(1, Duration.ofNanos(20_000)));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void receiver(III_Result r) {
        r.r2 = Codes.of(ch.tryReceive());
    }

    @Arbiter
    public void check(III_Result r) {
        r.r3 = Codes.of(ch.tryReceive());
    }
}
