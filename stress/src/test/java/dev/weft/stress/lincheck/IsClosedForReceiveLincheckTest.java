package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: {@code isClosedForReceive}, {@code closedForReceive} and {@code isClosedForSend} with
 * trySend and done on a capacity-1 channel. (No receives here; {@link CloseOpsLincheckTest}
 * checks {@code isClosedForReceive} together with receives, done and error.)
 *
 * <p>Regression for a bug this test found (fixed in channels b4d8d4c/b18c636): {@code done();
 * trySend(x)} (rejected with {@code ChannelDone}) left {@code isClosedForReceive()} false on
 * buffered and unlimited channels, although the channel was closed and empty; the rejected send
 * still advanced the sender counter. Deterministic regression test: {@code
 * Kotlinx1419CloseLinearizableTest.closedForReceiveOnceDrainedEvenAfterARejectedSend}.
 */
public class IsClosedForReceiveLincheckTest {
    private final Channel<Integer> ch = Channel.newBufferedChannel(1);

    @Operation
    public Object trySend(@Param(gen = IntGen.class, conf = "1:4") int v) {
        return ChannelOps.trySend(ch, v);
    }

    @Operation
    public boolean isClosedForSend() {
        return ch.isClosedForSend();
    }

    @Operation
    public Object done() {
        return ChannelOps.done(ch);
    }

    @Operation
    public Object closedForReceive() {
        Object o = ch.closedForReceive();
        return o == null ? "open" : ChannelOps.closed(o);
    }

    @Operation
    public boolean isClosedForReceive() {
        return ch.isClosedForReceive();
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(30)
                .invocationsPerIteration(1000)
                .threads(2)
                .actorsPerThread(2)
                .actorsBefore(1)
                .actorsAfter(1)
                .sequentialSpecification(ChannelSpec.Buffered1.class)
                .check(IsClosedForReceiveLincheckTest.class);
    }
}
