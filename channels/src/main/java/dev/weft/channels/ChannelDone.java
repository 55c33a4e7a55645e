package dev.weft.channels;

/**
 * The channel was closed with {@link CloseableChannel#done()}: no more values will be sent.
 *
 * @param channel the closed channel
 */
public record ChannelDone(Channel<?> channel) implements ChannelClosed {
    @Override
    public ChannelClosedException toException() {
        return new ChannelDoneException();
    }

    /**
     * One short line naming the channel by identity (not its cell dump, which lands in logs).
     *
     * @return {@code ChannelDone[channel=Channel@<hash>]}
     */
    @Override
    public String toString() {
        return "ChannelDone[channel=" + Descriptions.shortName(channel) + "]";
    }
}
