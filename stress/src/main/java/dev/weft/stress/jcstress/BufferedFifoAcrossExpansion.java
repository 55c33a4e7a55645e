package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Race: per-sender FIFO across buffer expansion. On a capacity-1 channel a sender sends 1, 2, 3
 * (the later ones wait for the buffer end to move) while a receiver takes three values. Each
 * receive moves the buffer end and resumes at most the next waiting sender; values must come out
 * in the order sent, none twice, none lost.
 *
 * <p>Result: the three values received.
 */
@JCStressTest
@Outcome(id = "1, 2, 3", expect = ACCEPTABLE, desc = "FIFO")
@State
public class BufferedFifoAcrossExpansion {
    final Channel<Integer> ch = Channel.newBufferedChannel(1);

    @Actor
    public void sender() {
        try {
            ch.send(1);
            ch.send(2);
            ch.send(3);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Actor
    public void receiver(III_Result r) {
        try {
            r.r1 = ch.receive();
            r.r2 = ch.receive();
            r.r3 = ch.receive();
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }
}
