package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: select vs close (jox #38 shape: the closing thread selects the "channel closed" outcome of
 * a waiting select while another party tries to select a different clause of it). A
 * {@code selectOrClosed} receives from rendezvous channels {@code a} or {@code b}; concurrently
 * {@code a.done()} and {@code b.trySend(2)}. Exactly one wins the select's state: the select
 * returns {@code ChannelDone} and then the {@code trySend} must have failed, or it returns 2 and
 * the {@code trySend} succeeded. A done-notification that lands after another clause won must be
 * ignored.
 *
 * <p>Result: (select code: 2 / -1 done, b.trySend, a.doneOrClosed code, arbiter b.tryReceive).
 */
@JCStressTest
@Outcome(id = "-1, 0, 0, 0", expect = ACCEPTABLE, desc = "select saw a done first")
@Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "trySend met the registered select before the close")
@State
public class SelectVsClose {
    final Channel<Integer> a = Channel.newRendezvousChannel();
    final Channel<Integer> b = Channel.newRendezvousChannel();

    @Actor
    public void selector(IIII_Result r) {
        try {
            r.r1 = Codes.of(Select.selectOrClosed(a.receiveClause(), b.receiveClause()));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void sender(IIII_Result r) {
        r.r2 = Codes.bool(b.trySend(2));
    }

    @Actor
    public void closer(IIII_Result r) {
        r.r3 = Codes.of(a.doneOrClosed());
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r4 = Codes.of(b.tryReceive());
    }
}
