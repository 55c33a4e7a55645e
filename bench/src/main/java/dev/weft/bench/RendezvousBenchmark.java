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

    @Param({"weft", "jox", "kotlin", "SynchronousQueue", "LinkedTransferQueue", "Exchanger"})
    public String impl;

    private boolean kotlin;

    @Setup
    public void setup() {
        kotlin = impl.equals("kotlin");
        if (!kotlin) {
            Chan.create(impl, 0); // fail fast on a bad name
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void sendReceive() throws Exception {
        if (kotlin) {
            KotlinScenarios.pair(0, N);
        } else {
            Scenarios.pair(Chan.create(impl, 0), N);
        }
    }
}
