package dev.weft.channels;

/**
 * Thrown by the throwing operations ({@code send}, {@code receive}, {@code select}, ...) when the
 * channel is closed. See {@link ChannelDoneException} and {@link ChannelErrorException}.
 */
public sealed class ChannelClosedException extends RuntimeException
        permits ChannelDoneException, ChannelErrorException {
    private static final long serialVersionUID = 1L;

    /** Creates an exception without a cause. */
    public ChannelClosedException() {}

    /**
     * Creates an exception with a cause.
     *
     * @param cause the cause
     */
    public ChannelClosedException(Throwable cause) {
        super(cause);
    }
}
