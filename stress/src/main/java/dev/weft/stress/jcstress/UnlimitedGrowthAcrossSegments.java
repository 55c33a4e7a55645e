package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import dev.weft.channels.internal.StressAccess;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Race: unlimited growth across a segment boundary. The constructor moves both counters to the
 * last cell of the first segment, so the two {@code trySend}s write the last cell of one segment
 * and the first cell of a segment that does not exist yet, while two {@code tryReceive}s chase
 * them (possibly poisoning cells and allocating the next segment themselves). Both sends must
 * succeed (unlimited), and the values must be received exactly once, in order.
 *
 * <p>Result: (send 1, send 2, receive 1, receive 2, arbiter receive, arbiter receive).
 */
@JCStressTest
@Outcome(id = {"1, 1, 1, 2, 0, 0", "1, 1, 1, 0, 2, 0", "1, 1, 0, 1, 2, 0", "1, 1, 0, 0, 1, 2"},
        expect = ACCEPTABLE, desc = "each value once, in order")
@State
public class UnlimitedGrowthAcrossSegments {
    final Channel<Integer> ch = Channel.newUnlimitedChannel();

    public UnlimitedGrowthAcrossSegments() {
        for (int i = 0; i < StressAccess.segmentSize() - 1; i++) {
            ch.trySend(-7);
            ch.tryReceive();
        }
    }

    @Actor
    public void sender(IIIIII_Result r) {
        r.r1 = Codes.bool(ch.trySend(1));
        r.r2 = Codes.bool(ch.trySend(2));
    }

    @Actor
    public void receiver(IIIIII_Result r) {
        r.r3 = Codes.of(ch.tryReceive());
        r.r4 = Codes.of(ch.tryReceive());
    }

    @Arbiter
    public void check(IIIIII_Result r) {
        r.r5 = Codes.of(ch.tryReceive());
        r.r6 = Codes.of(ch.tryReceive());
    }
}
