package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Race: {@code done()} vs an observer. The close keeps values already sent (buffered ones and, on
 * a rendezvous channel, a sender already waiting), so the observer may still receive them; but
 * once it has seen the channel closed for receive ({@code isClosedForReceive()} true or a {@code
 * ChannelDone}), no later receive may return a value (kotlinx.coroutines #1419 shape, issue 8's
 * required semantics for done). Channel: unlimited.
 *
 * <p>Setup, actors and result columns: see {@link CloseObserver}.
 */
@JCStressTest
@Outcome(id = "0, 1, 1, -1, -1, -1", expect = ACCEPTABLE, desc = "open, 1, closed, done; send of 2 refused or woken")
@Outcome(id = "0, 1, 0, 2, 0, -1", expect = ACCEPTABLE, desc = "open, 1, open, 2; send of 2 completed")
@Outcome(id = "0, 1, 0, -1, -1, -1", expect = ACCEPTABLE, desc = "open, 1, open, done; send of 2 refused or woken")
@Outcome(id = "1, [12], .*", expect = FORBIDDEN, desc = "observed closed (first check), then got a value")
@Outcome(id = "., -[12], ., [12], .*", expect = FORBIDDEN, desc = "got the close, then a value")
@Outcome(id = "0, [12], 1, [12], .*", expect = FORBIDDEN, desc = "observed closed (second check), then got a value")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class CloseObservedDoneUnlimited {
    final CloseObserver s = new CloseObserver(-1);

    @Actor
    public void closer() {
        s.done();
    }

    @Actor
    public void observer(IIIIII_Result r) {
        s.observe(r);
    }

    @Arbiter
    public void check(IIIIII_Result r) {
        s.check(r);
    }
}
