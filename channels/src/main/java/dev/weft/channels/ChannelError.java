package dev.weft.channels;

/**
 * The channel was closed with {@link CloseableChannel#error(Throwable)}.
 *
 * @param cause the reason passed to {@code error}
 * @param channel the closed channel
 */
public record ChannelError(Throwable cause, Channel<?> channel) implements ChannelClosed {
    @Override
    public ChannelClosedException toException() {
        return new ChannelErrorException(cause);
    }
}
