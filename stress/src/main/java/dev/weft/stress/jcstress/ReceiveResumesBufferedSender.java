package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race (jox #8): a {@code receive()} that resumes a sender waiting past the buffer end must also
 * expand the buffer. Capacity 1, pre-filled with 1; {@code send(2)} waits (or finds room if the
 * receive came first). Afterwards the buffer must hold 2 and, once that is taken, accept exactly
 * one more value. A missing expand-buffer step shows as a failed arbiter {@code trySend(3)}.
 *
 * <p>Result: (received, arbiter tryReceive, arbiter trySend(3), arbiter tryReceive).
 */
@JCStressTest
@Outcome(id = "1, 2, 1, 3", expect = ACCEPTABLE, desc = "value 2 buffered, capacity intact")
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
    public void receiver(IIII_Result r) {
        try {
            r.r1 = ch.receive();
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r2 = Codes.of(ch.tryReceive());
        r.r3 = Codes.bool(ch.trySend(3));
        r.r4 = Codes.of(ch.tryReceive());
    }
}
