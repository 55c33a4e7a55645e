package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * The floor of the single-pair scenarios (Rendezvous, Buffered, Select): two threads pass a turn
 * back and forth through a volatile field with {@code LockSupport.park}/{@code unpark}, no channel
 * (see {@link Floors#pingPong}). {@code spins=0} parks at once; {@code spins=200} calls {@code
 * Thread.onSpinWait()} 200 times first, so that each thread can stay on its own carrier. {@code
 * threads} is virtual (the floor of the scenarios) or platform (of their platform-thread variants).
 * Each invocation makes {@value #N} handoffs; the score is ns per handoff, and a value that moves
 * from one thread to a waiting one costs at least one handoff.
 */
public class PairFloorBenchmark extends WeftBenchmark {
    static final int N = 100_000;

    @Param({"0", "200"})
    public int spins;

    @Param({"virtual", "platform"})
    public String threads;

    @Benchmark
    @OperationsPerInvocation(N)
    public void handoff() throws Exception {
        Floors.pingPong(N, spins, threads.equals("platform"));
    }
}
