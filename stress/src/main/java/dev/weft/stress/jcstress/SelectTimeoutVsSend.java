package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: a select cancelled by its timeout vs a sender completing it. {@code
 * selectOrClosedWithin(20 us)} over two rendezvous channels races {@code a.trySend(1)}: the
 * timeout CASes the select state to cancelled, the sender CASes it to "clause a chosen". Either
 * the select returns 1 and the send succeeded, or it returns the timeout value and the send
 * failed; afterwards no stale registration may accept a value.
 *
 * <p>Result: (select result: 1 / -5 timeout value, a.trySend, arbiter a.trySend, arbiter
 * b.trySend).
 */
@JCStressTest
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "sender completed the select before the timeout")
@Outcome(id = "-5, 0, 0, 0", expect = ACCEPTABLE, desc = "timed out; nothing delivered")
@State
public class SelectTimeoutVsSend {
    final Channel<Integer> a = Channel.newRendezvousChannel();
    final Channel<Integer> b = Channel.newRendezvousChannel();

    @Actor
    public void selector(IIII_Result r) {
        try {
            r.r1 = Codes.of(Select.selectOrClosedWithin(Duration.ofNanos(20_000), Codes.TIMEOUT,
                    a.receiveClause(), b.receiveClause()));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void sender(IIII_Result r) {
        r.r2 = Codes.bool(a.trySend(1));
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r3 = Codes.bool(a.trySend(8));
        r.r4 = Codes.bool(b.trySend(9));
    }
}
