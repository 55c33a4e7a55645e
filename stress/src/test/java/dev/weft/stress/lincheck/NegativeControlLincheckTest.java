package dev.weft.stress.lincheck;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Negative control: the same operations and sequential specification as the weft tests, run
 * against a deliberately broken capacity-1 channel ({@link BrokenChannel}: check-then-act on the
 * buffer size and a non-atomic close). Lincheck's model checker MUST report it as
 * non-linearizable; if it ever passes, the harness (operations, spec, options) has stopped
 * testing anything. The same holds with {@link RelaxedTryOpsVerifier}, which only excuses failed
 * try-operations under contention.
 */
@Param(name = "value", gen = IntGen.class, conf = "1:4")
public class NegativeControlLincheckTest {
    private final BrokenChannel ch = new BrokenChannel(1);

    @Operation
    public Object trySend(@Param(name = "value") int v) {
        return ch.trySend(v);
    }

    @Operation
    public Object tryReceive() {
        return ch.tryReceive();
    }

    @Operation
    public Object done() {
        return ch.done();
    }

    @Operation
    public Object error() {
        return ch.error();
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
    void modelCheckerCatchesTheBrokenChannel() {
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () -> new ModelCheckingOptions()
                .iterations(30)
                .invocationsPerIteration(1000)
                .threads(3)
                .actorsPerThread(2)
                .sequentialSpecification(ChannelSpec.Buffered1.class)
                .check(NegativeControlLincheckTest.class));
        System.out.println("Negative control caught, as required:\n" + firstLines(e.getMessage(), 40));
        assertTrue(e.getMessage().contains("Invalid execution results") || e.getMessage().contains("= Invalid"),
                "expected a linearizability violation, got: " + e.getMessage());
    }

    /** The relaxation of failed try-operations must not hide the broken channel's bugs. */
    @Test
    void relaxedVerifierStillCatchesTheBrokenChannel() {
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () -> new ModelCheckingOptions()
                .iterations(30)
                .invocationsPerIteration(1000)
                .threads(3)
                .actorsPerThread(2)
                .sequentialSpecification(ChannelSpec.Buffered1.class)
                .verifier(RelaxedTryOpsVerifier.class)
                .check(NegativeControlLincheckTest.class));
        System.out.println("Negative control (relaxed verifier) caught, as required:\n" + firstLines(e.getMessage(), 40));
        assertTrue(e.getMessage().contains("Invalid execution results") || e.getMessage().contains("= Invalid"),
                "expected a linearizability violation, got: " + e.getMessage());
    }

    static String firstLines(String s, int n) {
        String[] lines = s.split("\n");
        return String.join("\n", java.util.Arrays.copyOf(lines, Math.min(n, lines.length)));
    }
}
