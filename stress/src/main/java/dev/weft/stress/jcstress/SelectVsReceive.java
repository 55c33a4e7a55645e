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
 * channel {@code b}; a blocking {@code a.receive()} and a non-blocking {@code b.tryReceive()} race
 * for it. Exactly one clause may complete: if the select reports {@code b}, the value 1 must not
 * have been delivered to {@code a}'s receiver (its registration in {@code a} was withdrawn), so the
 * selecting thread then releases that receiver with a timed {@code a.trySend(99)}.
 *
 * <p>Result: (select: clause 1 = a / 2 = b, a.receive, b.tryReceive, release send: 0 not needed /
 * 1 sent / -5 timed out).
 */
@JCStressTest
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "a's receiver took 1")
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
    public void receiverA(IIII_Result r) {
        try {
            r.r2 = a.receive();
        } catch (InterruptedException e) {
            r.r2 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void receiverB(IIII_Result r) {
        r.r3 = Codes.of(b.tryReceive());
    }
}
