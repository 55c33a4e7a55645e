package dev.weft.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The reference point of {@link UncontendedBenchmark} ({@link CellPathFloor}): one thread sends
 * {@value UncontendedBenchmark#BATCH} values into a ring of cells and receives them, paying only
 * the atomic instructions of the chosen {@code path}. The score is ns per value (one send plus one
 * receive), comparable with {@link UncontendedBenchmark} at the same capacity.
 */
public class CellPathFloorBenchmark extends WeftBenchmark {
    @Param({"16", "100"})
    public int capacity;

    @Param({"counters", "cas", "expand", "mark", "counted", "kotlinx"})
    public String path;

    private CellPathFloor floor;

    @Setup
    public void setup() {
        floor = new CellPathFloor(path, capacity);
    }

    @Benchmark
    @OperationsPerInvocation(UncontendedBenchmark.BATCH)
    public int sendThenReceive() {
        return floor.sendThenReceive(UncontendedBenchmark.BATCH, Chan.VALUE);
    }
}
