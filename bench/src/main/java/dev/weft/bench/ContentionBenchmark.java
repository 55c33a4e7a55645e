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
 * Many producers and consumers on one channel. {@code shape} is PxC: P producer and C consumer
 * virtual threads; Nx1 is fan-in into one consumer (an actor mailbox). Each invocation transfers
 * {@value #OPS} values in all; the score is ns per value. {@code impl=jdk} is SynchronousQueue for
 * capacity 0 and ArrayBlockingQueue otherwise.
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
public class ContentionBenchmark {
    /** Divisible by every P and C used here. */
    static final int OPS = 102_400;

    @Param({"2x2", "16x16", "256x256", "16x1", "256x1"})
    public String shape;

    @Param({"16"})
    public int capacity;

    @Param({"weft", "jox", "kotlin", "jdk"})
    public String impl;

    private boolean kotlin;
    private int producers;
    private int consumers;

    @Setup
    public void setup() {
        kotlin = impl.equals("kotlin");
        String[] pc = shape.split("x");
        producers = Integer.parseInt(pc[0]);
        consumers = Integer.parseInt(pc[1]);
        if (OPS % producers != 0 || OPS % consumers != 0) {
            throw new IllegalArgumentException("shape must divide " + OPS + ": " + shape);
        }
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public void transfer() throws Exception {
        if (kotlin) {
            KotlinScenarios.contention(capacity, producers, consumers, OPS);
        } else {
            Scenarios.contention(Chan.create(impl, capacity), producers, consumers, OPS);
        }
    }
}
