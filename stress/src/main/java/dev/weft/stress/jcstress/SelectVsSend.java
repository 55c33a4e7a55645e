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
 * Race: select vs send, and the stale registration it leaves. A select receives from rendezvous
 * channel {@code a} or buffered (1) channel {@code b}. The other thread first sends 2 to {@code
 * b} (which completes the select if it is registered there, or makes {@code b} ready for it) and
 * then {@code a.trySend(1)}. Registration is clause by clause, so the select may be registered in
 * {@code a} but not yet in {@code b} when 2 is buffered, and then {@code a.trySend} may complete
 * it (2 stays buffered). But once {@code b} completed the select, its registration in {@code a}
 * is dead, and the {@code trySend} that finds it there (racing the withdrawal) must treat it as
 * dead and fail: succeeding would hand 1 to nobody (the forbidden "22, 1, 1").
 *
 * <p>{@code b.trySend(2)} must not fail: {@code b} is empty. Until stop 38 this test accepted
 * "11, 0, 1, 0" as a spurious failure (seen once in CI on 2026-11-26, jcstress with tiny
 * segments): the select's receive registration in {@code b}'s cell 0 is visible before the select
 * moves {@code b}'s buffer end for it, the try-send refused the still-registering select there
 * and, at its next cell, found the buffer end not yet moved, so no room. A refused registration is
 * as if it never came, so that was a bug (it made {@code SelectInterruptTest} flaky); a sender
 * now counts the room of a receive from its count on, and the outcome is forbidden
 * ({@code TrySendBesideRegisteringSelectTest} replays it).
 *
 * <p>Result: (select: 11 = 1 from a, 22 = 2 from b, b.trySend, a.trySend, arbiter a.trySend +
 * b.tryReceive).
 */
@JCStressTest
@Outcome(id = "22, 1, 0, 0", expect = ACCEPTABLE, desc = "select took 2 from b; a's registration was dead")
@Outcome(id = "11, 1, 1, 2", expect = ACCEPTABLE_INTERESTING,
        desc = "select registered in a but not yet in b when 2 was buffered; a.trySend completed it, 2 stays in b")
@State
public class SelectVsSend {
    final Channel<Integer> a = Channel.newRendezvousChannel();
    final Channel<Integer> b = Channel.newBufferedChannel(1);

    @Actor
    public void selector(IIII_Result r) {
        try {
            r.r1 = Select.select(a.receiveClause(x -> 10 + x), b.receiveClause(x -> 20 + x));
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void sender(IIII_Result r) {
        r.r2 = Codes.bool(b.trySend(2));
        r.r3 = Codes.bool(a.trySend(1));
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r4 = Codes.bool(a.trySend(9)) + Codes.of(b.tryReceive());
    }
}
