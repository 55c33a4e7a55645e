package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import dev.weft.bench.kt.KotlinScenarios;

/**
 * One sender and one receiver virtual thread on one buffered channel. Each invocation sends
 * {@value #N} values; the score is ns per value transferred.
 */
public class BufferedBenchmark extends WeftBenchmark {
    static final int N = 100_000;

    @Param({"16", "100"})
    public int capacity;

    @Param({"weft", "jox", "jox111", "kotlin", "ArrayBlockingQueue", "LinkedBlockingQueue"})
    public String impl;

    private boolean kotlin;

    @Setup
    public void setup() {
        kotlin = impl.equals("kotlin");
        if (!kotlin) {
            Chan.create(impl, capacity);
        }
    }

    /** Whether the sender and the receiver are platform threads (overridden by the platform variant). */
    boolean platformThreads() {
        return false;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void sendReceive() throws Exception {
        if (kotlin) {
            if (platformThreads()) {
                Scenarios.kotlinPairOnPlatformThreads(capacity, N);
            } else {
                KotlinScenarios.pair(capacity, N);
            }
        } else {
            Scenarios.pair(Chan.create(impl, capacity), N, platformThreads());
        }
    }
}
