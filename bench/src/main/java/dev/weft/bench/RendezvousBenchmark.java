package dev.weft.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Timeout;
import org.openjdk.jmh.annotations.Warmup;

import dev.weft.bench.kt.KotlinScenarios;

/**
 * One sender and one receiver virtual thread on one rendezvous channel. Each invocation sends
 * {@value #N} values; the score is ns per value transferred.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
// Virtual-thread benchmarks are bimodal on few cores: many forks, compare medians (bench/report.py).
@Fork(value = 5, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
// A lost wake-up would otherwise hang the run: fail the iteration instead.
@Timeout(time = 60, timeUnit = TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class RendezvousBenchmark {
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
