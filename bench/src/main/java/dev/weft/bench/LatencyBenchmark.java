package dev.weft.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The latency distribution of one receive in the single-pair scenario: a sender virtual thread
 * sends without pause for the whole iteration while the benchmark method receives one value per
 * call, on a virtual thread too (JMH's {@code -Djmh.executor=VIRTUAL}). JMH's sample mode times
 * individual calls, so the JSON has the percentiles (p50, p99, p99.9) besides the mean, in ns.
 * A receive's time includes waiting for the sender when the channel is empty.
 *
 * <p>kotlinx.coroutines is not here: its receive suspends, and a coroutine cannot be the timed
 * JMH call without a {@code runBlocking} per value, which would measure that instead.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 5, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Djmh.executor=VIRTUAL"})
public abstract class LatencyBenchmark extends WeftBenchmark {
    private Chan ch;
    private Thread sender;

    /** The implementation's name, as in {@link Chan#create}. */
    abstract String impl();

    /** The channel's capacity. */
    abstract int capacity();

    @Setup(Level.Iteration)
    public void startSender() {
        if (!Thread.currentThread().isVirtual()) {
            throw new IllegalStateException("run with -jvmArgsAppend -Djmh.executor=VIRTUAL (set by @Fork here)");
        }
        Chan c = Chan.create(impl(), capacity());
        ch = c;
        sender = Thread.ofVirtual().name("latency-sender").start(() -> {
            try {
                while (true) {
                    c.send(Chan.VALUE);
                }
            } catch (InterruptedException e) {
                // the end of the iteration
            }
        });
    }

    @TearDown(Level.Iteration)
    public void stopSender() throws InterruptedException {
        sender.interrupt();
        if (!sender.join(java.time.Duration.ofSeconds(30))) {
            throw new IllegalStateException(impl() + ": the sender did not stop after an interrupt");
        }
    }

    @Benchmark
    public Integer receive() throws InterruptedException {
        return ch.receive();
    }
}
