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
 * Race: interrupt vs resume on the send side. A rendezvous sender waits in its cell; a receiver
 * tries to resume it (CAS waiter to DONE) while another thread interrupts it (the sender then
 * tries to withdraw by CAS waiter to INTERRUPTED). Exactly one CAS wins. If the receiver won, the
 * send completes normally (with the interrupt flag set again if it arrived meanwhile); if the
 * interrupt won, the send throws {@code InterruptedException} having delivered nothing, and then
 * sends 2 (timed, 5 s) so that the receiver still terminates.
 *
 *
 * <p>jcstress runs at most as many actors as there are CPUs (2 here), so the interrupting thread
 * is also the resuming one: it interrupts the waiter and immediately tries to resume it. The
 * waiter's withdrawal CAS (after it wakes) races the resumer's CAS on the same cell.
 *
 * <p>Result: (first send: 1 sent / -4 interrupted, interrupt flag after it, second send: 0 not
 * attempted / 1 sent / -5 timed out, value received).
 *
 * <p>The interrupter interrupts exactly once, and the victim reads its flag only after that
 * interrupt was delivered. So a normal completion must find the flag set (an interrupt is never
 * swallowed), and an {@code InterruptedException} must leave it clear (the one interrupt was
 * consumed by the throw). Both other combinations are forbidden.
 */
@JCStressTest
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "receiver won; the interrupt is still pending in the flag")
@Outcome(id = "-4, 0, 1, 2", expect = ACCEPTABLE_INTERESTING, desc = "interrupt won: nothing delivered")
@State
public class InterruptVsResumeSend {
    final Channel<Integer> ch = Channel.newRendezvousChannel();
    final Interruption interruption = new Interruption();

    @Actor
    public void sender(IIII_Result r) {
        interruption.register();
        boolean interrupted = false;
        try {
            ch.send(1);
            r.r1 = 1;
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
            interrupted = true;
        }
        r.r2 = Codes.bool(interruption.awaitAndClear());
        if (interrupted) {
            try {
                r.r3 = ch.trySend(2, Duration.ofSeconds(5)) ? 1 : Codes.TIMEOUT;
            } catch (InterruptedException e) {
                r.r3 = Codes.INTERRUPTED;
            }
        }
    }

    @Actor
    public void receiver(IIII_Result r) {
        interruption.interrupt();
        try {
            r.r4 = ch.receive();
        } catch (InterruptedException e) {
            r.r4 = Codes.INTERRUPTED;
        }
    }
}
