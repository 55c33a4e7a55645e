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
 * Race: withdrawing the last live cell of a segment. The constructor withdraws timed receives
 * (1 ns) from all but the last cell of the first segment; the actor's timed receive (20 us) then
 * waits in that last cell. When it times out, its withdrawal makes the segment fully cleaned,
 * which triggers removal, while a {@code trySend} races to hand it a value in the same cell. One
 * CAS wins: (value received, send succeeded) or (timeout, send failed); the channel stays usable
 * and the cleaned segment does not stay reachable.
 *
 * <p>Result: (timed receive, trySend, arbiter trySendOrClosed code (-3: no stale waiter), arbiter
 * reachable segments at most 3).
 */
@JCStressTest
@Outcome(id = "0, 0, -3, 1", expect = ACCEPTABLE, desc = "receive withdrawn (or sender first); nothing delivered")
@Outcome(id = "1, 1, -3, 1", expect = ACCEPTABLE_INTERESTING, desc = "sender won the last live cell")
@State
public class WithdrawLastLiveCell {
    final Channel<Integer> ch = Channel.newRendezvousChannel();

    public WithdrawLastLiveCell() {
        try {
            for (int i = 0; i < StressAccess.segmentSize() - 1; i++) {
                ch.tryReceive(Duration.ofNanos(1));
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Actor
    public void receiver(IIII_Result r) {
        try {
            r.r1 = Codes.of(ch.tryReceive(Duration.ofNanos(20_000)));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void sender(IIII_Result r) {
        r.r2 = Codes.bool(ch.trySend(1));
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r3 = Codes.of(ch.trySendOrClosed(2));
        r.r4 = Codes.bool(StressAccess.reachableSegments(ch) <= 3);
    }
}
