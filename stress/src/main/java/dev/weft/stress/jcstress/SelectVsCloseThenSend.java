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
 * Race: select vs close (jox #38 shape: the closing thread tries to select the "closed" outcome of
 * a waiting select while another party selects a different clause). A {@code selectOrClosed}
 * receives from rendezvous channels {@code a} or {@code b}; the other thread
 * first closes {@code a} (done), then tries {@code b.trySend(2)}. The close must complete a
 * registered select with {@code ChannelDone} (or the select sees {@code a} closed when it starts),
 * so the later {@code trySend} finds at most a dead registration in {@code b} and must fail.
 *
 * <p>Result: (select code: 2 / -1 done, b.trySend, a.doneOrClosed code, arbiter b.tryReceive).
 *
 * <p>{@code 2, 1, 0, 0} is a known limitation of the select's bias, documented on {@link Select}
 * (introduced by 31fac97, which stopped closing from waiting for a registering select; it shows in
 * about 0.01-0.1% of samples): the select registered its clause on {@code a}, then claimed a cell
 * of {@code b} while still registering; the close refused the registration on {@code a} (the
 * select was registering) and returned; {@code trySend(2)} then put its value into the cell that
 * the select had already claimed, so the select had to take it. Every value is still received
 * exactly once (the arbiter finds nothing left), and {@code a} delivers nothing after its close.
 * Fixing it needs the close to complete a registering select atomically with the select's own
 * commits (a descriptor), which is open work.
 */
@JCStressTest
@Outcome(id = "-1, 0, 0, 0", expect = ACCEPTABLE, desc = "the close completed the select; the later trySend found a dead registration")
@Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "known bias limitation (see the javadoc): the select, still registering, took the later value from the cell it had claimed on b")
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
