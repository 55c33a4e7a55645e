package dev.weft.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Starts virtual threads for one benchmark invocation and joins them; the first failure of any of
 * them is rethrown from {@link #join()}, so a broken implementation fails the benchmark instead of
 * reporting a fast score.
 */
final class VThreads {

    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    private static final Duration POLL = Duration.ofMillis(200);

    private final List<Thread> threads;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    VThreads(int expected) {
        threads = new ArrayList<>(expected);
    }

    void start(Body body) {
        threads.add(Thread.ofVirtual().start(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }));
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
