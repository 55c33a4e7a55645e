package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * The floor of {@link ChainedBenchmark} at capacity 0: the same chain of {@code channelCount} links
 * and virtual threads, each link a one-token slot or a handoff, with {@code LockSupport.park}/{@code
 * unpark} instead of a channel (see {@link Floors#chain}). A reference, not a proven bound. Each
 * invocation moves tokens {@value ManyChannelsBenchmark#OPS} hops in all, like the chained
 * scenario; the score is ns per hop. Starting the threads is part of the invocation, as there.
 */
public class ChainFloorBenchmark extends WeftBenchmark {
    @Param({"10000"})
    public int channelCount;

    /** The links: {@code slot} (one-token mailboxes) or {@code handoff} (see {@link Floors.Handoff}). */
    @Param({"slot", "handoff"})
    public String link;

    @Benchmark
    @OperationsPerInvocation(ManyChannelsBenchmark.OPS)
    public void chain() throws Exception {
        Floors.chain(channelCount, ManyChannelsBenchmark.OPS / channelCount, Floors.isHandoff(link));
    }
}
