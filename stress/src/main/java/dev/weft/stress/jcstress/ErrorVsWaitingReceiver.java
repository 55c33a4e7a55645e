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
 * Race: {@code error(t)} vs a waiting rendezvous receiver. The other thread first tries to hand
 * the receiver a value ({@code trySend}: succeeds only if the receiver is already waiting), then
 * closes in error. Closing must wake a receiver still waiting exactly once, with {@code
 * ChannelError}; a receiver that got the value must not also be woken by the close.
 *
 * <p>Result: (receiveOrClosed code, trySendOrClosed code: 0 sent / -3 not sent, errorOrClosed
 * code, arbiter isClosedForReceive).
 */
@JCStressTest
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "trySend met the waiting receiver, then the error")
@Outcome(id = "-2, -3, 0, 1", expect = ACCEPTABLE, desc = "no receiver waiting yet; the error woke or met it")
@State
public class ErrorVsWaitingReceiver {
    static final RuntimeException BOOM = new RuntimeException("boom");
    final Channel<Integer> ch = Channel.newRendezvousChannel();

    @Actor
    public void receiver(IIII_Result r) {
        try {
            r.r1 = Codes.of(ch.receiveOrClosed());
        } catch (InterruptedException e) {
            r.r1 = Codes.INTERRUPTED;
        }
    }

    @Actor
    public void senderThenCloser(IIII_Result r) {
        r.r2 = Codes.of(ch.trySendOrClosed(1));
        r.r3 = Codes.of(ch.errorOrClosed(BOOM));
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r4 = Codes.bool(ch.isClosedForReceive());
    }
}
