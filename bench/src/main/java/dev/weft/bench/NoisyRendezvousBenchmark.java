package dev.weft.bench;

/**
 * {@link RendezvousBenchmark} with a noisy neighbour (see {@link WeftBenchmark#noisy()}): the
 * slowdown against the quiet figure is the point; the score is ns per value, as there.
 */
public class NoisyRendezvousBenchmark extends RendezvousBenchmark {
    @Override
    boolean noisy() {
        return true;
    }
}
