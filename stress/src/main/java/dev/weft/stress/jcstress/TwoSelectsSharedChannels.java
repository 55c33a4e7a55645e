package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Race: two selects registered in the same two rendezvous channels {@code a} and {@code b} (in
 * opposite orders), with one blocking sender on each channel. Each sender must complete exactly
 * one of the selects; a select that already won elsewhere must be skipped (its other registration
 * is stale) rather than consume a second value, and no value may be handed to both.
 *
 * <p>Result: (value got by select 1, value got by select 2).
 */
@JCStressTest
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "select 1 got a's value")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "select 1 got b's value")
@State
public class TwoSelectsSharedChannels {
    final Channel<Integer> a = Channel.newRendezvousChannel();
    final Channel<Integer> b = Channel.newRendezvousChannel();

    @Actor
    public void select1(II_Result r) {
        try {
            Integer v = Select.select(a.receiveClause(), b.receiveClause());
            r.r1 = v;
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void select2(II_Result r) {
        try {
            Integer v = Select.select(b.receiveClause(), a.receiveClause());
            r.r2 = v;
        } catch (InterruptedException e) {
            r.r2 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void senderA() {
        try {
            a.send(1);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
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
}
