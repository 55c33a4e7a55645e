package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * The reference for {@link ContentionBenchmark}'s fan-in shapes ({@link FanInFloor}): {@code
 * shape} Nx1 moves {@value ContentionBenchmark#OPS} values from N virtual producers to one virtual
 * consumer through mailboxes of {@code depth} values, parking at once ({@code spins=0}) or after 200 {@code
 * Thread.onSpinWait()}s. The score is ns per value, comparable with {@link ContentionBenchmark} at
 * the same shape.
 */
public class FanInFloorBenchmark extends WeftBenchmark {
    @Param({"16x1", "256x1"})
    public String shape;

    @Param({"0", "200"})
    public int spins;

    /** Values per producer's mailbox (see {@link FanInFloor}). */
    @Param({"2"})
    public int depth;

    private int producers;

    /** Reads the shape. */
    @org.openjdk.jmh.annotations.Setup
    public void setup() {
        String[] pc = shape.split("x");
        if (pc.length != 2 || !pc[1].equals("1")) {
            throw new IllegalArgumentException("fan-in shapes only (Nx1): " + shape);
        }
        producers = Integer.parseInt(pc[0]);
    }

    @Benchmark
    @OperationsPerInvocation(ContentionBenchmark.OPS)
    public long values() throws Exception {
        return FanInFloor.run(ContentionBenchmark.OPS, producers, depth, spins);
    }
}
