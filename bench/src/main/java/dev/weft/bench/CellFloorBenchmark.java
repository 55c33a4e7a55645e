package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * The cell reference of the Rendezvous scenario ({@link CellFloor}: weft's design reduced to
 * cells and two counters): one virtual sender and one virtual receiver, each waiting with up to
 * {@code spins} {@code Thread.onSpinWait()}s before it parks. The score is ns per value,
 * comparable with {@link RendezvousBenchmark}. Its forks are spread like the scenario's (8 forks
 * of one run of the version before the slot clearing: 57, 59, 63, 83, 88, 133, 177 and 179 ns);
 * 2,000 spins rather than 200 is a guess that the pair should not park, not a measured optimum.
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
