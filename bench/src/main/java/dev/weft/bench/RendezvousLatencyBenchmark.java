package dev.weft.bench;

import org.openjdk.jmh.annotations.Param;

/** {@link LatencyBenchmark} on a rendezvous channel: ns per receive, with percentiles. */
public class RendezvousLatencyBenchmark extends LatencyBenchmark {
    @Param({"weft", "jox", "jox111", "SynchronousQueue", "LinkedTransferQueue", "Exchanger"})
    public String impl;

    @Override
    String impl() {
        return impl;
    }

    @Override
    int capacity() {
        return 0;
    }
}
