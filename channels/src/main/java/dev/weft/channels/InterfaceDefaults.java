package dev.weft.channels;

import java.time.Duration;
import java.util.Objects;

/**
 * The default methods of {@link Source}, {@link Sink} and {@link CloseableChannel}, for classes
 * that implement those interfaces themselves (say, a wrapper that records metrics) and provide
 * only the methods jox makes abstract. They are built on the abstract clause factories and {@link
 * Select}: a non-blocking operation is a select with a default clause, a timed one a select with a
 * timeout. {@link Channel} overrides all of them with its direct implementations.
 */
final class InterfaceDefaults {
    private InterfaceDefaults() {}

    /** The default clause's result: nothing could complete without waiting (or in time). */
    private static final Object NOTHING = new Object() {
        @Override
        public String toString() {
            return "NOTHING";
        }
    };

    static <T> Object trySendOrClosed(Sink<T> sink, T value) {
        Objects.requireNonNull(value, "value");
        Object r = selectNow(sink.sendClause(value));
        return r == NOTHING ? Sink.NOT_SENT : r;
    }

    static <T> Object trySendOrClosed(Sink<T> sink, T value, Duration timeout)
            throws InterruptedException {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(timeout, "timeout");
        return Select.selectOrClosedWithin(timeout, Sink.NOT_SENT, sink.sendClause(value));
    }

    static Object tryReceiveOrClosed(Source<?> source) {
        Object r = selectNow(source.receiveClause());
        return r == NOTHING ? null : r;
    }

    static Object tryReceiveOrClosed(Source<?> source, Duration timeout) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        Object r = Select.selectOrClosedWithin(timeout, NOTHING, source.receiveClause());
        return r == NOTHING ? null : r;
    }

    /** The result of a {@code trySend}-style call: {@code true} when sent; throws when closed. */
    static boolean sent(Object r) {
        if (r instanceof ChannelClosed c) {
            throw c.toException();
        }
        return r == null;
    }

    /** The result of a {@code tryReceive}-style call: the value or {@code null}; throws when closed. */
    @SuppressWarnings("unchecked")
    static <T> T received(Object r) {
        if (r instanceof ChannelClosed c) {
            throw c.toException();
        }
        return (T) r;
    }

    @SafeVarargs
    static <T> boolean trySendToOneOf(T value, Sink<T>... sinks) {
        if (sinks == null || sinks.length == 0) {
            return false;
        }
        Objects.requireNonNull(value, "value");
        SelectClause<?>[] clauses = new SelectClause<?>[sinks.length + 1];
        for (int k = 0; k < sinks.length; k++) {
            clauses[k] = Objects.requireNonNull(sinks[k], "sink").sendClause(value);
        }
        clauses[sinks.length] = Select.defaultClause(NOTHING);
        try {
            return Select.select(clauses) != NOTHING;
        } catch (InterruptedException e) {
            throw new AssertionError("a select with a default clause never waits", e);
        }
    }

    /** A select of {@code clause} and a default clause: it never waits. */
    private static Object selectNow(SelectClause<?> clause) {
        try {
            return Select.selectOrClosed(clause, Select.defaultClause(NOTHING));
        } catch (InterruptedException e) {
            throw new AssertionError("a select with a default clause never waits", e);
        }
    }
}
