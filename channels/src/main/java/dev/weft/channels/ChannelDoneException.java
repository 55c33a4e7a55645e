package dev.weft.channels;

/** Thrown when the channel is done: closed with {@link CloseableChannel#done()}. */
public final class ChannelDoneException extends ChannelClosedException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public ChannelDoneException() {}
}
