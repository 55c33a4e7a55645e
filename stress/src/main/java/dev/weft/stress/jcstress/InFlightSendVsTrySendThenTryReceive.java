package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: {@code trySend(1)} against {@code trySend(2); tryReceive()} on a buffered channel of
 * capacity 1. One of the two sends always succeeds: the first to claim a cell has room. The
 * documented relaxation of the try-operations (see {@code Sink.trySend} and {@code
 * Source.tryReceive}, as in jox and kotlinx.coroutines) shows here as {@code 1, 0, 0, 1}: the
 * second actor's {@code trySend(2)} counts the first actor's claimed but unwritten cell as full,
 * and its {@code tryReceive()} then poisons that cell and finds nothing; the first actor's send
 * retries and buffers 1, which the arbiter receives. Found by review of the fix for receivers that
 * give a cell up (TrySendAfterReceiverGaveUpTest). Before that fix the first actor's retry could
 * also find no room ({@code 0, 0, 0, 0}: both sends failed on an empty channel), which stays
 * forbidden.
 *
 * <p>Result: (trySend(1), trySend(2), the second actor's tryReceive, arbiter tryReceive).
 */
@JCStressTest
@Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "1 first; 2 finds it full and receives 1")
@Outcome(id = "0, 1, 2, 0", expect = ACCEPTABLE, desc = "2 first; 1 finds it full; 2 received")
@Outcome(id = "1, 1, 2, 1", expect = ACCEPTABLE, desc = "2 sent and received, then 1 sent")
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE_INTERESTING,
        desc = "documented relaxation: 1 in flight counted as full, then not seen by the receive")
@State
public class InFlightSendVsTrySendThenTryReceive {
    final Channel<Integer> ch = Channel.newBufferedChannel(1);

    @Actor
    public void sender(IIII_Result r) {
        r.r1 = Codes.bool(ch.trySend(1));
    }

    @Actor
    public void sendThenReceive(IIII_Result r) {
        r.r2 = Codes.bool(ch.trySend(2));
        r.r3 = Codes.of(ch.tryReceive());
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r4 = Codes.of(ch.tryReceive());
    }
}
