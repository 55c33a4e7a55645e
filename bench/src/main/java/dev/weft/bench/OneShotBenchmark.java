package dev.weft.bench;

import dev.weft.bench.kt.KotlinScenarios;
import java.util.function.IntFunction;
import kotlinx.coroutines.channels.Channel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A channel made for one value and then dropped, as a reply channel per request or a short-lived
 * mailbox: each operation creates a channel of {@code capacity}, sends one value into it and
 * receives it, on one thread (nothing waits). The score is ns per channel; with {@code -prof gc}
 * its allocation is the channel's footprint (plus, for the Java channels, the 16-byte {@link Chan}
 * adapter). The many-channel scenarios ({@link ChainedBenchmark},
 * {@link ParallelBenchmark}) also create their 10,000 channels inside the measured invocation, so
 * this cost is part of theirs, spread over the values each channel carries. kotlinx.coroutines
 * uses {@code trySend} and {@code tryReceive}. Capacity 1000 shows what a large buffer costs a
 * channel that carries little: weft's first receive moves the buffer end past cell 1000 and
 * creates the segments up to it (about 10 KB; docs/PERFORMANCE.md, stop 39), where
 * kotlinx.coroutines allocates nothing for its capacity and {@code ArrayBlockingQueue} an array
 * of 4 bytes per slot.
 */
public class OneShotBenchmark extends WeftBenchmark {
    @Param({"1", "16", "1000"})
    public int capacity;

    @Param({"weft", "jox", "jox111", "kotlin", "ArrayBlockingQueue"})
    public String impl;

    private boolean kotlin;

    /** Makes a channel of {@code impl}, resolved once (no name lookup or lock per operation). */
    private IntFunction<Chan> factory;

    /** Resolves the implementation once, outside the measurement. */
    @Setup
    public void setup() {
        kotlin = impl.equals("kotlin");
        factory = kotlin ? null : Chan.factory(impl);
    }

    /**
     * Creates a channel, lets it escape (a real one is shared with another thread, so the JIT may
     * not scalar-replace it: without this, C2 removed some forks' {@code ArrayBlockingQueue}
     * allocations altogether), sends one value and receives it; returns the value.
     */
    @Benchmark
    public int oneValue(Blackhole escape) throws Exception {
        if (kotlin) {
            Channel<Integer> ch = KotlinScenarios.newChannel(capacity);
            escape.consume(ch);
            return KotlinScenarios.trySendThenTryReceive(ch, 1);
        }
        Chan chan = factory.apply(capacity);
        escape.consume(chan);
        chan.send(Chan.VALUE);
        return chan.receive();
    }
}
