package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import dev.weft.bench.kt.KotlinScenarios;

/**
 * One sender and one receiver virtual thread on one rendezvous channel. Each invocation sends
 * {@value #N} values; the score is ns per value transferred.
 */
public class RendezvousBenchmark extends WeftBenchmark {
    static final int N = 100_000;

    @Param({"weft", "jox", "jox111", "kotlin", "SynchronousQueue", "LinkedTransferQueue", "Exchanger"})
    public String impl;

    private boolean kotlin;

    @Setup
    public void setup() {
        kotlin = impl.equals("kotlin");
        if (!kotlin) {
            Chan.create(impl, 0); // fail fast on a bad name
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
                Scenarios.kotlinPairOnPlatformThreads(0, N);
            } else {
                KotlinScenarios.pair(0, N);
            }
        } else {
            Scenarios.pair(Chan.create(impl, 0), N, platformThreads());
        }
    }
}
