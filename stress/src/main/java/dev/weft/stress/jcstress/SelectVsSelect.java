package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: select vs select, with clauses in the same order (a, b) in both selects. A sending select (1 to rendezvous
 * {@code a} or 2 to rendezvous {@code b}) and a receiving select over the same two channels must
 * complete exactly one rendezvous, consistently on both sides (the pair of select states is
 * updated atomically), and leave no registration behind.
 *
 * <p>Result: (sending select's clause, receiving select's value, arbiter a.tryReceive, arbiter
 * b.tryReceive).
 */
@JCStressTest
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "rendezvous on a")
@Outcome(id = "2, 2, 0, 0", expect = ACCEPTABLE, desc = "rendezvous on b")
@State
public class SelectVsSelect {
    final Channel<Integer> a = Channel.newRendezvousChannel();
    final Channel<Integer> b = Channel.newRendezvousChannel();

    @Actor
    public void sendingSelect(IIII_Result r) {
        try {
            r.r1 = Select.select(a.sendClause(1, () -> 1), b.sendClause(2, () -> 2));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void receivingSelect(IIII_Result r) {
        try {
            Integer v = Select.select(a.receiveClause(), b.receiveClause());
            r.r2 = v;
        } catch (InterruptedException e) {
            r.r2 = Codes.INTERRUPTED;
        }
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r3 = Codes.of(a.tryReceive());
        r.r4 = Codes.of(b.tryReceive());
    }
}
