package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: select vs send. A select receives from a rendezvous channel {@code a} or a buffered (1)
 * channel {@code b}; concurrently {@code b.send(2)} (never waits: buffer) and {@code
 * a.trySend(1)} (succeeds only if the select is registered in {@code a}). The select's state CAS
 * picks exactly one clause; the other registration must be withdrawn without trace: if the select
 * took 2 from {@code b}, the {@code trySend} on {@code a} must not have succeeded (no one took its
 * value), and if it took 1 from {@code a}, 2 must still be buffered in {@code b}.
 *
 * <p>Result: (select: 11 = 1 from a, 22 = 2 from b, a.trySend, arbiter b.tryReceive, arbiter
 * a.trySend).
 */
@JCStressTest
@Outcome(id = "22, 0, 0, 0", expect = ACCEPTABLE, desc = "select took the buffered value from b")
@Outcome(id = "11, 1, 2, 0", expect = ACCEPTABLE_INTERESTING, desc = "trySend on a met the registered select")
@State
public class SelectVsSend {
    final Channel<Integer> a = Channel.newRendezvousChannel();
    final Channel<Integer> b = Channel.newBufferedChannel(1);

    @Actor
    public void selector(IIII_Result r) {
        try {
            r.r1 = Select.select(a.receiveClause(x -> 10 + x), b.receiveClause(x -> 20 + x));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void senderB() {
        try {
            b.send(2);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Actor
    public void senderA(IIII_Result r) {
        r.r2 = Codes.bool(a.trySend(1));
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r3 = Codes.of(b.tryReceive());
        r.r4 = Codes.bool(a.trySend(9));
    }
}
