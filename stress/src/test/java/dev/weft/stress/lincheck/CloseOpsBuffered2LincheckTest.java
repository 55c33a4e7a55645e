package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;

/**
 * {@link CloseOpsLincheckTest} on a capacity-2 channel that starts with value 9 buffered.
 *
 * <p>On a0d3073 the model checker found Bug 2: thread 1's {@code error()} sets the closed and
 * error bits and is switched out before its sweep; thread 2's {@code isClosedForReceive()} returns
 * true (it answers from the error bits) and its {@code tryReceiveOrClosed()} then takes 9 from the
 * buffer; the sweep, resumed, reads the receiver count (1) late and leaves that cell to the
 * receiver.
 *
 * <p>On main 366fe0c (first fix of Bug 2) it finds: thread 1's {@code tryReceiveOrClosed()} claims
 * cell 0 (value 9) and is switched out; thread 2's {@code tryReceiveOrClosed()} returns "empty"
 * (the only cell is claimed) and its {@code error()} closes; thread 1 then returns "error". No
 * linearization has the channel empty before the error: 9 was lost, not received.
 */
public class CloseOpsBuffered2LincheckTest extends CloseOpsLincheckTest {
    public CloseOpsBuffered2LincheckTest() {
        super(Channel.newBufferedChannel(2), Spec.class, 9);
    }

    /** {@link ChannelSpec.Buffered2} holding 9. */
    public static final class Spec extends ChannelSpec {
        public Spec() {
            super(2);
            trySend(9);
        }
    }
}
