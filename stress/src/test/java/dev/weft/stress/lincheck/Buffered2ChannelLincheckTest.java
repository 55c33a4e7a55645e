package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;

/**
 * Lincheck: {@code Channel.newBufferedChannel(2)} against {@link ChannelSpec.Buffered2}, with the
 * documented try-operation relaxation ({@link RelaxedTryOpsVerifier}).
 */
public class Buffered2ChannelLincheckTest extends AbstractChannelLincheckTest {
    public Buffered2ChannelLincheckTest() {
        super(Channel.newBufferedChannel(2));
    }

    @Override
    protected Class<?> spec() {
        return ChannelSpec.Buffered2.class;
    }
}
