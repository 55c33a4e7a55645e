package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: a try-send behind a receive that has taken the only buffered value and not yet moved the
 * buffer end. A buffered (1) channel holds 2. One actor takes a value; the other takes one and
 * then sends 3. When the second actor's receive finds the channel empty, the first actor's has
 * taken 2 (no send overlaps that receive, so its "empty" is no spurious one), and then the buffer
 * is empty and the send of 3 must succeed: "2, 0, 0, 0" is forbidden. Until stop 38 a sender
 * counted only the buffer end as room, which the taking receive moves after its take, so that
 * send could fail (Lincheck's model check of capacity 1 found the interleaving; its verifier
 * excused it as a spurious failure until then).
 *
 * <p>Result: (first actor's tryReceive, second actor's tryReceive, its trySend(3), arbiter
 * tryReceive).
 */
@JCStressTest
@Outcome(id = "2, 0, 1, 3", expect = ACCEPTABLE_INTERESTING,
        desc = "the first actor took 2; the second found the channel empty and buffered 3")
@Outcome(id = "0, 2, 1, 3", expect = ACCEPTABLE, desc = "the second actor took 2 and buffered 3; the first came earlier")
@Outcome(id = "3, 2, 1, 0", expect = ACCEPTABLE, desc = "the second actor took 2 and buffered 3, which the first took")
@State
public class TrySendBehindATakingReceive {
    final Channel<Integer> ch = Channel.newBufferedChannel(1);

    public TrySendBehindATakingReceive() {
        ch.trySend(2);
    }

    @Actor
    public void receiver(IIII_Result r) {
        r.r1 = Codes.of(ch.tryReceive());
    }

    @Actor
    public void receiverThenSender(IIII_Result r) {
        r.r2 = Codes.of(ch.tryReceive());
        r.r3 = Codes.bool(ch.trySend(3));
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r4 = Codes.of(ch.tryReceive());
    }
}
