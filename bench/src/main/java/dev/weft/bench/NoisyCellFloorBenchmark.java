package dev.weft.bench;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link CellFloorBenchmark} with the noisy neighbour of {@link NoisyRendezvousBenchmark} ({@link
 * Noise}): what the floor itself loses when the scheduler has effectively one free core of two,
 * against which the channels' noisy slowdowns are read. The score is as there.
 */
public class NoisyCellFloorBenchmark extends CellFloorBenchmark {
    private Noise noise;

    /** Starts the burner before the first warm-up iteration. */
    @Setup(Level.Trial)
    public void startNoise() {
        noise = Noise.start();
    }

    /** Stops the burner after the last measurement. */
    @TearDown(Level.Trial)
    public void stopNoise() throws InterruptedException {
        noise.stop();
    }
}
