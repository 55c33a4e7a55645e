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
 * A chain of {@code channelCount} channels with a virtual thread per link forwarding values (jox's
 * ChainedBenchmark shape). Each invocation moves {@value #OPS} values one hop (OPS / channelCount
 * values through the whole chain); the score is ns per hop. {@code impl=jdk} is SynchronousQueue
 * for capacity 0 and ArrayBlockingQueue otherwise. Starting the threads is part of the invocation.
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
public class ChainedBenchmark {
    static final int OPS = 1_000_000;

    @Param({"0", "16", "100"})
    public int capacity;

    @Param({"10000"})
    public int channelCount;

    @Param({"weft", "jox", "kotlin", "jdk"})
    public String impl;

    private boolean kotlin;

    @Setup
    public void setup() {
        kotlin = impl.equals("kotlin");
        if (OPS % channelCount != 0) {
            throw new IllegalArgumentException("channelCount must divide " + OPS);
        }
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public void chain() throws Exception {
        int elements = OPS / channelCount;
        if (kotlin) {
            KotlinScenarios.chain(capacity, channelCount, elements);
        } else {
            Chan[] channels = new Chan[channelCount];
            for (int i = 0; i < channelCount; i++) {
                channels[i] = Chan.create(impl, capacity);
            }
            Scenarios.chain(channels, elements);
        }
    }
}
