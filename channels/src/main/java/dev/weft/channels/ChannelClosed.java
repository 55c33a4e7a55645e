package dev.weft.channels;

/**
 * The value returned by the {@code ...OrClosed} operations when the channel is closed: either
 * {@link ChannelDone} or {@link ChannelError}.
 */
public sealed interface ChannelClosed permits ChannelDone, ChannelError {
    /**
     * Converts this closed value to the matching exception.
     *
     * @return a new {@link ChannelDoneException} or {@link ChannelErrorException}
     */
    ChannelClosedException toException();

    /**
     * The channel that is closed.
     *
     * @return the closed channel
     */
    Channel<?> channel();
}
