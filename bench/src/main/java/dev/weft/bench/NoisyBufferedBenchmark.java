package dev.weft.bench;

/**
 * {@link BufferedBenchmark} with a noisy neighbour (see {@link WeftBenchmark#noisy()}): the
 * slowdown against the quiet figure is the point; the score is ns per value, as there.
 */
public class NoisyBufferedBenchmark extends BufferedBenchmark {
    @Override
    boolean noisy() {
        return true;
    }
}
