package dev.weft.channels;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The sending side of a channel.
 *
 * <p>Blocking sends wait with {@link java.util.concurrent.locks.LockSupport}, so they never pin a
 * virtual thread's carrier. Every blocking send is atomic with respect to interruption and
 * timeout: when it throws {@link InterruptedException} or times out, it delivered nothing.
 *
 * @param <T> the type of values
 */
public interface Sink<T> extends CloseableChannel {
    /**
     * Returned by {@link #trySendOrClosed(Object)} and {@link #trySendOrClosed(Object, Duration)}
     * when the value was not sent (no receiver and no buffer space, or the timeout elapsed).
     */
    Object NOT_SENT = new Object() {
        @Override
        public String toString() {
            return "NOT_SENT";
        }
    };

    /**
     * Sends a value, waiting until a receiver takes it (rendezvous) or there is buffer space.
     *
     * @param value the value, not {@code null}
     * @throws InterruptedException when interrupted while waiting; nothing was delivered
     * @throws ChannelClosedException when the channel was closed before the send took effect:
     *     a {@link ChannelDoneException} after {@link #done()}, a {@link ChannelErrorException}
     *     after {@link #error(Throwable)}, which also fails a send that is still waiting. A send
     *     already waiting when {@code done()} is called is not failed: it completes when a
     *     receiver takes its value (see {@link #done()})
     * @throws NullPointerException when {@code value} is {@code null}
     */
    void send(T value) throws InterruptedException;

    /**
     * Like {@link #send(Object)}, but returns the closed state instead of throwing.
     *
     * @param value the value, not {@code null}
     * @return {@code null} when sent, or a {@link ChannelClosed}
     * @throws InterruptedException when interrupted while waiting; nothing was delivered
     * @throws NullPointerException when {@code value} is {@code null}
     */
    Object sendOrClosed(T value) throws InterruptedException;

    /**
     * Sends a value if that is possible right now: a receiver is waiting, or there is buffer
     * space. Never blocks (see {@link CloseableChannel} for the only, bounded, spins); a select that
     * is still registering in the cell it claims is not waited for: its registration is refused
     * and the select registers again. Like jox's and kotlinx's, it is not linearizable under
     * contention in one way: it counts a concurrent send that has claimed its place but not yet
     * completed as occupying the buffer, while a concurrent {@link Source#tryReceive()} may not see
     * that send's value yet; and if that send then fails or withdraws (a try-send that found no
     * room after all, a receiver gave up waiting for it, or it was interrupted or timed out while
     * waiting), its place counts as occupied until a receive moves the buffer end past it. It does
     * not fail because of a concurrent receive alone: a receive that took a value, started waiting
     * (also a select's receive clause that this send refused while the select was still
     * registering) or gave its own cell up makes room from the moment it counted itself, before
     * it moves the buffer end.
     *
     * <p>Around a concurrent close it takes effect inside its call. If the place it claims had
     * room, or a receiver that had already claimed it, when it checked, it takes effect at its
     * claim: a {@code done()} that returns before it finishes does not refuse it, unless that
     * receiver gives up waiting for it first (then it reports the close, as if it came after it).
     * If another sender took that room first and it finds room only later, it sends only if the
     * channel is still open then; otherwise it reports the close (a receive that came after a
     * close must not make room for it). An {@code error()} that comes before it has written its
     * value makes it report the error.
     *
     * <p>Do not use it in a spin loop instead of {@link #send(Object)}: on virtual threads, two loops of {@code trySend} and
     * {@code Thread.yield()} can keep both carriers of a two-core machine, so that the receivers
     * they wait for, although runnable, never run (seen on JDK 25 with the default scheduler,
     * without any channel involved). Wait with {@link #send(Object)}, a timed send or a select.
     *
     * <p>The default implementation (as in jox, for classes that implement {@code Sink}
     * themselves) calls {@link #trySendOrClosed(Object)}.
     *
     * @param value the value, not {@code null}
     * @return {@code true} when sent, {@code false} when it would have to wait
     * @throws ChannelClosedException when the channel is closed
     * @throws NullPointerException when {@code value} is {@code null}
     */
    default boolean trySend(T value) {
        return InterfaceDefaults.sent(trySendOrClosed(value));
    }

    /**
     * Like {@link #trySend(Object)}, but returns the closed state instead of throwing.
     *
     * <p>The default implementation (as in jox) selects between {@link #sendClause(Object)} and a
     * default clause, so it never waits.
     *
     * @param value the value, not {@code null}
     * @return {@code null} when sent, {@link #NOT_SENT} when it would have to wait, or a {@link
     *     ChannelClosed}
     * @throws NullPointerException when {@code value} is {@code null}
     */
    default Object trySendOrClosed(T value) {
        return InterfaceDefaults.trySendOrClosed(this, value);
    }

    /**
     * Sends {@code value} to the first of {@code toOneOfChannels} that can take it without
     * waiting (a waiting receiver or buffer space), trying them in order; sends nothing when none
     * can (jox's static {@code Sink.trySend}). It is a biased {@link Select#select(SelectClause[])
     * select} of their send clauses and a default clause, so it never waits.
     *
     * <p>Overloads: a call with channels, {@code Sink.trySend(v, a, b)}, always resolves to this
     * method. A call whose second argument is the {@code null} literal, {@code Sink.trySend(v,
     * null)}, does not compile in weft (javac reports it as ambiguous, because {@code null} also
     * fits the instance method {@link #trySend(Object, Duration)}); in jox it returns {@code
     * false}. Write {@code Sink.trySend(v, (Sink<T>[]) null)}, which returns {@code false}, or
     * drop the call.
     *
     * @param value the value, not {@code null} (unless there are no channels)
     * @param toOneOfChannels the channels to try, in order, each at most once; {@code null} or
     *     empty sends nothing
     * @param <T> the type of values
     * @return {@code true} when one of the channels took the value, {@code false} when none could
     *     without waiting (or none was given)
     * @throws ChannelClosedException when a channel is closed before one takes the value (a
     *     channel in error is reported even if another one could take it, as in {@link Select})
     * @throws NullPointerException when {@code value} or one of the channels is {@code null}
     * @throws IllegalArgumentException when a channel is given twice
     */
    @SafeVarargs
    static <T> boolean trySend(T value, Sink<T>... toOneOfChannels) {
        return InterfaceDefaults.trySendToOneOf(value, toOneOfChannels);
    }

    /**
     * Sends a value, waiting at most {@code timeout} (like {@link
     * java.util.concurrent.BlockingQueue#offer(Object, long, java.util.concurrent.TimeUnit)}). On
     * timeout the waiting send is withdrawn exactly like an interrupted one: nothing is delivered.
     * No helper thread is used.
     *
     * <p>The default implementation, for classes that implement {@code Sink} themselves, calls
     * {@link #trySendOrClosed(Object, Duration)}. (jox has no timed send.)
     *
     * @param value the value, not {@code null}
     * @param timeout how long to wait; not {@code null}, not negative; zero means do not wait
     * @return {@code true} when sent, {@code false} on timeout
     * @throws InterruptedException when interrupted while waiting; nothing was delivered
     * @throws ChannelClosedException when the channel is closed
     * @throws NullPointerException when {@code value} or {@code timeout} is {@code null}
     * @throws IllegalArgumentException when {@code timeout} is negative
     */
    default boolean trySend(T value, Duration timeout) throws InterruptedException {
        return InterfaceDefaults.sent(trySendOrClosed(value, timeout));
    }

    /**
     * Like {@link #trySend(Object, Duration)}, but returns the closed state instead of throwing.
     *
     * <p>The default implementation is {@link Select#selectOrClosedWithin(Duration, Object,
     * SelectClause[])} of {@link #sendClause(Object)} with {@link #NOT_SENT} as the timeout value.
     *
     * @param value the value, not {@code null}
     * @param timeout how long to wait; not {@code null}, not negative
     * @return {@code null} when sent, {@link #NOT_SENT} on timeout, or a {@link ChannelClosed}
     * @throws InterruptedException when interrupted while waiting; nothing was delivered
     * @throws NullPointerException when {@code value} or {@code timeout} is {@code null}
     * @throws IllegalArgumentException when {@code timeout} is negative
     */
    default Object trySendOrClosed(T value, Duration timeout) throws InterruptedException {
        return InterfaceDefaults.trySendOrClosed(this, value, timeout);
    }

    /**
     * A select clause that sends {@code value} to this channel; the select returns {@code null}.
     *
     * @param value the value, not {@code null}
     * @return a new clause
     * @throws NullPointerException when {@code value} is {@code null}
     */
    SelectClause<Void> sendClause(T value);

    /**
     * A select clause that sends {@code value} to this channel; the select returns what {@code
     * callback} supplies once the value is sent.
     *
     * @param value the value, not {@code null}
     * @param callback called on the selecting thread after the value was sent
     * @param <U> the select's result type
     * @return a new clause
     * @throws NullPointerException when {@code value} is {@code null}
     */
    <U> SelectClause<U> sendClause(T value, Supplier<U> callback);
}
