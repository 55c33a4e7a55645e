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
 * Race: two selects on the same two channels, in opposite clause orders. Buffered (1) channels
 * {@code a} (holding 1) and {@code b} (holding 2); each select receives from both. They race for
 * the same buffered cells (and each may find the other's cell taken and move on); each must get
 * exactly one value, never the same one, and both channels must end up empty and usable.
 *
 * <p>Result: (select 1, select 2, arbiter a.trySend + b.trySend (2 = both have room again),
 * arbiter a.tryReceive + b.tryReceive of what it just sent (3 + 4 = 7)).
 */
@JCStressTest
@Outcome(id = "1, 2, 2, 7", expect = ACCEPTABLE, desc = "select 1 got a's value")
@Outcome(id = "2, 1, 2, 7", expect = ACCEPTABLE, desc = "select 1 got b's value")
@State
public class TwoSelectsSharedChannels {
    final Channel<Integer> a = Channel.newBufferedChannel(1);
    final Channel<Integer> b = Channel.newBufferedChannel(1);

    public TwoSelectsSharedChannels() {
        a.trySend(1);
        b.trySend(2);
    }

    @Actor
    public void select1(IIII_Result r) {
        try {
            Integer v = Select.select(a.receiveClause(), b.receiveClause());
            r.r1 = v;
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void select2(IIII_Result r) {
        try {
            Integer v = Select.select(b.receiveClause(), a.receiveClause());
            r.r2 = v;
        } catch (InterruptedException e) {
            r.r2 = Codes.INTERRUPTED;
        }
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r3 = Codes.bool(a.trySend(3)) + Codes.bool(b.trySend(4));
        r.r4 = Codes.of(a.tryReceive()) + Codes.of(b.tryReceive());
    }
}
