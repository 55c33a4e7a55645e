package dev.weft.bench;

import dev.weft.channels.Channel;
import dev.weft.channels.Select;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * Two virtual threads that both select on rendezvous channels: the sender's select offers a value
 * on {@code data} or takes one from a channel that stays empty, and the receiver's select takes
 * from {@code data} or from another channel that stays empty. Every handoff is between two
 * selects, so the one that comes second meets the other's registration, or its registration
 * still in progress (which a try-operation or a select's look then refuses, and which registers
 * again). weft only: a diagnostic of what selects cost each other, not a comparison with the peers
 * (see {@link SelectBenchmark} for that). Each invocation passes {@value #N} values; the score is
 * ns per value.
 */
public class SelectPairBenchmark extends WeftBenchmark {
    static final int N = 100_000;

    private static final Integer VALUE = 1;

    /** Only weft. */
    @Param({"weft"})
    public String impl;

    /** Passes {@value #N} values from one select to the other. */
    @Benchmark
    @OperationsPerInvocation(N)
    public void selectToSelect() throws Exception {
        Channel<Integer> data = Channel.newRendezvousChannel();
        Channel<Integer> quietForSender = Channel.newRendezvousChannel();
        Channel<Integer> quietForReceiver = Channel.newRendezvousChannel();
        VThreads vt = new VThreads(2);
        vt.start(() -> {
            for (int i = 0; i < N; i++) {
                Select.select(data.sendClause(VALUE), quietForSender.receiveClause());
            }
        });
        vt.start(() -> {
            for (int i = 0; i < N; i++) {
                Select.select(data.receiveClause(), quietForReceiver.receiveClause());
            }
        });
        vt.join();
    }
}
