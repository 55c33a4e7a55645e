package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import dev.weft.bench.kt.KotlinScenarios;

/**
 * Many producers and consumers on one channel. {@code shape} is PxC: P producer and C consumer
 * virtual threads; Nx1 is fan-in into one consumer (an actor mailbox). Each invocation transfers
 * {@value #OPS} values in all; the score is ns per value. {@code impl=jdk} is SynchronousQueue for
 * capacity 0 and ArrayBlockingQueue otherwise.
 */
public class ContentionBenchmark extends WeftBenchmark {
    /** Divisible by every P and C used here. */
    static final int OPS = 102_400;

    @Param({"2x2", "16x16", "256x256", "16x1", "256x1"})
    public String shape;

    @Param({"16"})
    public int capacity;

    @Param({"weft", "jox", "jox111", "kotlin", "jdk"})
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
