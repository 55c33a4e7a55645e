package dev.weft.bench;

/**
 * {@link PairFloorBenchmark} with a noisy neighbour (see {@link WeftBenchmark#noisy()}): what the
 * floor itself loses to it, against which the channels' noisy slowdowns are read.
 */
public class NoisyPairFloorBenchmark extends PairFloorBenchmark {
    @Override
    boolean noisy() {
        return true;
    }
}
