package dev.weft.channels;

import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/** {@link Flows#publisher(Source)}: publishes a {@link Source} to one subscriber. */
final class SourcePublisher<T> implements Flow.Publisher<T> {
    private final Source<T> source;
    private final AtomicBoolean subscribed = new AtomicBoolean();

    SourcePublisher(Source<T> source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");
        if (!subscribed.compareAndSet(false, true)) {
            subscriber.onSubscribe(Rejected.INSTANCE);
            subscriber.onError(
                    new IllegalStateException(
                            "this publisher already has its subscriber; a channel's values go to one"
                                    + " receiver each, so create one publisher per subscriber"));
            return;
        }
        new SourceSubscription<>(source, subscriber).start();
    }

    /** The subscription given to a rejected second subscriber: its methods do nothing. */
    private enum Rejected implements Flow.Subscription {
        INSTANCE;

        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
    }
}
