package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * The floor of the Buffered scenario ({@link RingFloor}): one virtual producer and one virtual
 * consumer move {@value #N} values through the cheapest blocking ring of {@code capacity} we know,
 * parking at once ({@code spins=0}) or after 200 {@code Thread.onSpinWait()}s. The score is ns per
 * value, comparable with {@link BufferedBenchmark} at the same capacity.
 */
public class RingFloorBenchmark extends WeftBenchmark {
    static final int N = 100_000;

    @Param({"16"})
    public int capacity;

    @Param({"0", "200"})
    public int spins;

    @Benchmark
    @OperationsPerInvocation(N)
    public long values() throws Exception {
        return RingFloor.run(N, capacity, spins);
    }
}
