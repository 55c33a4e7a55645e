package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import org.jetbrains.lincheck.datastructures.verifier.LinearizabilityVerifier;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;

/** Lincheck: {@code Channel.newUnlimitedChannel()} against {@link ChannelSpec.Unlimited}. */
public class UnlimitedChannelLincheckTest extends AbstractChannelLincheckTest {
    public UnlimitedChannelLincheckTest() {
        super(Channel.newUnlimitedChannel());
    }

    @Override
    protected Class<?> spec() {
        return ChannelSpec.Unlimited.class;
    }

    /** Strict: no relaxation needed so far (a trySend never fails on an unlimited channel). */
    @Override
    protected Class<? extends Verifier> verifier() {
        return LinearizabilityVerifier.class;
    }
}
