package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Close as a linearizable event (issue 8): an operation model in which {@code error}, {@code
 * done}, {@code isClosedForReceive}, the receive and {@code trySend} are all operations, checked by
 * Lincheck's model checker against {@link ChannelSpec} (error discards buffered values, done keeps
 * them) with the documented spurious failure of try-operations under contention modelled by {@link
 * RelaxedTryOpsVerifier} (a close never excuses a failure). The channel starts with values
 * buffered (in the test and in the spec alike), so that every scenario races the close against
 * buffered values.
 *
 * <p>The receive is {@code tryReceiveOrClosed}, not the blocking {@code receiveOrClosed}:
 * Lincheck's operation model checks blocking operations only as Kotlin suspending functions; a
 * Java receive that parks with no partner in some generated scenario is reported as a deadlock,
 * not as "waits". The blocking receive is checked in {@link CloseObserverBlockingLincheckTest},
 * where every receive has a partner (a value or the close) by construction.
 *
 * <p>On a0d3073 this finds Bug 2 ({@code error()} not atomic for receivers): see the subclasses.
 */
public abstract class CloseOpsLincheckTest {
    private final Channel<Integer> ch;
    private final Class<? extends ChannelSpec> spec;

    protected CloseOpsLincheckTest(Channel<Integer> ch, Class<? extends ChannelSpec> spec, int... prefill) {
        this.ch = ch;
        this.spec = spec;
        for (int v : prefill) {
            if (!ch.trySend(v)) {
                throw new IllegalStateException("prefill " + v);
            }
        }
    }

    @Operation
    public Object trySend(@Param(gen = IntGen.class, conf = "1:4") int v) {
        return ChannelOps.trySend(ch, v);
    }

    @Operation
    public Object tryReceiveOrClosed() {
        return ChannelOps.tryReceive(ch);
    }

    @Operation
    public Object done() {
        return ChannelOps.done(ch);
    }

    @Operation
    public Object error() {
        return ChannelOps.error(ch);
    }

    @Operation
    public boolean isClosedForReceive() {
        return ch.isClosedForReceive();
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(Integer.getInteger("lincheck.iterations", 30))
                .invocationsPerIteration(Integer.getInteger("lincheck.invocations", 1000))
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1)
                .sequentialSpecification(spec)
                .verifier(RelaxedTryOpsVerifier.class)
                .check(getClass());
    }
}
