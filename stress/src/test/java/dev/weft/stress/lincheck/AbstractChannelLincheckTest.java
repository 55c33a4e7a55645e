package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of the non-blocking channel operations (trySend, tryReceive, done, error and
 * the closed-state queries) against {@link ChannelSpec}, checked by Lincheck in model-checking
 * mode (systematic interleavings, with switch points at every shared-memory access) and in stress
 * mode. Surefire runs this module with {@code -Dweft.segmentSize=1}, so every cell is a segment of
 * its own and every operation crosses a segment boundary. Subclasses declare the {@code value}
 * parameter generator (class-level {@code @Param} is not inherited).
 */
public abstract class AbstractChannelLincheckTest {
    /** Read by the test methods; Lincheck creates a new instance (and channel) per scenario. */
    private final Channel<Integer> ch;

    protected AbstractChannelLincheckTest(Channel<Integer> ch) {
        this.ch = ch;
    }

    protected abstract Class<?> spec();

    @Operation
    public Object trySend(@Param(name = "value") int v) {
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
    public Object error() {
        return ChannelOps.error(ch);
    }

    @Operation
    public boolean isClosedForSend() {
        return ch.isClosedForSend();
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
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(1)
                .sequentialSpecification(spec())
                .check(getClass());
    }

    @Test
    void stress() {
        new StressOptions()
                .iterations(Integer.getInteger("lincheck.iterations", 30))
                .invocationsPerIteration(Integer.getInteger("lincheck.invocations", 1000))
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(1)
                .sequentialSpecification(spec())
                .check(getClass());
    }
}
