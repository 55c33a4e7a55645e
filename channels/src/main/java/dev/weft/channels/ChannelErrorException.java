package dev.weft.channels;

/**
 * Thrown when the channel was closed with {@link CloseableChannel#error(Throwable)}; {@link
 * #getCause()} is the reason passed to {@code error}.
 */
public final class ChannelErrorException extends ChannelClosedException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param cause the reason passed to {@code error}
     */
    public ChannelErrorException(Throwable cause) {
        super(cause);
    }
}
