package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

import dev.weft.channels.Channel;
import dev.weft.channels.internal.StressAccess;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Race: a buffer expansion that skips a segment that does not exist yet vs the sender that creates
 * and bears that segment (segment births). Capacity {@code 5 * SIZE + 1}, so the channel has
 * births at every segment size; one value buffered. The receiver takes it, and its expansion moves
 * the buffer end past cell {@code 5 * SIZE + 1}, five segments beyond the list's tail (it skips) or
 * into a segment the sender has created meanwhile (it finds the segment, born or not yet). The
 * sender fills the buffer, one cell after another, creating those segments; its last send, into
 * that very cell, completes only through the expansion: the birth owns the cell if the expansion
 * moved the buffer end before the birth read it, and otherwise the expansion finds the sender
 * waiting (or the cell empty) and moves it into the buffer. Either way the buffer ends up holding
 * exactly its capacity, in order, and then takes exactly its capacity again.
 *
 * <p>Result: (received, sender done, arbiter trySend into the full buffer, the full buffer drained
 * in order (1), the empty buffer took exactly its capacity (1)).
 */
@JCStressTest
@Outcome(id = "0, 1, 0, 1, 1", expect = ACCEPTABLE, desc = "the slot is counted once, by the birth or by the expansion")
@State
public class ExpansionVsSegmentBirth {
    final int capacity = 5 * StressAccess.segmentSize() + 1; // births above 4 segments (the default)
    final Channel<Integer> ch = Channel.newBufferedChannel(capacity);

    public ExpansionVsSegmentBirth() {
        ch.trySend(0);
    }

    @Actor
    public void receiver(IIIII_Result r) {
        try {
            r.r1 = ch.receive();
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void sender(IIIII_Result r) {
        try {
            for (int v = 1; v <= capacity; v++) {
                ch.send(v);
            }
            r.r2 = 1;
        } catch (InterruptedException e) {
            r.r2 = Codes.INTERRUPTED;
        }
    }

    @Arbiter
    public void check(IIIII_Result r) {
        r.r3 = Codes.bool(ch.trySend(-1));
        boolean inOrder = true;
        for (int v = 1; v <= capacity; v++) {
            inOrder &= Integer.valueOf(v).equals(ch.tryReceive());
        }
        r.r4 = Codes.bool(inOrder && ch.tryReceive() == null);
        int taken = 0;
        while (taken <= capacity && ch.trySend(taken)) {
            taken++;
        }
        r.r5 = Codes.bool(taken == capacity);
    }
}
