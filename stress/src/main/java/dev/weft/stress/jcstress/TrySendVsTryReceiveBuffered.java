package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Race: {@code trySend} vs {@code tryReceive} on a buffered channel of capacity 1. The send always
 * fits in the buffer; the receive either takes it (it came second) or finds the cell empty (it
 * came first, possibly poisoning the cell, which the sender must then skip). Either way the value
 * is received exactly once: by the actor or by the arbiter.
 *
 * <p>Result: (trySend, actor tryReceive, arbiter tryReceive).
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "receive after send")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "receive before send; value stays buffered")
@State
public class TrySendVsTryReceiveBuffered {
    final Channel<Integer> ch = Channel.newBufferedChannel(1);

    @Actor
    public void sender(III_Result r) {
        r.r1 = Codes.bool(ch.trySend(1));
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
