package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Param;

/** Lincheck: {@code Channel.newBufferedChannel(1)} against {@link ChannelSpec.Buffered1}. */
@Param(name = "value", gen = IntGen.class, conf = "1:4")
public class Buffered1ChannelLincheckTest extends AbstractChannelLincheckTest {
    public Buffered1ChannelLincheckTest() {
        super(Channel.newBufferedChannel(1));
    }

    @Override
    protected Class<?> spec() {
        return ChannelSpec.Buffered1.class;
    }
}
