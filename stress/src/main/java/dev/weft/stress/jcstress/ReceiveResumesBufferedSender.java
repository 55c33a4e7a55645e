package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Race (jox #8): a {@code receive()} that resumes a sender waiting past the buffer end must also
 * expand the buffer. Capacity 1, pre-filled with 1; {@code send(2)} waits (or finds room if the
 * receive came first). Afterwards the buffer must hold 2 and take nothing more, and, once 2 is
 * taken, accept exactly one more value. A missing expand-buffer step leaves {@code send(2)}
 * waiting, so the actor never ends (jcstress reports the timeout); one step too many shows as a
 * successful {@code trySend(9)} into the full buffer. (Since stop 38 a try-send also counts the
 * receivers' room, so the {@code trySend(3)} after the arbiter's receive no longer shows a
 * missing step by itself.)
 *
 * <p>Result: (received, arbiter trySend(9) into the full buffer, tryReceive, trySend(3),
 * tryReceive).
 */
@JCStressTest
@Outcome(id = "1, 0, 2, 1, 3", expect = ACCEPTABLE, desc = "value 2 buffered, the buffer full, capacity intact")
@State
public class ReceiveResumesBufferedSender {
    final Channel<Integer> ch = Channel.newBufferedChannel(1);

    public ReceiveResumesBufferedSender() {
        ch.trySend(1);
    }

    @Actor
    public void sender() {
        try {
            ch.send(2);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Actor
    public void receiver(IIIII_Result r) {
        try {
            r.r1 = ch.receive();
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Arbiter
    public void check(IIIII_Result r) {
        r.r2 = Codes.bool(ch.trySend(9));
        r.r3 = Codes.of(ch.tryReceive());
        r.r4 = Codes.bool(ch.trySend(3));
        r.r5 = Codes.of(ch.tryReceive());
    }
}
