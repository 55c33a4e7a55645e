package dev.weft.channels;

/**
 * Run in a child JVM by {@link SegmentSizePropertyTest}: prints the effective segment size, or
 * the chain of errors that initializing the channel classes threw.
 */
public final class SegmentSizeProbe {
    private SegmentSizeProbe() {}

    public static void main(String[] args) {
        try {
            System.out.println("segmentSize=" + Channel.segmentSize());
            Channel<Integer> ch = Channel.newBufferedChannel(3);
            for (int i = 0; i < 10; i++) {
                ch.send(i);
                if (ch.receive() != i) {
                    throw new AssertionError("wrong value");
                }
            }
            System.out.println("spinCeilings=" + new Channel<Integer>(15).spin.ceiling() + ","
                    + new Channel<Integer>(16).spin.ceiling());
            System.out.println("works");
        } catch (Throwable t) {
            for (Throwable c = t; c != null; c = c.getCause()) {
                System.out.println("error: " + c.getClass().getName() + ": " + c.getMessage());
            }
        }
    }
}
