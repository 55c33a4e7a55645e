package dev.weft.bench;

/**
 * {@link BufferedBenchmark} with the sender and the receiver on platform threads instead of virtual
 * threads (kotlinx.coroutines: each side in {@code runBlocking} on its own platform thread). Users
 * run both kinds of thread; the score is ns per value, as there.
 */
public class PlatformBufferedBenchmark extends BufferedBenchmark {
    @Override
    boolean platformThreads() {
        return true;
    }
}
