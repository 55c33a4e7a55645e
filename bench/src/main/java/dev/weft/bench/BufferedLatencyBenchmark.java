package dev.weft.bench;

import org.openjdk.jmh.annotations.Param;

/** {@link LatencyBenchmark} on a buffered channel of capacity 16: ns per receive, with percentiles. */
public class BufferedLatencyBenchmark extends LatencyBenchmark {
    @Param({"weft", "jox", "jox111", "ArrayBlockingQueue", "LinkedBlockingQueue"})
    public String impl;

    @Override
    String impl() {
        return impl;
    }

    @Override
    int capacity() {
        return 16;
    }
}
