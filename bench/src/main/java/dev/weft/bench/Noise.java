package dev.weft.bench;

/**
 * A noisy neighbour: one platform thread at normal priority that burns CPU until {@link #stop()},
 * so that on a 2-core machine the scenario's threads have effectively one free core.
 */
final class Noise {
    private final Thread burner;
    private volatile boolean running = true;
    /** Published so that the JIT cannot drop the loop's work. */
    volatile long sink;

    private Noise() {
        burner = Thread.ofPlatform().daemon().name("noisy-neighbour").priority(Thread.NORM_PRIORITY).unstarted(this::burn);
    }

    /** Starts a burner thread. */
    static Noise start() {
        Noise n = new Noise();
        n.burner.start();
        return n;
    }

    private void burn() {
        long x = 1;
        while (running) {
            for (int i = 0; i < 1_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        sink = x;
    }

    /** Stops the burner and waits for it. */
    void stop() throws InterruptedException {
        running = false;
        burner.join();
    }
}
