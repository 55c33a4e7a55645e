package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Race: {@code error(t)} vs a receiver that has claimed its cell but not yet taken the value
 * (issue 8, close linearizable, FIFO). Unlimited channel holding 1 and 2. One thread receives;
 * the other receives, then closes in error. If the second thread gets 2, value 1 was taken (or
 * claimed) before, by the first thread, before the error: the first thread must get 1. Found by
 * the Lincheck model checker ({@code CloseOpsUnlimitedLincheckTest}) after the first fix of Bug 2
 * (receivers that claimed a cell before the error but commit after it report the error): the
 * first receiver claims cell 0 and pauses; the second takes 2 from cell 1 and closes; the first
 * then reports the error, and value 1 is lost although 2, sent after it, was received before the
 * error.
 *
 * <p>Result: (receiveOrClosed code of thread 1, tryReceiveOrClosed code of thread 2, arbiter
 * tryReceiveOrClosed).
 */
@JCStressTest
@Outcome(id = "1, 2, -2", expect = ACCEPTABLE, desc = "thread 1 took 1, thread 2 took 2, then the error")
@Outcome(id = "2, 1, -2", expect = ACCEPTABLE, desc = "thread 2 took 1, thread 1 took 2 before the error")
@Outcome(id = "-2, 1, -2", expect = ACCEPTABLE, desc = "thread 2 took 1; thread 1 came after the error (2 discarded)")
@Outcome(id = "-2, 2, -2", expect = FORBIDDEN, desc = "2 received before the error, 1 lost")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class ErrorVsClaimedReceiver {
    static final RuntimeException BOOM = new RuntimeException("boom");
    final Channel<Integer> ch = Channel.newUnlimitedChannel();

    public ErrorVsClaimedReceiver() {
        ch.trySend(1);
        ch.trySend(2);
    }

    @Actor
    public void receiver(III_Result r) {
        r.r1 = Codes.of(ch.tryReceiveOrClosed());
    }

    @Actor
    public void receiverThenCloser(III_Result r) {
        r.r2 = Codes.of(ch.tryReceiveOrClosed());
        ch.errorOrClosed(BOOM);
    }

    @Arbiter
    public void check(III_Result r) {
        r.r3 = Codes.of(ch.tryReceiveOrClosed());
    }
}
