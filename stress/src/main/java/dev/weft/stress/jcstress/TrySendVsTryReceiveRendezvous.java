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
 * Race: {@code trySend} vs {@code tryReceive} on a rendezvous channel. Neither operation waits,
 * so neither can ever find the other waiting: both must fail (a linearizable rendezvous needs one
 * party to be waiting). The receiver may poison the sender's cell (BROKEN) and the sender may find
 * it poisoned; both must give up cleanly and leave no waiter or value behind, which the arbiter
 * checks with a second pair of try-ops.
 *
 * <p>Result: (trySend, tryReceive, arbiter trySendOrClosed code, arbiter tryReceiveOrClosed code).
 */
@JCStressTest
@Outcome(id = "0, 0, -3, 0", expect = ACCEPTABLE, desc = "both try-ops fail, channel left empty")
@State
public class TrySendVsTryReceiveRendezvous {
    final Channel<Integer> ch = Channel.newRendezvousChannel();

    @Actor
    public void sender(IIII_Result r) {
        r.r1 = Codes.bool(ch.trySend(1));
    }

    @Actor
    public void receiver(IIII_Result r) {
        r.r2 = Codes.of(ch.tryReceive());
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r3 = Codes.of(ch.trySendOrClosed(2));
        r.r4 = Codes.of(ch.tryReceiveOrClosed());
    }
}
