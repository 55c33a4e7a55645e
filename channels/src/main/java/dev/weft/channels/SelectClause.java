package dev.weft.channels;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One alternative of a {@link Select}: receive from a channel ({@link Source#receiveClause()}),
 * send to a channel ({@link Sink#sendClause(Object)}), or a default ({@link
 * Select#defaultClause(Object)}). Clauses are immutable and can be reused in several selects.
 *
 * @param <T> the type of the select's result when this clause is selected
 */
public abstract class SelectClause<T> {
    /** The clause's channel, or {@code null} for a default clause. */
    private final Channel<?> channel;

    /** Whether this clause sends. */
    private final boolean send;

    SelectClause(Channel<?> channel, boolean send) {
        this.channel = channel;
        this.send = send;
    }

    /** The clause's channel, or {@code null} for a default clause. */
    final Channel<?> channel() {
        return channel;
    }

    /** Whether this clause sends. */
    final boolean isSend() {
        return send;
    }

    /** The value a send clause sends. */
    Object sendValue() {
        return null;
    }

    /** Maps the raw outcome (the received value; {@code null} for send and default) to the result. */
    abstract T result(Object raw);

    static final class Receive<E, U> extends SelectClause<U> {
        private final Function<E, U> callback;

        Receive(Channel<E> channel, Function<E, U> callback) {
            super(channel, false);
            this.callback = callback;
        }

        @Override
        @SuppressWarnings("unchecked")
        U result(Object raw) {
            return callback == null ? (U) raw : callback.apply((E) raw);
        }
    }

    static final class Send<E, U> extends SelectClause<U> {
        private final E value;
        private final Supplier<U> callback;

        Send(Channel<E> channel, E value, Supplier<U> callback) {
            super(channel, true);
            this.value = value;
            this.callback = callback;
        }

        @Override
        Object sendValue() {
            return value;
        }

        @Override
        U result(Object raw) {
            return callback == null ? null : callback.get();
        }
    }

    static final class Default<U> extends SelectClause<U> {
        private final Supplier<U> supplier;

        Default(Supplier<U> supplier) {
            super(null, false);
            this.supplier = supplier;
        }

        @Override
        U result(Object raw) {
            return supplier.get();
        }
    }
}
