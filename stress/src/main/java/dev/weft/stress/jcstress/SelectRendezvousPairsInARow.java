package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: consecutive select-select rendezvous on shared channels, with the dead registrations of
 * the first pair still in the cells the second pair walks over. One thread runs two sending
 * selects (1 to a or 2 to b, then 3 to a or 4 to b), the other two receiving selects (a or b, then
 * b or a). Each rendezvous must update both select states together, so each receiving select gets
 * exactly the value its partner reports as sent.
 *
 * <p>Result: (first value sent, second value sent, first value received, second value received).
 */
@JCStressTest
@Outcome(id = {"1, 3, 1, 3", "1, 4, 1, 4", "2, 3, 2, 3", "2, 4, 2, 4"}, expect = ACCEPTABLE,
        desc = "each select-select rendezvous consistent on both sides")
@State
public class SelectRendezvousPairsInARow {
    final Channel<Integer> a = Channel.newRendezvousChannel();
    final Channel<Integer> b = Channel.newRendezvousChannel();

    @Actor
    public void senders(IIII_Result r) {
        try {
            r.r1 = Select.select(a.sendClause(1, () -> 1), b.sendClause(2, () -> 2));
            r.r2 = Select.select(a.sendClause(3, () -> 3), b.sendClause(4, () -> 4));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void receivers(IIII_Result r) {
        try {
            Integer v1 = Select.select(a.receiveClause(), b.receiveClause());
            r.r3 = v1;
            Integer v2 = Select.select(b.receiveClause(), a.receiveClause());
            r.r4 = v2;
        } catch (InterruptedException e) {
            r.r3 = Codes.INTERRUPTED;
        }
    }
}
