package dev.weft.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The shape shared by {@link ChainedBenchmark} and {@link ParallelBenchmark}: {@link #count()}
 * channels of one capacity, each invocation moving {@value #OPS} values in all. {@code impl=jdk} is
 * SynchronousQueue for capacity 0 and ArrayBlockingQueue otherwise. Starting the threads is part of
 * the invocation.
 */
public abstract class ManyChannelsBenchmark extends WeftBenchmark {
    static final int OPS = 1_000_000;

    @Param({"0", "16", "100"})
    public int capacity;

    @Param({"weft", "jox", "jox111", "kotlin", "jdk"})
    public String impl;

    boolean kotlin;

    /** How many channels (the chain length, or the number of pairs). */
    abstract int count();

    @Setup
    public void setup() {
        kotlin = impl.equals("kotlin");
        if (OPS % count() != 0) {
            throw new IllegalArgumentException("the channel count must divide " + OPS + ": " + count());
        }
    }

    /** The values each channel (or the whole chain) carries per invocation. */
    int elements() {
        return OPS / count();
    }

    /** {@link #count()} new channels of {@code impl} (not for kotlin). */
    Chan[] newChannels() {
        Chan[] channels = new Chan[count()];
        for (int i = 0; i < channels.length; i++) {
            channels[i] = Chan.create(impl, capacity);
        }
        return channels;
    }
}
