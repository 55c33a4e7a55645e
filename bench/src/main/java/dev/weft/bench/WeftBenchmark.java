package dev.weft.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Timeout;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The settings every benchmark here shares; JMH takes class-level annotations from superclasses.
 * Scores are average ns per operation. A variant that overrides {@link #noisy()} runs beside a
 * noisy neighbour ({@link Noise}) for its whole trial.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
// Virtual-thread benchmarks are bimodal on few cores: many forks, compare medians (bench/report.py).
@Fork(value = 5, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
// A lost wake-up would otherwise hang the run: fail the iteration instead.
@Timeout(time = 60, timeUnit = TimeUnit.SECONDS)
@State(Scope.Benchmark)
public abstract class WeftBenchmark {
    private Noise noise;

    /**
     * Whether a platform thread of the same JVM burns CPU at normal priority from before the first
     * warm-up iteration to after the last measurement, so that on 2 cores the scenario has
     * effectively one free core (the Noisy variants: compare their slowdown with the quiet figure).
     */
    boolean noisy() {
        return false;
    }

    /** Starts the noisy neighbour of a noisy variant. */
    @Setup(Level.Trial)
    public void startNoise() {
        if (noisy()) {
            noise = Noise.start();
        }
    }

    /** Stops the noisy neighbour, if one runs. */
    @TearDown(Level.Trial)
    public void stopNoise() throws InterruptedException {
        if (noise != null) {
            noise.stop();
            noise = null;
        }
    }
}
