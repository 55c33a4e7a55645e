package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * STATUS (lead, after channels fixes 34ec3df/a04dc57): the unlimited-channel runs pass; the
 * buffered ones still report try-operations that fail spuriously: a {@code trySend} reports
 * "full" in the window between a concurrent receive's CAS (which takes the value) and that
 * receive's buffer expansion. weft, like jox ("may fail even when space is available, due to
 * contention") and kotlinx.coroutines, does not promise strict linearizability of failed
 * try-operations, so these strict specs stay excluded (tag {@code known-bug}); the limitation is
 * documented on {@code Sink.trySend} and {@code Source.tryReceive}.
 *
 * Lincheck: {@code error()} with trySend and tryReceive on a capacity-1 channel.
 *
 * <p>Known bug (tagged {@code known-bug}, excluded from the default build; run with {@code
 * -Dstress.excludedGroups=none}): with a value buffered, a {@code tryReceive} racing {@code
 * error()} can return "nothing available" ({@code null}), which neither order allows (before the
 * error it gets the value, after it the {@code ChannelError}). Model checker's trace: {@code
 * trySend(2): sent}, then {@code error(): closed; tryReceive(): error} in one thread and {@code
 * tryReceive(): empty} in the other. On real threads the window is narrow (not seen in 50,000
 * tries); the model checker finds it in seconds.
 */
@Tag("known-bug")
public class ErrorVsTryReceiveLincheckTest {
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
    public Object error() {
        return ChannelOps.error(ch);
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
                .check(ErrorVsTryReceiveLincheckTest.class);
    }
}
