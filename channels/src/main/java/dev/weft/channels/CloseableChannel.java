package dev.weft.channels;

/**
 * A channel that can be closed, once, either as done ({@link #done()}: no more values will be
 * sent, buffered values are still received) or in error ({@link #error(Throwable)}: buffered
 * values are discarded and every party gets the error).
 *
 * <p>Closing a closed channel throws {@link ChannelClosedException} (or, from the {@code
 * ...OrClosed} forms, returns the original {@link ChannelClosed}). All methods are thread-safe.
 * They never wait for another operation to make progress (a waiting operation is woken, not
 * waited for), with one exception: {@code done()} or {@code error()} that meets the registration
 * of a {@link Select} that is still registering its other clauses parks until that select stops
 * registering (so does a blocking send that claimed its cell before an {@code error()} and finds
 * such a registration there after it) (its own work, which includes registering again clauses that other operations
 * refused meanwhile; it never waits for the closing thread). If the select then waits, the close
 * completes it with this channel's close; if it completed or timed out meanwhile, the close
 * leaves it. A registration that another operation refused before the close is not met by the
 * close; the select registers such a clause again, in its registration order, before it
 * registers its next clause, and then finds the close. So a select does not pass over a close
 * for a clause later in its registration order that became ready only after the close returned
 * (an earlier clause may still win: the select is biased), with one known gap for a select
 * that registers: a refusal that lands while the select is inside the registration of that
 * later clause (running, descheduled, or parked there until another select stops registering),
 * when that clause then completes with
 * a partner that arrived after the close returned. (A try-send or a select's send clause that
 * claimed its cell before an {@code error()} and reads the error after it refuses a registering
 * select it finds there, instead of waiting: such a refusal falls under the same gap.) A select
 * with a default clause registers nothing: it tries its clauses in order as try-operations, so a
 * close that lands between two of those tries is passed over the same way. (A virtual thread
 * that calls {@code done()} while pinned to its carrier, inside a
 * native frame or a class initializer, then blocks that carrier while it waits.) {@code
 * isClosedForSend()} and {@code isClosedForReceive()} never park. The
 * only other waits are spins for another thread's next few instructions, during which that
 * thread cannot park or wait: on a cell that another operation holds while it completes or
 * refuses a select registration, and, in {@code done()}, {@code error()} and {@code
 * isClosedForReceive()} right after a close, on the publication of the counter that the close
 * froze, by the thread whose atomic update closed the channel. {@code done()} and {@code error()}
 * take time linear in the number of cells that still hold values or waiters. The try-operations
 * of {@link Sink} and {@link Source} wait the same way, and a try-receive whose cell's sender has
 * claimed the cell but not yet written it spins at most 64 times before it skips the cell. A send
 * (also a try-send) whose cell a receiver has just given up in a buffered channel spins while that
 * receiver moves the buffer end past the cell: one buffer expansion, which never parks, yields or
 * waits for another operation.
 */
public interface CloseableChannel {
    /**
     * Closes the channel as done: later sends fail, receivers get the values already sent and then
     * {@link ChannelDone}. A send already waiting when it is called (in a rendezvous channel, or
     * for room in a full buffer) is not failed: as in jox, it keeps waiting and completes
     * normally when a receiver takes its value, so, like any waiting send, it waits for ever if no
     * receiver comes. Receivers get the buffered values first, then those waiting sends' values
     * in the order the sends began.
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
