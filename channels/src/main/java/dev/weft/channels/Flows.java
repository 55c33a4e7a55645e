package dev.weft.channels;

import java.util.concurrent.Flow;

/**
 * Bridges between channels and {@link java.util.concurrent.Flow} (Reactive Streams), verified with
 * the Reactive Streams TCK. Each bridge uses one virtual thread per subscription.
 *
 * <p>{@link #publisher(Source)} publishes a channel's values; {@link #subscriber(Sink)} sends the
 * values of any {@code Flow.Publisher} into a channel. Together they connect a channel to
 * reactive libraries in both directions, with backpressure.
 */
public final class Flows {
    private Flows() {}

    /** The window of {@link #subscriber(Sink)} when the sink is not a {@link Channel}. */
    public static final int DEFAULT_WINDOW = 16;

    /**
     * A publisher of the values received from {@code source}.
     *
     * <ul>
     *   <li><b>Demand.</b> It receives from the channel only while its subscriber has outstanding
     *       demand: never more values than requested, and none before a request. It signals from
     *       one virtual thread per subscription.
     *   <li><b>End.</b> {@code onComplete} when the channel is done (and drained), {@code
     *       onError(cause)} when it is closed in error. These need no demand: a channel that is
     *       already closed when there is no demand is reported then; one closed while the
     *       subscriber has no demand is reported at its next request.
     *   <li><b>Cancel.</b> {@code cancel()} stops receiving: a waiting receive is withdrawn (it
     *       consumed nothing); if a receive completed at the same moment, that one value is still
     *       passed to {@code onNext} (allowed after a cancel by rule 1.8) rather than dropped. The
     *       channel is not closed: other receivers carry on.
     *   <li><b>One subscriber.</b> The publisher serves one subscriber. A second one gets {@code
     *       onSubscribe} and then {@code onError(IllegalStateException)}: a channel's values go to
     *       one receiver each, so two subscribers would each see an arbitrary part of the stream.
     *       For competing consumers create one publisher per subscriber on the same channel.
     *   <li>Invalid requests ({@code n <= 0}) cancel and signal {@code
     *       onError(IllegalArgumentException)} (rule 3.9).
     * </ul>
     *
     * @param source the channel to receive from; it is used through {@link
     *     Source#receiveClause()} and {@link Source#closedForReceive()}
     * @param <T> the type of values
     * @return a new publisher, for one subscriber
     */
    public static <T> Flow.Publisher<T> publisher(Source<T> source) {
        return new SourcePublisher<>(source);
    }

    /**
     * A subscriber that sends every value it receives to {@code sink}, with backpressure: it
     * requests as many values as the channel can take, and one more each time the channel took
     * one. For a {@link Channel} the window is its capacity (1 for a rendezvous channel; for an
     * unlimited channel it requests {@code Long.MAX_VALUE} at once); for another {@link Sink} it
     * is {@link #DEFAULT_WINDOW}. See {@link #subscriber(Sink, int)}.
     *
     * @param sink the channel to send to
     * @param <T> the type of values
     * @return a new subscriber, for one subscription
     */
    public static <T> Flow.Subscriber<T> subscriber(Sink<T> sink) {
        if (sink instanceof Channel<?> ch) {
            int c = ch.capacity();
            return new SinkSubscriber<>(sink, c < 0 ? Long.MAX_VALUE : Math.max(1, c));
        }
        return new SinkSubscriber<>(sink, DEFAULT_WINDOW);
    }

    /**
     * A subscriber that sends every value it receives to {@code sink}, holding at most {@code
     * window} values that the channel has not taken yet.
     *
     * <ul>
     *   <li><b>Backpressure.</b> It requests {@code window} values on subscription, then one more
     *       each time a value was sent to the channel. Values that arrive while the channel is full
     *       wait in a private buffer of {@code window} places; {@code onNext} never blocks the
     *       publisher. Values are sent in the order received, from one virtual thread.
     *   <li><b>End.</b> {@code onComplete} closes the channel as done once the values before it
     *       were sent; {@code onError(t)} closes it in error with {@code t} at once (values not yet
     *       sent are dropped, as an error drops a channel's buffered values).
     *   <li><b>Channel closed from the other side.</b> It cancels its subscription when a send
     *       finds the channel closed, or when the channel is already closed at subscription; the
     *       values it held are dropped. (A channel closed while no value is on its way is noticed
     *       at the next value.)
     *   <li>A second {@code onSubscribe} is cancelled (rule 2.5); a publisher that sends more than
     *       requested closes the channel in error.
     * </ul>
     *
     * @param sink the channel to send to
     * @param window how many values it requests ahead, at least 1
     * @param <T> the type of values
     * @return a new subscriber, for one subscription
     * @throws IllegalArgumentException when {@code window} is less than 1
     */
    public static <T> Flow.Subscriber<T> subscriber(Sink<T> sink, int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be >= 1, was " + window);
        }
        return new SinkSubscriber<>(sink, window);
    }
}
