package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: select vs close (jox #38 shape: the closing thread tries to select the "closed" outcome of
 * a waiting select while another party selects a different clause). A {@code selectOrClosed}
 * receives from rendezvous channels {@code a} or {@code b}; the other thread
 * first closes {@code a} (done), then tries {@code b.trySend(2)}. The close must complete a
 * registered select with {@code ChannelDone} (or the select sees {@code a} closed when it starts),
 * so the later {@code trySend} finds at most a dead registration in {@code b} and must fail.
 *
 * <p>Result: (select code: 2 / -1 done, b.trySend, a.doneOrClosed code, arbiter b.tryReceive).
 *
 * <p>{@code 2, 1, 0, 0} is forbidden: the close returned before {@code trySend(2)} started, so
 * the biased select must report {@code a}'s close. Between 31fac97 and the fix it showed in about
 * 0.05% of samples (quick mode found it in every run): the close refused the registration of a
 * select that was still registering, returned, and {@code trySend(2)} put its value into the cell
 * the select had already claimed on {@code b}. Now the close parks until the select has
 * registered and completes it ({@code CloseMeetsRegisteringSelectTest} replays the interleaving).
 */
@JCStressTest
@Outcome(id = "-1, 0, 0, 0", expect = ACCEPTABLE, desc = "the close completed the select; the later trySend found a dead registration")
@Outcome(id = "2, 1, 0, 0", expect = FORBIDDEN, desc = "the select passed over a's close for a value sent after the close returned")
@State
public class SelectVsCloseThenSend {
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
    public void other(IIII_Result r) {
        r.r3 = Codes.of(a.doneOrClosed());
        r.r2 = Codes.bool(b.trySend(2));
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r4 = Codes.of(b.tryReceive());
    }
}
