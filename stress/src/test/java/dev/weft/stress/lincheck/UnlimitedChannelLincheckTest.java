package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;

/** Lincheck: {@code Channel.newUnlimitedChannel()} against {@link ChannelSpec.Unlimited}. */
public class UnlimitedChannelLincheckTest extends AbstractChannelLincheckTest {
    public UnlimitedChannelLincheckTest() {
        super(Channel.newUnlimitedChannel());
    }

    @Override
    protected Class<?> spec() {
        return ChannelSpec.Unlimited.class;
    }
}
