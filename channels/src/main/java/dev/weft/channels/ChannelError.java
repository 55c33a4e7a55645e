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

    /**
     * One short line: the cause's {@code toString()} and the channel by identity (not its cell
     * dump, which lands in logs).
     *
     * @return {@code ChannelError[cause=<cause>, channel=Channel@<hash>]}
     */
    @Override
    public String toString() {
        return "ChannelError[cause=" + cause + ", channel=" + Descriptions.shortName(channel) + "]";
    }
}
