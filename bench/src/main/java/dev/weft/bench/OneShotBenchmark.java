package dev.weft.bench;

import dev.weft.bench.kt.KotlinScenarios;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * A channel made for one value and then dropped, as a reply channel per request or a short-lived
 * mailbox: each operation creates a channel of {@code capacity}, sends one value into it and
 * receives it, on one thread (nothing waits). The score is ns per channel; with {@code -prof gc}
 * its allocation is the channel's footprint. The many-channel scenarios ({@link ChainedBenchmark},
 * {@link ParallelBenchmark}) also create their 10,000 channels inside the measured invocation, so
 * this cost is part of theirs, spread over the values each channel carries. kotlinx.coroutines
 * uses {@code trySend} and {@code tryReceive}.
 */
public class OneShotBenchmark extends WeftBenchmark {
    @Param({"1", "16"})
    public int capacity;

    @Param({"weft", "jox", "jox111", "kotlin", "ArrayBlockingQueue"})
    public String impl;

    private boolean kotlin;

    /** Checks the implementation's name once, outside the measurement. */
    @Setup
    public void setup() {
        kotlin = impl.equals("kotlin");
        if (!kotlin) {
            Chan.create(impl, capacity);
        }
    }

    /** Creates a channel, sends one value and receives it; returns the value. */
    @Benchmark
    public int oneValue() throws Exception {
        if (kotlin) {
            return KotlinScenarios.trySendThenTryReceive(KotlinScenarios.newChannel(capacity), 1);
        }
        Chan chan = Chan.create(impl, capacity);
        chan.send(Chan.VALUE);
        return chan.receive();
    }
}
