package dev.weft.channels;

import java.util.concurrent.Flow;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;

/**
 * The Reactive Streams TCK (for {@code java.util.concurrent.Flow}) against {@link
 * Flows#publisher(Source)} over a buffered channel fed by a virtual thread. TestNG tests, run by
 * the JUnit Platform TestNG engine in the same surefire run as the JUnit tests. Timeouts are
 * generous: the machine may be loaded.
 */
class FlowPublisherTckTest extends FlowPublisherVerification<Long> {
    FlowPublisherTckTest() {
        super(new TestEnvironment(TckTimeouts.DEFAULT_MILLIS, TckTimeouts.NO_SIGNALS_MILLIS,
                TckTimeouts.POLL_MILLIS),
                TckTimeouts.GC_MILLIS);
    }

    /** The channel's capacity; subclasses try others. */
    int capacity() {
        return 4;
    }

    @Override
    public Flow.Publisher<Long> createFlowPublisher(long elements) {
        Channel<Long> ch = Channel.newBufferedChannel("tck-" + elements, capacity());
        Thread.ofVirtual().name("tck-producer").start(() -> {
            try {
                for (long i = 0; i < elements; i++) {
                    ch.send(i);
                }
                ch.done();
            } catch (InterruptedException e) {
                ch.error(e);
            }
        });
        return Flows.publisher(ch);
    }

    @Override
    public Flow.Publisher<Long> createFailedFlowPublisher() {
        Channel<Long> ch = Channel.newBufferedChannel(capacity());
        ch.error(new RuntimeException("the channel failed"));
        return Flows.publisher(ch);
    }
}
