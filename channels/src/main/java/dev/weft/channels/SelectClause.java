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
    SelectClause() {}

    /** The clause's channel, or {@code null} for a default clause. */
    abstract Channel<?> channel();

    /** Whether this clause sends. */
    abstract boolean isSend();

    /** The value a send clause sends. */
    Object sendValue() {
        return null;
    }

    /** Maps the raw outcome (the received value; {@code null} for send and default) to the result. */
    abstract T result(Object raw);

    static final class Receive<E, U> extends SelectClause<U> {
        private final Channel<E> channel;
        private final Function<E, U> callback;

        Receive(Channel<E> channel, Function<E, U> callback) {
            this.channel = channel;
            this.callback = callback;
        }

        @Override
        Channel<?> channel() {
            return channel;
        }

        @Override
        boolean isSend() {
            return false;
        }

        @Override
        @SuppressWarnings("unchecked")
        U result(Object raw) {
            return callback == null ? (U) raw : callback.apply((E) raw);
        }
    }

    static final class Send<E, U> extends SelectClause<U> {
        private final Channel<E> channel;
        private final E value;
        private final Supplier<U> callback;

        Send(Channel<E> channel, E value, Supplier<U> callback) {
            this.channel = channel;
            this.value = value;
            this.callback = callback;
        }

        @Override
        Channel<?> channel() {
            return channel;
        }

        @Override
        boolean isSend() {
            return true;
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
            this.supplier = supplier;
        }

        @Override
        Channel<?> channel() {
            return null;
        }

        @Override
        boolean isSend() {
            return false;
        }

        @Override
        U result(Object raw) {
            return supplier.get();
        }
    }
}
