package dev.weft.bench;

import dev.weft.bench.kt.KotlinScenarios;
import kotlinx.coroutines.channels.Channel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The cost of moving a value through a buffered channel when nothing waits and nothing contends:
 * one thread sends {@value #BATCH} values into one long-lived channel and then receives them, so
 * each value costs one send and one receive with room in the buffer. This is the per-value work
 * of the channel itself, without any scheduling; in the many-channel scenarios ({@link
 * ChainedBenchmark}, {@link ParallelBenchmark}) most values move this way. The score is ns per
 * value (one send plus one receive). kotlinx.coroutines uses {@code trySend} and {@code
 * tryReceive}, which never suspend and here always succeed.
 */
public class UncontendedBenchmark extends WeftBenchmark {
    static final int BATCH = 16;

    @Param({"16", "100"})
    public int capacity;

    @Param({"weft", "jox", "jox111", "kotlin", "ArrayBlockingQueue"})
    public String impl;

    private Chan chan;
    private Channel<Integer> kotlinChannel;

    @Setup
    public void setup() {
        if (impl.equals("kotlin")) {
            kotlinChannel = KotlinScenarios.newChannel(capacity);
        } else {
            chan = Chan.create(impl, capacity);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int sendThenReceive() throws Exception {
        if (kotlinChannel != null) {
            return KotlinScenarios.trySendThenTryReceive(kotlinChannel, BATCH);
        }
        Integer v = Chan.VALUE;
        for (int i = 0; i < BATCH; i++) {
            chan.send(v);
        }
        int sum = 0;
        for (int i = 0; i < BATCH; i++) {
            sum += chan.receive();
        }
        return sum;
    }
}
