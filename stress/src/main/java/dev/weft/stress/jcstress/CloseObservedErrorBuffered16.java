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
 * Race: {@code error(t)} vs an observer (issue 8, Bug 2: {@code error()} not atomic for
 * receivers). The error discards buffered values and wakes waiting senders; it takes effect at one
 * instant, so once the observer has seen it ({@code isClosedForReceive()} true or a {@code
 * ChannelError}), no later receive may return a value. On a0d3073 receivers could still take a
 * buffered value (or meet a waiting sender) in the window between the error bits and the sweep
 * that discards the cells. Channel: capacity 16.
 *
 * <p>Setup, actors and result columns: see {@link CloseObserver}.
 */
@JCStressTest
@Outcome(id = "1, -2, 1, -2, 0, -2", expect = ACCEPTABLE, desc = "closed, error, closed, error; send of 2 completed")
@Outcome(id = "1, -2, 1, -2, -2, -2", expect = ACCEPTABLE, desc = "closed, error, closed, error; send of 2 refused or woken")
@Outcome(id = "0, 1, 1, -2, 0, -2", expect = ACCEPTABLE, desc = "open, 1, closed, error; send of 2 completed")
@Outcome(id = "0, 1, 1, -2, -2, -2", expect = ACCEPTABLE, desc = "open, 1, closed, error; send of 2 refused or woken")
@Outcome(id = "0, 1, 0, 2, 0, -2", expect = ACCEPTABLE, desc = "open, 1, open, 2; send of 2 completed")
@Outcome(id = "0, 1, 0, -2, 0, -2", expect = ACCEPTABLE, desc = "open, 1, open, error; send of 2 completed")
@Outcome(id = "0, 1, 0, -2, -2, -2", expect = ACCEPTABLE, desc = "open, 1, open, error; send of 2 refused or woken")
@Outcome(id = "0, -2, 1, -2, 0, -2", expect = ACCEPTABLE, desc = "open, error, closed, error; send of 2 completed")
@Outcome(id = "0, -2, 1, -2, -2, -2", expect = ACCEPTABLE, desc = "open, error, closed, error; send of 2 refused or woken")
@Outcome(id = "1, [12], .*", expect = FORBIDDEN, desc = "observed closed (first check), then got a value")
@Outcome(id = "., -[12], ., [12], .*", expect = FORBIDDEN, desc = "got the close, then a value")
@Outcome(id = "0, [12], 1, [12], .*", expect = FORBIDDEN, desc = "observed closed (second check), then got a value")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class CloseObservedErrorBuffered16 {
    final CloseObserver s = new CloseObserver(16);

    @Actor
    public void closer() {
        s.error();
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
