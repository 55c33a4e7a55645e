package dev.weft.bench;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link BufferedBenchmark} with a noisy neighbour: a platform thread of the same JVM burns CPU at
 * normal priority from before the first warm-up iteration to after the last measurement ({@link
 * Noise}), so that the scheduler has effectively one free core of two. The slowdown against the
 * quiet figure is the point; the score is ns per value, as there.
 */
public class NoisyBufferedBenchmark extends BufferedBenchmark {
    private Noise noise;

    @Setup(Level.Trial)
    public void startNoise() {
        noise = Noise.start();
    }

    @TearDown(Level.Trial)
    public void stopNoise() throws InterruptedException {
        noise.stop();
    }
}
