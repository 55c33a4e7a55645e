package dev.weft.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.channels.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race: a {@code trySend} into an empty buffer of one, against another actor's {@code trySend},
 * {@code done()} and {@code tryReceive}, in that order. The buffer holds one value and nothing is
 * received before the close, so at most one of the two try-sends may report "sent". A try-send
 * that passed its room check, lost the room to the other actor's send, claimed the cell beyond the
 * buffer end before the close and looked at it only after the receive made room, used to buffer
 * its value and report "sent" as well (Lincheck {@code Buffered1ChannelLincheckTest}, CI of stop
 * 22; replayed step by step in {@code TrySendAcrossDoneTest}).
 *
 * <p>Result: (first actor's trySend, second actor's trySend, its tryReceive after done, arbiter's
 * tryReceive). A send is 1 when sent, else its code ({@code -3} no room, {@code -1} closed);
 * receives are the value or {@code -1} (done).
 */
@JCStressTest
@Outcome(id = "1, -3, 1, -1", expect = ACCEPTABLE, desc = "first sent, second found the buffer full")
@Outcome(id = "-3, 1, 2, -1", expect = ACCEPTABLE, desc = "second sent, first found the buffer full")
@Outcome(id = "-1, 1, 2, -1", expect = ACCEPTABLE, desc = "second sent, first came after the close or withdrew at it")
@Outcome(
        id = "-1, -3, -1, -1",
        expect = ACCEPTABLE_INTERESTING,
        desc = "the second saw the first's claim as a full buffer; the receive after the close gave up"
                + " waiting for the first, which then found the close: a try-send may fail while another"
                + " send is in flight")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "two values sent into a buffer of one with no receive before the close")
@State
public class TrySendsAcrossDoneBuffered1 {
    final Channel<Integer> ch = Channel.newBufferedChannel(1);

    @Actor
    public void trySend(IIII_Result r) {
        r.r1 = sendCode(ch.trySendOrClosed(1));
    }

    @Actor
    public void trySendThenDoneThenReceive(IIII_Result r) {
        r.r2 = sendCode(ch.trySendOrClosed(2));
        ch.done();
        r.r3 = Codes.of(ch.tryReceiveOrClosed());
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r4 = Codes.of(ch.tryReceiveOrClosed());
    }

    private static int sendCode(Object o) {
        return o == null ? 1 : Codes.of(o);
    }
}
