package dev.weft.channels;

import java.util.concurrent.Flow;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowSubscriberBlackboxVerification;

/**
 * The Reactive Streams TCK (blackbox subscriber rules, for {@code java.util.concurrent.Flow})
 * against {@link Flows#subscriber(Sink)} feeding a buffered channel that a virtual thread drains.
 */
class FlowSubscriberTckTest extends FlowSubscriberBlackboxVerification<Integer> {
    FlowSubscriberTckTest() {
        super(new TestEnvironment(TckTimeouts.DEFAULT_MILLIS, TckTimeouts.NO_SIGNALS_MILLIS,
                TckTimeouts.POLL_MILLIS));
    }

    @Override
    public Flow.Subscriber<Integer> createFlowSubscriber() {
        Channel<Integer> ch = Channel.newBufferedChannel("tck-subscriber", 4);
        Thread.ofVirtual().name("tck-drain").start(() -> {
            try {
                ch.forEach(v -> {});
            } catch (InterruptedException | ChannelErrorException e) {
                // the test is over for this channel
            }
        });
        return Flows.subscriber(ch);
    }

    @Override
    public Integer createElement(int element) {
        return element;
    }
}
