package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * The cell reference of the Rendezvous scenario ({@link CellFloor}: weft's design reduced to
 * cells and two counters): one virtual sender and one virtual receiver, each waiting with up to
 * {@code spins} {@code Thread.onSpinWait()}s before it parks. The score is ns per value,
 * comparable with {@link RendezvousBenchmark}. Its forks are bimodal like the scenario's (with
 * 2,000 spins, 5 forks of one run: 61, 97, 106, 108 and 376 ns); 200 spins gave forks of 110 and
 * 386 in another, which five forks cannot tell apart from 2,000.
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
