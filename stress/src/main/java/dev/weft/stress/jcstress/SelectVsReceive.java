package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: select vs receive. A select sends 1 to rendezvous channel {@code a} or 2 to rendezvous
 * channel {@code b}. The other thread first tries {@code b.tryReceive()} (succeeds only if the
 * select is registered in {@code b}) and then receives from {@code a} (timed, 5 s). Exactly one
 * clause completes: if {@code b.tryReceive} got 2, the select's registration in {@code a} is dead
 * and must not hand 1 to the receiver; the selecting thread then sends 99 on {@code a} to release
 * it. Otherwise the receiver on {@code a} gets 1.
 *
 * <p>Result: (select clause: 1 = a, 2 = b, a receive (-5 timeout), b.tryReceive, release send: 0
 * not needed / 1 sent / -5 timed out).
 */
@JCStressTest
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "b.tryReceive found no select; a's receiver took 1")
@Outcome(id = "2, 99, 2, 1", expect = ACCEPTABLE_INTERESTING, desc = "b.tryReceive met the registered select")
@State
public class SelectVsReceive {
    final Channel<Integer> a = Channel.newRendezvousChannel();
    final Channel<Integer> b = Channel.newRendezvousChannel();

    @Actor
    public void selector(IIII_Result r) {
        try {
            int clause = Select.select(a.sendClause(1, () -> 1), b.sendClause(2, () -> 2));
            r.r1 = clause;
            if (clause == 2) {
                r.r4 = a.trySend(99, Duration.ofSeconds(5)) ? 1 : Codes.TIMEOUT;
            }
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void receiver(IIII_Result r) {
        r.r3 = Codes.of(b.tryReceive());
        try {
            r.r2 = Codes.of(a.tryReceive(Duration.ofSeconds(5)));
            if (r.r2 == Codes.NONE) {
                r.r2 = Codes.TIMEOUT;
            }
        } catch (InterruptedException e) {
            r.r2 = Codes.INTERRUPTED;
        }
    }
}
