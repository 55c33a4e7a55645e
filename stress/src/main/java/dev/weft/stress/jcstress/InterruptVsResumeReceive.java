package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: interrupt vs resume on the receive side. A rendezvous receiver waits in its cell; a
 * sender tries to hand it a value (CAS waiter to the value / DONE) while another thread interrupts
 * it. If the sender won, the receive returns 1 (flag re-set if the interrupt arrived meanwhile);
 * if the interrupt won, the receive consumed nothing, so the value is still there for a second
 * (timed, 5 s) receive.
 *
 *
 * <p>jcstress runs at most as many actors as there are CPUs (2 here), so the interrupting thread
 * is also the resuming one: it interrupts the waiter and immediately tries to resume it. The
 * waiter's withdrawal CAS (after it wakes) races the resumer's CAS on the same cell.
 *
 * <p>Result: (first receive: value / -4 interrupted, interrupt flag after it, second receive: 0
 * not attempted / value / -5 timed out, send completed).
 *
 * <p>The interrupter interrupts exactly once, and the victim reads its flag only after that
 * interrupt was delivered. So a normal completion must find the flag set (an interrupt is never
 * swallowed), and an {@code InterruptedException} must leave it clear (the one interrupt was
 * consumed by the throw). Both other combinations are forbidden.
 */
@JCStressTest
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "sender won; the interrupt is still pending in the flag")
@Outcome(id = "-4, 0, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "interrupt won: value received by the retry")
@State
public class InterruptVsResumeReceive {
    final Channel<Integer> ch = Channel.newRendezvousChannel();
    final Interruption interruption = new Interruption();

    @Actor
    public void receiver(IIII_Result r) {
        interruption.register();
        boolean interrupted = false;
        try {
            r.r1 = ch.receive();
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
            interrupted = true;
        }
        r.r2 = Codes.bool(interruption.awaitAndClear());
        if (interrupted) {
            try {
                Integer v = ch.tryReceive(Duration.ofSeconds(5));
                r.r3 = v == null ? Codes.TIMEOUT : v;
            } catch (InterruptedException e) {
                r.r3 = Codes.INTERRUPTED;
            }
        }
    }

    @Actor
    public void sender(IIII_Result r) {
        interruption.interrupt();
        try {
            ch.send(1);
            r.r4 = 1;
        } catch (InterruptedException e) {
            r.r4 = Codes.INTERRUPTED;
        }
    }
}
