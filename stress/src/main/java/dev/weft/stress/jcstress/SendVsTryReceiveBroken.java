package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Race: a receiver reaches a cell before its sender wrote it (BROKEN / poisoning). On a
 * rendezvous channel a blocking {@code send(1)} races a non-blocking {@code tryReceive()}. If the
 * receiver comes first it finds the cell empty and poisons it (CAS null to BROKEN); the sender
 * must then retry on a fresh cell (with 1-cell segments: a fresh segment) instead of waiting in
 * the poisoned one. The receiver then falls back to a timed receive (5 s, far longer than any
 * correct run) that must meet the retried sender.
 *
 * <p>Result: (send completed, how the value arrived: 1 = by tryReceive, 11 = by the fallback
 * receive, -5 = the fallback timed out, i.e. the sender was lost in a poisoned cell).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "tryReceive met the waiting sender")
@Outcome(id = "1, 11", expect = ACCEPTABLE_INTERESTING,
        desc = "tryReceive came first (cell poisoned or skipped); sender retried and met the fallback receive")
@State
public class SendVsTryReceiveBroken {
    final Channel<Integer> ch = Channel.newRendezvousChannel();

    @Actor
    public void sender(II_Result r) {
        try {
            ch.send(1);
            r.r1 = 1;
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void receiver(II_Result r) {
        Integer v = ch.tryReceive();
        if (v != null) {
            r.r2 = v;
            return;
        }
        try {
            v = ch.tryReceive(Duration.ofSeconds(5));
            r.r2 = v == null ? Codes.TIMEOUT : 10 + v;
        } catch (InterruptedException e) {
            r.r2 = Codes.INTERRUPTED;
        }
    }
}
