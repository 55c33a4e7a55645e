package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import dev.weft.bench.kt.KotlinScenarios;

/**
 * A plain sender and a receiver that receives through {@code select} on rendezvous channels: with
 * one clause, or with a second clause on a channel that stays empty (the "cancellation channel"
 * pattern). Each invocation receives {@value #N} values; the score is ns per value. The JDK has no
 * select, so only weft, jox and kotlinx.coroutines run here (jox 1.0.1 and, as {@code jox111}, 1.1.1).
 */
public class SelectBenchmark extends WeftBenchmark {
    static final int N = 100_000;

    @Param({"1", "2"})
    public int clauses;

    @Param({"weft", "jox", "jox111", "kotlin"})
    public String impl;

    private boolean kotlin;

    @Setup
    public void setup() {
        kotlin = impl.equals("kotlin");
        if (!kotlin) {
            SelectChan.create(impl);
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void selectReceive() throws Exception {
        if (kotlin) {
            KotlinScenarios.select(clauses, N);
        } else {
            Scenarios.select(SelectChan.create(impl), clauses, N);
        }
    }
}
