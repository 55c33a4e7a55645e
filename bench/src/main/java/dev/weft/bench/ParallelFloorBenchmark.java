package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * The floor of {@link ParallelBenchmark} at capacity 0: the same {@code pairs} independent pairs of
 * virtual threads, each pair handing tokens over through a one-token slot or a handoff with {@code
 * LockSupport.park}/{@code unpark} instead of a channel (see {@link Floors#parallel}). A reference,
 * not a proven bound. Each invocation moves {@value ManyChannelsBenchmark#OPS} tokens in all, like
 * the parallel scenario; the score is ns per token. Starting the threads is part of the invocation,
 * as there.
 */
public class ParallelFloorBenchmark extends WeftBenchmark {
    /** Independent links, each with a putting and a taking virtual thread. */
    @Param({"10000"})
    public int pairs;

    /** The links: {@code slot} (one-token mailboxes) or {@code handoff} (see {@link Floors.Handoff}). */
    @Param({"slot", "handoff"})
    public String link;

    /** Spins of a waiting side of a slot before it parks (0: it parks at once). */
    @Param({"0"})
    public int spins;

    /** Moves {@value ManyChannelsBenchmark#OPS} tokens through {@link #pairs} links. */
    @Benchmark
    @OperationsPerInvocation(ManyChannelsBenchmark.OPS)
    public void parallel() throws Exception {
        Floors.parallel(pairs, ManyChannelsBenchmark.OPS / pairs, spins, Floors.isHandoff(link));
    }
}
