package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

import dev.weft.bench.kt.KotlinScenarios;

/**
 * A chain of {@code channelCount} channels with a virtual thread per link forwarding values (jox's
 * ChainedBenchmark shape). Each invocation moves {@value ManyChannelsBenchmark#OPS} values one hop
 * (OPS / channelCount values through the whole chain); the score is ns per hop.
 */
public class ChainedBenchmark extends ManyChannelsBenchmark {
    @Param({"10000"})
    public int channelCount;

    @Override
    int count() {
        return channelCount;
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public void chain() throws Exception {
        if (kotlin) {
            KotlinScenarios.chain(capacity, channelCount, elements());
        } else {
            Scenarios.chain(newChannels(), elements());
        }
    }
}
