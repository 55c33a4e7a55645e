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
 * Race: four selects on two shared rendezvous channels, two sending (1 or 2 / 3 or 4 to a or b)
 * and two receiving (from a or b, in opposite orders). Every select-select rendezvous must update
 * both select states atomically (descriptor in select-id order), so the two values received are
 * exactly the two values the sending selects report as sent, whatever channels they went through.
 *
 * <p>Result: (value sender 1 sent, value sender 2 sent, value receiver 1 got, value receiver 2
 * got). Values 1 and 3 travel on a, 2 and 4 on b.
 */
@JCStressTest
@Outcome(id = {"1, 3, 1, 3", "1, 3, 3, 1", "1, 4, 1, 4", "1, 4, 4, 1",
               "2, 3, 2, 3", "2, 3, 3, 2", "2, 4, 2, 4", "2, 4, 4, 2"},
        expect = ACCEPTABLE, desc = "two rendezvous, each value delivered once")
@State
public class SelectSendersVsSelectReceivers {
    final Channel<Integer> a = Channel.newRendezvousChannel();
    final Channel<Integer> b = Channel.newRendezvousChannel();

    @Actor
    public void sender1(IIII_Result r) {
        try {
            r.r1 = Select.select(a.sendClause(1, () -> 1), b.sendClause(2, () -> 2));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void sender2(IIII_Result r) {
        try {
            r.r2 = Select.select(a.sendClause(3, () -> 3), b.sendClause(4, () -> 4));
        } catch (InterruptedException e) {
            r.r2 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void receiver1(IIII_Result r) {
        try {
            Integer v = Select.select(a.receiveClause(), b.receiveClause());
            r.r3 = v;
        } catch (InterruptedException e) {
            r.r3 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void receiver2(IIII_Result r) {
        try {
            Integer v = Select.select(b.receiveClause(), a.receiveClause());
            r.r4 = v;
        } catch (InterruptedException e) {
            r.r4 = Codes.INTERRUPTED;
        }
    }
}
