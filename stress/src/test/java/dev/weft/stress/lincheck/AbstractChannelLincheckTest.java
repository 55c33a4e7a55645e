package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of the non-blocking channel operations (trySend, tryReceive, done and the
 * closed-state query isClosedForSend) against {@link ChannelSpec}, checked by Lincheck in
 * model-checking mode (systematic interleavings, with switch points at every shared-memory access)
 * and in stress mode. Surefire runs this module with {@code -Dweft.segmentSize=1}, so every cell
 * is a segment of its own and every operation crosses a segment boundary. {@code error()} and the
 * closed-for-receive queries are checked by {@link CloseOpsLincheckTest}, {@link
 * ErrorVsTryReceiveLincheckTest} and {@link IsClosedForReceiveLincheckTest}.
 *
 * <p>Buffered channels are checked with {@link RelaxedTryOpsVerifier}: a try-operation that failed
 * while another thread's send overlapped it may have failed spuriously (documented on {@code
 * Sink.trySend} and {@code Source.tryReceive}, as in jox). On capacity 2, for example, a {@code
 * trySend} claims the last free cell, is refused by a concurrent {@code done()} (its segment did
 * not exist yet), and a concurrent {@code trySend} that saw the cell claimed reported "full". A
 * concurrent receive excused a "full" as well until stop 38, and so this test could not see a
 * bug: on capacity 1 after {@code trySend(2)}, thread 1's {@code tryReceive()} takes 2 (its CAS)
 * and is switched out before it moves the buffer end; thread 2's {@code tryReceive()} then finds
 * nothing (correct) and, after it, thread 3's {@code trySend(3)} reported "full" on a channel that
 * is empty in every linearization. Senders now count the room a counted receive makes before its
 * buffer-end move, and without the receive's excuse the model check of capacity 1 finds that
 * interleaving on the code before the fix. The unlimited channel is checked strictly.
 */
public abstract class AbstractChannelLincheckTest {
    /** Read by the test methods; Lincheck creates a new instance (and channel) per scenario. */
    private final Channel<Integer> ch;

    protected AbstractChannelLincheckTest(Channel<Integer> ch) {
        this.ch = ch;
    }

    protected abstract Class<?> spec();

    /** The verifier: {@link RelaxedTryOpsVerifier} unless a subclass is checked strictly. */
    protected Class<? extends Verifier> verifier() {
        return RelaxedTryOpsVerifier.class;
    }

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
                .verifier(verifier())
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
                .verifier(verifier())
                .check(getClass());
    }
}
