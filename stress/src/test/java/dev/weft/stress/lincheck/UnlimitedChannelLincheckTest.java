package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Param;

/** Lincheck: {@code Channel.newUnlimitedChannel()} against {@link ChannelSpec.Unlimited}. */
@Param(name = "value", gen = IntGen.class, conf = "1:4")
public class UnlimitedChannelLincheckTest extends AbstractChannelLincheckTest {
    public UnlimitedChannelLincheckTest() {
        super(Channel.newUnlimitedChannel());
    }

    @Override
    protected Class<?> spec() {
        return ChannelSpec.Unlimited.class;
    }
}
