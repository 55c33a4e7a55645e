package dev.weft.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Timeout;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The settings every benchmark here shares; JMH takes class-level annotations from superclasses.
 * Scores are average ns per operation.
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
public abstract class WeftBenchmark {}
