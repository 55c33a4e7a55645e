package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Race: buffer expansion vs an interrupted sender. Capacity 1, pre-filled with 1, so
 * {@code send(2)} waits in the cell just past the buffer end. A {@code receive()} takes 1 and moves
 * the buffer end forward, which must either resume the waiting sender (its value enters the
 * buffer) or, if the interrupt won the CAS on that cell, skip the withdrawn cell and expand the
 * buffer by one more cell, so the capacity is not lost. The arbiter checks both, sending first:
 * a buffer that holds 2 takes no more, and one whose sender withdrew takes one value. (It used to
 * receive first; since stop 38 a try-send also counts the receivers' room, and after that receive
 * it would have found room even with the withdrawn cell never skipped.)
 *
 *
 * <p>jcstress runs at most as many actors as there are CPUs (2 here), so the interrupting thread
 * is also the resuming one: it interrupts the waiter and immediately tries to resume it. The
 * waiter's withdrawal CAS (after it wakes) races the resumer's CAS on the same cell.
 *
 * <p>Result: (send: 1 sent / -4 interrupted, received, sender's interrupt flag after its
 * operation, arbiter trySend(3), arbiter tryReceive, arbiter tryReceive).
 *
 * <p>The interrupter interrupts exactly once, and the victim reads its flag only after that
 * interrupt was delivered. So a normal completion must find the flag set (an interrupt is never
 * swallowed), and an {@code InterruptedException} must leave it clear (the one interrupt was
 * consumed by the throw). Both other combinations are forbidden.
 */
@JCStressTest
@Outcome(id = "1, 1, 1, 0, 2, 0", expect = ACCEPTABLE,
        desc = "send completed (2 fills the buffer); the interrupt (during or after it) is still pending in the flag")
@Outcome(id = "-4, 1, 0, 1, 3, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "interrupt won: nothing sent, buffer expanded past the withdrawn cell, so 3 fits")
@State
public class BufferExpansionVsInterruptedSender {
    final Channel<Integer> ch = Channel.newBufferedChannel(1);
    final Interruption interruption = new Interruption();

    public BufferExpansionVsInterruptedSender() {
        ch.trySend(1);
    }

    @Actor
    public void sender(IIIIII_Result r) {
        interruption.register();
        try {
            ch.send(2);
            r.r1 = 1;
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
        r.r3 = Codes.bool(interruption.awaitAndClear());
    }

    @Actor
    public void receiver(IIIIII_Result r) {
        interruption.interrupt();
        try {
            r.r2 = ch.receive();
        } catch (InterruptedException e) {
            r.r2 = Codes.INTERRUPTED;
        }
    }

    @Arbiter
    public void check(IIIIII_Result r) {
        r.r4 = Codes.bool(ch.trySend(3));
        r.r5 = Codes.of(ch.tryReceive());
        r.r6 = Codes.of(ch.tryReceive());
    }
}
