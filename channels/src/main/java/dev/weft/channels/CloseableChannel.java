package dev.weft.channels;

/**
 * A channel that can be closed, once, either as done ({@link #done()}: no more values will be
 * sent, buffered values are still received) or in error ({@link #error(Throwable)}: buffered
 * values are discarded and every party gets the error).
 *
 * <p>Closing a closed channel throws {@link ChannelClosedException} (or, from the {@code
 * ...OrClosed} forms, returns the original {@link ChannelClosed}). All methods are thread-safe
 * and never block: they never park and never wait for another operation to make progress. The
 * only waits are a few spins on a cell that another running thread holds for a handful of
 * instructions (it never waits while holding it), and, in {@code isClosedForReceive()} right
 * after a close, on the closing thread's next instruction (publishing the sender count it
 * closed at). {@code done()} and {@code error()} take time linear in the number of cells that
 * still hold values or waiters.
 */
public interface CloseableChannel {
    /**
     * Closes the channel as done: later sends fail, receivers get the values already sent and then
     * {@link ChannelDone}.
     *
     * @throws ChannelClosedException when the channel is already closed
     */
    void done();

    /**
     * Like {@link #done()}, but returns instead of throwing.
     *
     * @return {@code null} when this call closed the channel, otherwise the {@link ChannelClosed}
     *     that describes how it was closed before
     */
    Object doneOrClosed();

    /**
     * Closes the channel in error: buffered values are discarded, and waiting and later senders and
     * receivers get {@link ChannelError} with this reason.
     *
     * @param reason the cause, not {@code null}
     * @throws NullPointerException when {@code reason} is {@code null}
     * @throws ChannelClosedException when the channel is already closed
     */
    void error(Throwable reason);

    /**
     * Like {@link #error(Throwable)}, but returns instead of throwing when already closed.
     *
     * @param reason the cause, not {@code null}
     * @return {@code null} when this call closed the channel, otherwise the {@link ChannelClosed}
     *     that describes how it was closed before
     * @throws NullPointerException when {@code reason} is {@code null}
     */
    Object errorOrClosed(Throwable reason);

    /**
     * Whether sending is no longer possible (the channel is done or in error).
     *
     * <p>The default implementation (as in jox) is {@code closedForSend() != null}.
     *
     * @return {@code true} once the channel is closed
     */
    default boolean isClosedForSend() {
        return closedForSend() != null;
    }

    /**
     * Whether receiving is no longer possible: the channel is in error, or done with every value
     * already received.
     *
     * <p>The default implementation (as in jox) is {@code closedForReceive() != null}.
     *
     * @return {@code true} when a receive would return a {@link ChannelClosed}
     */
    default boolean isClosedForReceive() {
        return closedForReceive() != null;
    }

    /**
     * How the channel is closed for sending.
     *
     * @return {@code null} when open, otherwise the {@link ChannelClosed} reason
     */
    ChannelClosed closedForSend();

    /**
     * How the channel is closed for receiving.
     *
     * @return {@code null} when values may still be received, otherwise the {@link ChannelClosed}
     *     reason
     */
    ChannelClosed closedForReceive();
}
