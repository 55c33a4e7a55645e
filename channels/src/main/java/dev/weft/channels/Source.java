package dev.weft.channels;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The receiving side of a channel.
 *
 * <p>Blocking receives wait with {@link java.util.concurrent.locks.LockSupport}, so they never pin
 * a virtual thread's carrier. Every blocking receive is atomic with respect to interruption and
 * timeout: when it throws {@link InterruptedException} or times out, it consumed nothing.
 *
 * @param <T> the type of values
 */
public interface Source<T> extends CloseableChannel {
    /**
     * Receives a value, waiting until one is available.
     *
     * @return the value
     * @throws InterruptedException when interrupted while waiting; nothing was consumed
     * @throws ChannelClosedException when the channel is done (and drained) or in error
     */
    T receive() throws InterruptedException;

    /**
     * Receives a value, waiting until one is available; returns the closed state instead of
     * throwing.
     *
     * @return the value, or a {@link ChannelClosed} when the channel is done (and drained) or in
     *     error
     * @throws InterruptedException when interrupted while waiting; nothing was consumed
     */
    Object receiveOrClosed() throws InterruptedException;

    /**
     * Receives a value if one is available right now: a buffered value or a waiting sender.
     * Never blocks (see {@link CloseableChannel} for the only, bounded, spins); a select that is
     * still registering in the cell it claims is not waited for. Under contention it may return {@code null} while a concurrent send is
     * completing; do not use it in a spin loop instead of {@link #receive()}.
     *
     * <p>The default implementation (as in jox, for classes that implement {@code Source}
     * themselves) calls {@link #tryReceiveOrClosed()}.
     *
     * @return the value, or {@code null} when none is available now
     * @throws ChannelClosedException when the channel is done (and drained) or in error
     */
    default T tryReceive() {
        return InterfaceDefaults.received(tryReceiveOrClosed());
    }

    /**
     * Like {@link #tryReceive()}, but returns the closed state instead of throwing.
     *
     * <p>The default implementation (as in jox) selects between {@link #receiveClause()} and a
     * default clause, so it never waits.
     *
     * @return the value, {@code null} when none is available now, or a {@link ChannelClosed}
     */
    default Object tryReceiveOrClosed() {
        return InterfaceDefaults.tryReceiveOrClosed(this);
    }

    /**
     * Receives a value, waiting at most {@code timeout} for one (like {@link
     * java.util.concurrent.BlockingQueue#poll(long, java.util.concurrent.TimeUnit)}). On timeout
     * the waiting receive is withdrawn exactly like an interrupted one: nothing is consumed. No
     * helper thread is used.
     *
     * <p>The default implementation, for classes that implement {@code Source} themselves, calls
     * {@link #tryReceiveOrClosed(Duration)}. (jox has no timed receive.)
     *
     * @param timeout how long to wait; not {@code null}, not negative; zero means do not wait
     * @return the value, or {@code null} on timeout
     * @throws InterruptedException when interrupted while waiting; nothing was consumed
     * @throws ChannelClosedException when the channel is done (and drained) or in error
     * @throws NullPointerException when {@code timeout} is {@code null}
     * @throws IllegalArgumentException when {@code timeout} is negative
     */
    default T tryReceive(Duration timeout) throws InterruptedException {
        return InterfaceDefaults.received(tryReceiveOrClosed(timeout));
    }

    /**
     * Like {@link #tryReceive(Duration)}, but returns the closed state instead of throwing.
     *
     * <p>The default implementation is {@link Select#selectOrClosedWithin} of {@link
     * #receiveClause()}.
     *
     * @param timeout how long to wait; not {@code null}, not negative
     * @return the value, {@code null} on timeout, or a {@link ChannelClosed}
     * @throws InterruptedException when interrupted while waiting; nothing was consumed
     * @throws NullPointerException when {@code timeout} is {@code null}
     * @throws IllegalArgumentException when {@code timeout} is negative
     */
    default Object tryReceiveOrClosed(Duration timeout) throws InterruptedException {
        return InterfaceDefaults.tryReceiveOrClosed(this, timeout);
    }

    /**
     * A select clause that receives a value from this channel; the select returns the value.
     *
     * @return a new clause
     */
    SelectClause<T> receiveClause();

    /**
     * A select clause that receives a value from this channel; the select returns {@code
     * callback} applied to it.
     *
     * <p>The value is received (consumed from the channel) before {@code callback} runs, and the
     * select's other clauses are withdrawn by then; if {@code callback} throws, the select throws
     * that exception and the value is lost (as in jox).
     *
     * @param callback applied to the received value, on the selecting thread
     * @param <U> the select's result type
     * @return a new clause
     */
    <U> SelectClause<U> receiveClause(Function<T, U> callback);

    /**
     * Receives every value and passes it to {@code consumer}, until the channel is done.
     *
     * @param consumer called with each value, in order
     * @throws InterruptedException when interrupted while waiting
     * @throws ChannelErrorException when the channel is closed in error
     */
    @SuppressWarnings("unchecked")
    default void forEach(Consumer<T> consumer) throws InterruptedException {
        while (true) {
            Object r = receiveOrClosed();
            // a value may itself be a ChannelClosed object: only the channel's own reason ends
            if (r instanceof ChannelClosed c && c == closedForReceive()) {
                if (c instanceof ChannelError e) {
                    throw e.toException();
                }
                return;
            }
            consumer.accept((T) r);
        }
    }

    /**
     * Receives every value until the channel is done and returns them in order.
     *
     * @return the received values
     * @throws InterruptedException when interrupted while waiting
     * @throws ChannelErrorException when the channel is closed in error
     */
    default List<T> toList() throws InterruptedException {
        List<T> list = new ArrayList<>();
        forEach(list::add);
        return list;
    }
}
