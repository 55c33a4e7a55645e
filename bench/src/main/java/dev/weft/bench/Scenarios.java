package dev.weft.bench;

import dev.weft.bench.kt.KotlinScenarios;

/** The Java side of every scenario; {@code dev.weft.bench.kt.KotlinScenarios} mirrors it with coroutines. */
final class Scenarios {

    private Scenarios() {
    }

    /** One sender and one receiver virtual thread on one channel, {@code n} values. */
    static void pair(Chan ch, int n) throws Exception {
        pair(ch, n, false);
    }

    /** One sender and one receiver thread (virtual, or platform if asked) on one channel, {@code n} values. */
    static void pair(Chan ch, int n, boolean platform) throws Exception {
        VThreads vt = new VThreads(2, platform);
        vt.start(() -> sendN(ch, n));
        vt.start(() -> receiveN(ch, n));
        vt.join();
    }

    /**
     * The kotlinx.coroutines pair driven from two platform threads: each runs its side in {@code
     * runBlocking}, which parks the thread while the coroutine is suspended.
     */
    static void kotlinPairOnPlatformThreads(int capacity, int n) throws Exception {
        var ch = KotlinScenarios.newChannel(capacity);
        VThreads vt = new VThreads(2, true);
        vt.start(() -> KotlinScenarios.sendBlocking(ch, n));
        vt.start(() -> KotlinScenarios.receiveBlocking(ch, n));
        vt.join();
    }

    /** A plain sender and a receiver that receives through select, {@code n} values. */
    static void select(SelectChan ch, int clauses, int n) throws Exception {
        VThreads vt = new VThreads(2);
        vt.start(() -> sendN(ch, n));
        if (clauses == 1) {
            vt.start(() -> {
                for (int i = 0; i < n; i++) {
                    ch.selectOne();
                }
            });
        } else {
            vt.start(() -> {
                for (int i = 0; i < n; i++) {
                    ch.selectWithCancel();
                }
            });
        }
        vt.join();
    }

    /**
     * A chain of {@code channels.length} channels: a source sends {@code n} values into the first,
     * one virtual thread per link forwards from channel i-1 to i, a sink drains the last.
     */
    static void chain(Chan[] channels, int n) throws Exception {
        int count = channels.length;
        VThreads vt = new VThreads(count + 1);
        vt.start(() -> sendN(channels[0], n));
        for (int t = 1; t < count; t++) {
            Chan in = channels[t - 1];
            Chan out = channels[t];
            vt.start(() -> {
                for (int i = 0; i < n; i++) {
                    out.send(in.receive());
                }
            });
        }
        vt.start(() -> receiveN(channels[count - 1], n));
        vt.join();
    }

    /** Independent channels, a sender and a receiver virtual thread on each, {@code n} values each. */
    static void parallel(Chan[] channels, int n) throws Exception {
        VThreads vt = new VThreads(2 * channels.length);
        for (Chan ch : channels) {
            vt.start(() -> sendN(ch, n));
            vt.start(() -> receiveN(ch, n));
        }
        vt.join();
    }

    /** {@code producers} x {@code consumers} virtual threads on one channel, {@code total} values. */
    static void contention(Chan ch, int producers, int consumers, int total) throws Exception {
        VThreads vt = new VThreads(producers + consumers);
        int perProducer = total / producers;
        int perConsumer = total / consumers;
        for (int p = 0; p < producers; p++) {
            vt.start(() -> sendN(ch, perProducer));
        }
        for (int c = 0; c < consumers; c++) {
            vt.start(() -> receiveN(ch, perConsumer));
        }
        vt.join();
    }

    static void sendN(Chan ch, int n) throws InterruptedException {
        Integer v = Chan.VALUE;
        for (int i = 0; i < n; i++) {
            ch.send(v);
        }
    }

    static void receiveN(Chan ch, int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            if (ch.receive() == null) {
                throw new AssertionError("received null");
            }
        }
    }
}
