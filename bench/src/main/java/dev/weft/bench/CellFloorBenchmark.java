package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * The floor of the Rendezvous scenario for weft's design ({@link CellFloor}): one virtual sender
 * and one virtual receiver meet in a ring of cells indexed by two counters, each waiting with up
 * to {@code spins} {@code Thread.onSpinWait()}s before it parks. The score is ns per value,
 * comparable with {@link RendezvousBenchmark}. The default spins long enough that the pair never
 * parks: with 200 (the pair handoff floor's spin) 2 of 5 forks ran at 386 ns against 110.
 */
public class CellFloorBenchmark extends WeftBenchmark {
    static final int N = 100_000;

    @Param({"2000"})
    public int spins;

    @Benchmark
    @OperationsPerInvocation(N)
    public long values() throws Exception {
        return CellFloor.run(N, spins);
    }
}
