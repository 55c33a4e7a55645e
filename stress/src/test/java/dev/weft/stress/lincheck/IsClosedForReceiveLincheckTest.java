package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: {@code isClosedForReceive} and {@code closedForReceive} with trySend, tryReceive and
 * done on a capacity-1 channel.
 *
 * <p>Known bug (tagged {@code known-bug}, excluded from the default build; run with {@code
 * -Dstress.excludedGroups=none}): {@code done(); trySend(x)} (rejected with {@code ChannelDone})
 * leaves {@code isClosedForReceive()} false on buffered and unlimited channels, although the
 * channel is closed and empty; the rejected send still advanced the sender counter. Minimal repro:
 * {@code dev.weft.stress.repro.IsClosedForReceiveAfterRejectedSend}.
 */
@Tag("known-bug")
public class IsClosedForReceiveLincheckTest {
    private final Channel<Integer> ch = Channel.newBufferedChannel(1);

    @Operation
    public Object trySend(@Param(gen = IntGen.class, conf = "1:4") int v) {
        return ChannelOps.trySend(ch, v);
    }

    @Operation
    public Object tryReceive() {
        return ChannelOps.tryReceive(ch);
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
