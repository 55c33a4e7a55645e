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
}
