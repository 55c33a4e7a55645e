package dev.weft.channels;

/** {@link FlowPublisherTckTest} over a rendezvous channel. */
class FlowPublisherRendezvousTckTest extends FlowPublisherTckTest {
    FlowPublisherRendezvousTckTest() {}

    @Override
    int capacity() {
        return 0;
    }
}
