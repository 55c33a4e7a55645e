package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;

/**
 * {@link CloseOpsLincheckTest} on an unlimited channel that starts with values 8 and 9 buffered.
 *
 * <p>On a0d3073 the model checker found Bug 2: thread 2's {@code error()} sets the bits and is
 * switched out in its sweep before the first cell; thread 1's {@code trySend(2)} returns "error"
 * and its {@code tryReceiveOrClosed()} then returns 8, a value the error had discarded.
 *
 * <p>On main 366fe0c (first fix of Bug 2: a receiver that commits after the error reports it) it
 * finds the opposite: thread 1's {@code tryReceiveOrClosed()} claims cell 0 (value 8) and is
 * switched out before it takes the value; thread 2's {@code tryReceiveOrClosed()} returns 9 and its
 * {@code error()} closes; thread 1 then returns "error". 9 was received before the error while 8,
 * sent before it, was lost. Also caught on real threads: jcstress {@code ErrorVsClaimedReceiver}.
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
