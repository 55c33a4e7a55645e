package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * STATUS (lead, after channels fixes 34ec3df/a04dc57): the unlimited-channel runs pass; the
 * buffered ones still report try-operations that fail spuriously: a {@code trySend} reports
 * "full" in the window between a concurrent receive's CAS (which takes the value) and that
 * receive's buffer expansion. weft, like jox ("may fail even when space is available, due to
 * contention") and kotlinx.coroutines, does not promise strict linearizability of failed
 * try-operations, so the buffered subclasses stay excluded (tag {@code known-bug}; the unlimited one runs); the limitation is
 * documented on {@code Sink.trySend} and {@code Source.tryReceive}.
 *
 * Linearizability of the non-blocking channel operations (trySend, tryReceive, done and the
 * closed-state query isClosedForSend; error() and the closed-for-receive queries have their own
 * tests, {@link ErrorVsTryReceiveLincheckTest} and {@link IsClosedForReceiveLincheckTest}, tagged
 * known-bug while the bugs they found are open)
 *
 * <p>Tagged {@code known-bug} itself for now (excluded from the default build; {@code
 * -Dstress.excludedGroups=none} runs it): the model checker finds {@code tryReceive()} returning
 * "empty" on a channel that is never empty during the call. Trace (unlimited): after {@code
 * trySend(2)}, thread 2's {@code tryReceive} reads {@code senders() == 1}, is switched out while
 * thread 1 runs {@code trySend(3); tryReceive() -> 2}, then reads {@code receivers() == 1} and
 * concludes "empty" from the two reads taken at different times. On capacity 1 the same kind of
 * stale read makes {@code trySend} report "full" on an empty channel, and the stress mode saw two
 * {@code trySend}s succeed on capacity 1 with one receive, racing {@code done()}. against {@link ChannelSpec}, checked by Lincheck in model-checking
 * mode (systematic interleavings, with switch points at every shared-memory access) and in stress
 * mode. Surefire runs this module with {@code -Dweft.segmentSize=1}, so every cell is a segment of
 * its own and every operation crosses a segment boundary.
 */
public abstract class AbstractChannelLincheckTest {
    /** Read by the test methods; Lincheck creates a new instance (and channel) per scenario. */
    private final Channel<Integer> ch;

    protected AbstractChannelLincheckTest(Channel<Integer> ch) {
        this.ch = ch;
    }

    protected abstract Class<?> spec();

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
    public boolean isClosedForSend() {
        return ch.isClosedForSend();
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(Integer.getInteger("lincheck.iterations", 15))
                .invocationsPerIteration(Integer.getInteger("lincheck.invocations", 500))
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
                .iterations(Integer.getInteger("lincheck.iterations", 15))
                .invocationsPerIteration(Integer.getInteger("lincheck.invocations", 500))
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(1)
                .sequentialSpecification(spec())
                .check(getClass());
    }
}
