package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;

/**
 * Lincheck: {@code Channel.newBufferedChannel(1)} against {@link ChannelSpec.Buffered1}, with the
 * documented try-operation relaxation ({@link RelaxedTryOpsVerifier}).
 */
public class Buffered1ChannelLincheckTest extends AbstractChannelLincheckTest {
    public Buffered1ChannelLincheckTest() {
        super(Channel.newBufferedChannel(1));
    }

    @Override
    protected Class<?> spec() {
        return ChannelSpec.Buffered1.class;
    }
}
