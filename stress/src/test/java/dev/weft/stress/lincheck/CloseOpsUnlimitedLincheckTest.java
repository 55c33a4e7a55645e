package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;

/**
 * {@link CloseOpsLincheckTest} on an unlimited channel that starts with values 8 and 9 buffered.
 *
 * <p>On a0d3073 the model checker found Bug 2: thread 2's {@code error()} sets the bits and is
 * switched out in its sweep before the first cell; thread 1's {@code trySend(2)} returns "error"
 * and its {@code tryReceiveOrClosed()} then returns 8, a value the error had discarded.
 */
public class CloseOpsUnlimitedLincheckTest extends CloseOpsLincheckTest {
    public CloseOpsUnlimitedLincheckTest() {
        super(Channel.newUnlimitedChannel(), Spec.class, 8, 9);
    }

    /** {@link ChannelSpec.Unlimited} holding 8 and 9. */
    public static final class Spec extends ChannelSpec {
        public Spec() {
            super(-1);
            trySend(8);
            trySend(9);
        }
    }
}
