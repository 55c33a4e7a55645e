package dev.weft.channels;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.function.Consumer;

/**
 * The iterator and spliterator of a {@link Source} (see {@link Source#iterator()} and {@link
 * Source#stream()}). {@code hasNext()} receives one value and holds it until {@code next()}; the
 * spliterator receives one value per {@code tryAdvance} and never splits or reads ahead. Not
 * thread-safe: one iterator belongs to one thread (like any iterator); several threads may each
 * iterate the same channel with their own iterator, and then share its values.
 */
final class SourceIterator<T> implements Iterator<T>, Spliterator<T> {
    /** Marks that no value is held. */
    private static final Object NONE = new Object();

    private final Source<T> source;
    private Object held = NONE;
    private boolean ended;

    SourceIterator(Source<T> source) {
        this.source = source;
    }

    @Override
    public boolean hasNext() {
        if (held != NONE) {
            return true;
        }
        if (ended) {
            return false;
        }
        Object r;
        try {
            r = source.receiveOrClosed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReceiveInterruptedException(e);
        }
        // a value may itself be a ChannelClosed object: only the channel's own reason ends
        if (r instanceof ChannelClosed c && c == source.closedForReceive()) {
            if (c instanceof ChannelError e) {
                throw e.toException();
            }
            ended = true;
            return false;
        }
        held = r;
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the channel is done");
        }
        T v = (T) held;
        held = NONE;
        return v;
    }

    @Override
    public boolean tryAdvance(Consumer<? super T> action) {
        if (!hasNext()) {
            return false;
        }
        action.accept(next());
        return true;
    }

    @Override
    public void forEachRemaining(Consumer<? super T> action) {
        while (hasNext()) {
            action.accept(next());
        }
    }

    /** Never splits: splitting would have to receive values ahead of the pipeline. */
    @Override
    public Spliterator<T> trySplit() {
        return null;
    }

    @Override
    public long estimateSize() {
        return Long.MAX_VALUE;
    }

    @Override
    public int characteristics() {
        return ORDERED | NONNULL;
    }
}
