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
 * Race: an interrupted select vs a sender completing it. A select waits on rendezvous channels
 * {@code a} and {@code b}; one thread interrupts it while another does {@code b.trySend(2)}. If
 * the interrupt wins the select state, the select throws {@code InterruptedException}, the send
 * fails and both registrations are withdrawn; if the sender wins, the select returns 2 (and the
 * interrupt flag is re-set if it arrived meanwhile).
 *
 *
 * <p>jcstress runs at most as many actors as there are CPUs (2 here), so the interrupting thread
 * is also the resuming one: it interrupts the waiter and immediately tries to resume it. The
 * waiter's withdrawal CAS (after it wakes) races the resumer's CAS on the same cell.
 *
 * <p>Result: (select: 2 / -4 interrupted, interrupt flag after it, b.trySend, arbiter
 * a.trySend + b.trySend (must be 0: no registration left)).
 *
 * <p>The interrupter interrupts exactly once, and the victim reads its flag only after that
 * interrupt was delivered. So a normal completion must find the flag set (an interrupt is never
 * swallowed), and an {@code InterruptedException} must leave it clear (the one interrupt was
 * consumed by the throw). Both other combinations are forbidden.
 */
@JCStressTest
@Outcome(id = "2, 1, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "sender won; the interrupt is still pending in the flag")
@Outcome(id = "-4, 0, 0, 0", expect = ACCEPTABLE, desc = "interrupt won; nothing received")
@State
public class InterruptedSelectVsSend {
    final Channel<Integer> a = Channel.newRendezvousChannel();
    final Channel<Integer> b = Channel.newRendezvousChannel();
    final Interruption interruption = new Interruption();

    @Actor
    public void selector(IIII_Result r) {
        interruption.register();
        try {
            Integer v = Select.select(a.receiveClause(), b.receiveClause());
            r.r1 = v;
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
        r.r2 = Codes.bool(interruption.awaitAndClear());
    }

    @Actor
    public void sender(IIII_Result r) {
        interruption.interrupt();
        r.r3 = Codes.bool(b.trySend(2));
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r4 = Codes.bool(a.trySend(8)) + Codes.bool(b.trySend(9));
    }
}
