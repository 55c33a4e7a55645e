package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

import dev.weft.bench.kt.KotlinScenarios;

/**
 * {@code pairs} independent channels, each with its own sender and receiver virtual thread (jox's
 * ParallelBenchmark shape). Each invocation transfers {@value ManyChannelsBenchmark#OPS} values in
 * all; the score is ns per value.
 */
public class ParallelBenchmark extends ManyChannelsBenchmark {
    @Param({"10000"})
    public int pairs;

    @Override
    int count() {
        return pairs;
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public void parallel() throws Exception {
        if (kotlin) {
            KotlinScenarios.parallel(capacity, pairs, elements());
        } else {
            Scenarios.parallel(newChannels(), elements());
        }
    }
}
