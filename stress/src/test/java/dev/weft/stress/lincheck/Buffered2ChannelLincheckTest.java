package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;

/** Lincheck: {@code Channel.newBufferedChannel(2)} against {@link ChannelSpec.Buffered2}. */
@org.junit.jupiter.api.Tag("known-bug")
public class Buffered2ChannelLincheckTest extends AbstractChannelLincheckTest {
    public Buffered2ChannelLincheckTest() {
        super(Channel.newBufferedChannel(2));
    }

    @Override
    protected Class<?> spec() {
        return ChannelSpec.Buffered2.class;
    }
}
