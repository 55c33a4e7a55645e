package dev.weft.channels;

import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@link Flows#subscriber(Sink, int)}: feeds a {@link Sink}. The publisher's values go into a
 * private buffer of {@code window} places; a virtual thread (the feeder) sends them on to the
 * sink, in order, and requests one more value each time the sink took one. So the subscriber
 * never asks for more than it holds room for, {@code onNext} never blocks the publisher's thread,
 * and the publisher is only asked for values as fast as the sink takes them.
 */
final class SinkSubscriber<T> implements Flow.Subscriber<T> {
    private final Sink<T> sink;
    private final long window;
    private final Channel<T> pending;
    private final AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();

    /** The feeder thread, once subscribed. */
    private volatile Thread feeder;

    /** Set by onComplete/onError: the subscription counts as cancelled (rule 2.4). */
    private volatile boolean terminated;

    /**
     * @param window the most values held beyond the sink; {@code Long.MAX_VALUE} for a sink that
     *     never makes a sender wait (then it requests everything at once)
     */
    SinkSubscriber(Sink<T> sink, long window) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.window = window;
        this.pending =
                window == Long.MAX_VALUE
                        ? Channel.newUnlimitedChannel()
                        : Channel.newBufferedChannel((int) window);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        Objects.requireNonNull(s, "subscription");
        if (!subscription.compareAndSet(null, s)) {
            s.cancel(); // rule 2.5: one subscription at a time
            return;
        }
        if (sink.isClosedForSend()) {
            s.cancel();
            return;
        }
        feeder = Thread.ofVirtual().name("weft-subscriber").start(this::feed);
        s.request(window);
    }

    @Override
    public void onNext(T value) {
        Objects.requireNonNull(value, "value");
        Object r = pending.trySendOrClosed(value);
        if (r == Sink.NOT_SENT) {
            // more values than requested: the publisher broke rule 1.1
            IllegalStateException e =
                    new IllegalStateException("onNext without demand (rule 1.1): more than " + window);
            Flow.Subscription s = subscription.get();
            if (s != null) {
                s.cancel();
            }
            fail(e);
        }
        // r is a ChannelClosed when the feeder stopped (the sink was closed): the value is dropped
    }

    @Override
    public void onError(Throwable t) {
        Objects.requireNonNull(t, "throwable");
        terminated = true;
        fail(t);
    }

    @Override
    public void onComplete() {
        terminated = true;
        pending.doneOrClosed(); // the feeder sends what is left, then closes the sink as done
    }

    private void fail(Throwable t) {
        sink.errorOrClosed(t);
        pending.errorOrClosed(t);
    }

    @SuppressWarnings("unchecked")
    private void feed() {
        try {
            while (true) {
                Object r = pending.receiveOrClosed();
                if (r instanceof ChannelClosed c && c == pending.closedForReceive()) {
                    if (c instanceof ChannelDone) {
                        sink.doneOrClosed();
                    }
                    return; // in error: fail() closed the sink already
                }
                if (sink.sendOrClosed((T) r) != null) {
                    // the sink was closed from the other side: stop the publisher
                    pending.doneOrClosed();
                    subscription.get().cancel();
                    return;
                }
                if (window != Long.MAX_VALUE && !terminated) {
                    subscription.get().request(1L);
                }
            }
        } catch (InterruptedException e) {
            // only code that owns nothing here could interrupt the feeder; stop like a failure
            subscription.get().cancel();
            fail(e);
        }
    }

    /** The thread that sends to the sink, or {@code null} before a subscription (for tests). */
    Thread feeder() {
        return feeder;
    }

    @Override
    public String toString() {
        return "subscriber feeding " + sink;
    }
}
