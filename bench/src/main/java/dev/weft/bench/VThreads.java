package dev.weft.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Starts the threads of one benchmark invocation (virtual by default, platform threads for the
 * platform-thread variants) and joins them; the first failure of any of them is rethrown from
 * {@link #join()}, so a broken implementation fails the benchmark instead of reporting a fast score.
 */
final class VThreads {

    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    private static final Duration POLL = Duration.ofMillis(200);

    private final List<Thread> threads;
    private final Thread.Builder builder;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    VThreads(int expected) {
        this(expected, false);
    }

    VThreads(int expected, boolean platform) {
        threads = new ArrayList<>(expected);
        builder = platform ? Thread.ofPlatform().daemon() : Thread.ofVirtual();
    }

    void start(Body body) {
        prepare(body).start();
    }

    /**
     * A thread for {@code body}, not started yet: for bodies that need each other's {@link Thread}
     * (to unpark it) before any of them runs. Start it yourself; {@link #join()} waits for it.
     */
    Thread prepare(Body body) {
        Thread t = builder.unstarted(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        });
        threads.add(t);
        return t;
    }

    void join() throws Exception {
        for (Thread t : threads) {
            while (!t.join(POLL)) {
                if (failure.get() != null) {
                    // A partner died: the others would wait forever. Wake them and give up.
                    threads.forEach(Thread::interrupt);
                    break;
                }
            }
        }
        Throwable t = failure.get();
        if (t instanceof Exception e) {
            throw e;
        } else if (t instanceof Error e) {
            throw e;
        }
    }
}
