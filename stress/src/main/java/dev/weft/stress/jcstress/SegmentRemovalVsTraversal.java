package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import dev.weft.channels.internal.StressAccess;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: segment removal vs a traversal. One thread does a run of short timed receives on a
 * rendezvous channel (2 segments' worth, at most 65): each registers a waiter and withdraws it,
 * so whole segments become fully cleaned and are unlinked from the middle of the list via
 * prev/next. Meanwhile two {@code trySend}s walk the same list to find their cells, over segments
 * that may be removed under their feet; they must skip them, not resurrect or lose them. Each
 * successful send met exactly one of the waiting receives. Afterwards only a few segments may be
 * reachable.
 *
 * <p>Result: (values received by the timed receives, successful trySends, receiver errors
 * (out-of-order or unknown values), arbiter: reachable segments small (at most 4) and channel
 * still empty = 1).
 */
@JCStressTest
@Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "no send met a waiting receive")
@Outcome(id = {"1, 1, 0, 1", "2, 2, 0, 1"}, expect = ACCEPTABLE_INTERESTING,
        desc = "sends met waiting receives across (possibly removed) segments")
@State
public class SegmentRemovalVsTraversal {
    static final int RECEIVES = Math.min(65, 2 * StressAccess.segmentSize() + 1);
    final Channel<Integer> ch = Channel.newRendezvousChannel();

    @Actor
    public void receiver(IIII_Result r) {
        int got = 0;
        int last = 0;
        int errors = 0;
        try {
            for (int i = 0; i < RECEIVES; i++) {
                Integer v = ch.tryReceive(Duration.ofNanos(5_000));
                if (v != null) {
                    got++;
                    if (v <= last || v > 2) {
                        errors++;
                    }
                    last = v;
                }
            }
        } catch (InterruptedException e) {
            errors += 100;
        }
        r.r1 = got;
        r.r3 = errors;
    }

    @Actor
    public void sender(IIII_Result r) {
        r.r2 = Codes.bool(ch.trySend(1)) + Codes.bool(ch.trySend(2));
    }

    @Arbiter
    public void check(IIII_Result r) {
        boolean empty = ch.tryReceive() == null && !ch.trySend(3);
        r.r4 = Codes.bool(empty && StressAccess.reachableSegments(ch) <= 4);
    }
}
