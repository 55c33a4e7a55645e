package dev.weft.bench;

/**
 * {@link CellFloorBenchmark} with a noisy neighbour (see {@link WeftBenchmark#noisy()}): what the
 * floor itself loses to it, against which the channels' noisy slowdowns are read.
 */
public class NoisyCellFloorBenchmark extends CellFloorBenchmark {
    @Override
    boolean noisy() {
        return true;
    }
}
