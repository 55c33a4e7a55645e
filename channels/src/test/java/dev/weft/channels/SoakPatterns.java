package dev.weft.channels;

import dev.weft.channels.internal.SegmentWatch;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The traffic patterns of {@link MemorySoak}, one class each. Every pattern runs on channels of
 * one kind, checks the values it receives (so a soak that loses or reorders values fails too),
 * and samples its {@link SegmentWatch}es every {@link #SAMPLE_EVERY} messages.
 */
final class SoakPatterns {
    static final int SAMPLE_EVERY = 1_000;
    static final List<String> PATTERNS =
            List.of("waiting-receive", "waiting-select", "timed-out-send", "interrupted-receive", "try-churn");
    static final List<String> KINDS = List.of("rendezvous", "buffered1", "buffered16", "unlimited");

    private SoakPatterns() {}

    static Channel<Integer> newChannel(String kind) {
        return switch (kind) {
            case "rendezvous" -> Channel.newRendezvousChannel();
            case "buffered1" -> Channel.newBufferedChannel(1);
            case "buffered16" -> Channel.newBufferedChannel(16);
            case "unlimited" -> Channel.newUnlimitedChannel();
            default -> throw new IllegalArgumentException("unknown channel kind " + kind);
        };
    }

    static Soak create(String pattern, String kind) {
        return switch (pattern) {
            case "waiting-receive" -> new WaitingReceive(kind);
            case "waiting-select" -> new WaitingSelect(kind);
            case "timed-out-send" -> new TimedOutSend(kind);
            case "interrupted-receive" -> new InterruptedReceive(kind);
            case "try-churn" -> new TryChurn(kind);
            default -> throw new IllegalArgumentException("unknown pattern " + pattern);
        };
    }

    /** One pattern on fresh channels; {@link #run} may be called repeatedly (warm-up, then the soak). */
    abstract static class Soak {
        final SegmentWatch[] watches;

        Soak(SegmentWatch... watches) {
            this.watches = watches;
        }

        /** Pushes {@code n} messages (operations, for the patterns that withdraw) through. */
        abstract void run(int n) throws Exception;

        /** What the {@code n} of {@link #run} counts. */
        String unit() {
            return "messages";
        }

        /** Extra figures for the report line, with a leading space, or empty. */
        String detail() {
            return "";
        }

        /** Segments a live waiter or value may keep in addition to an idle channel's. */
        int extraSegments() {
            return 1;
        }

        final void sample(int i) {
            if (i % SAMPLE_EVERY == 0) {
                for (SegmentWatch w : watches) {
                    w.sample();
                }
            }
        }
    }

    /** A consumer thread whose failure is reported to the producer. */
    static final class Consumer {
        final Thread thread;
        volatile Throwable failure;

        Consumer(Body body) {
            thread = Thread.ofVirtual().unstarted(() -> {
                try {
                    body.run();
                } catch (Throwable t) {
                    failure = t;
                }
            });
            thread.start();
        }

        interface Body {
            void run() throws Exception;
        }

        /** Waits until the consumer is parked (inside its channel operation). */
        void awaitParked() {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            int spins = 0;
            while (thread.getState() != Thread.State.WAITING) {
                if (!thread.isAlive()) {
                    throw new AssertionError("consumer finished early", failure);
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("consumer did not park within 60 s: " + thread.getState());
                }
                if (++spins < 200) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        }

        void join() throws InterruptedException {
            if (!thread.join(Duration.ofSeconds(60))) {
                throw new AssertionError("consumer did not finish within 60 s: " + thread.getState());
            }
            if (failure != null) {
                throw new AssertionError("consumer failed", failure);
            }
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /** (a) The consumer is parked in {@code receive()} before each send: every receive waits. */
    static final class WaitingReceive extends Soak {
        final Channel<Integer> ch;

        WaitingReceive(String kind) {
            this(newChannel(kind));
        }

        private WaitingReceive(Channel<Integer> ch) {
            super(new SegmentWatch(ch, "channel"));
            this.ch = ch;
        }

        @Override
        void run(int n) throws Exception {
            Consumer consumer = new Consumer(() -> {
                for (int i = 0; i < n; i++) {
                    int v = ch.receive();
                    check(v == i, "received " + v + ", expected " + i);
                }
            });
            for (int i = 0; i < n; i++) {
                consumer.awaitParked();
                ch.send(i);
                sample(i);
            }
            consumer.join();
        }
    }

    /** (b) A select loop over two channels, parked before each send: every select waits. */
    static final class WaitingSelect extends Soak {
        final Channel<Integer> a;
        final Channel<Integer> b;

        WaitingSelect(String kind) {
            this(newChannel(kind), newChannel(kind));
        }

        private WaitingSelect(Channel<Integer> a, Channel<Integer> b) {
            super(new SegmentWatch(a, "first channel"), new SegmentWatch(b, "second channel"));
            this.a = a;
            this.b = b;
        }

        @Override
        void run(int n) throws Exception {
            Consumer consumer = new Consumer(() -> {
                for (int i = 0; i < n; i++) {
                    int v = Select.select(a.receiveClause(), b.receiveClause(x -> -x - 1));
                    int expected = i % 2 == 0 ? i : -i - 1;
                    check(v == expected, "select returned " + v + ", expected " + expected);
                }
            });
            for (int i = 0; i < n; i++) {
                consumer.awaitParked();
                (i % 2 == 0 ? a : b).send(i);
                sample(i);
            }
            consumer.join();
        }
    }

    /**
     * (c) Timed sends on a rendezvous or full buffered channel that time out (1 ns; every 64th
     * with 50 µs, which parks). On a buffered channel every 8th step also moves one value through
     * (receive one, send one), so the buffer and both counters advance over the withdrawn cells.
     * An unlimited channel never makes a sender wait: there the timed operations are receives on
     * the empty channel, with one value through every 8th step.
     */
    static final class TimedOutSend extends Soak {
        static final Duration SHORT = Duration.ofNanos(1);
        static final Duration PARKING = Duration.ofNanos(50_000);
        final Channel<Integer> ch;
        int nextSent;
        int nextReceived;

        TimedOutSend(String kind) {
            this(newChannel(kind));
        }

        private TimedOutSend(Channel<Integer> ch) {
            super(new SegmentWatch(ch, "channel"));
            this.ch = ch;
            for (int k = 0; k < Math.max(ch.capacity(), 0); k++) {
                check(ch.trySend(nextSent++), "could not fill the buffer");
            }
        }

        @Override
        String unit() {
            return ch.capacity() < 0 ? "timed-out receives" : "timed-out sends";
        }

        @Override
        void run(int n) throws Exception {
            boolean unlimited = ch.capacity() < 0;
            for (int i = 0; i < n; i++) {
                Duration timeout = i % 64 == 63 ? PARKING : SHORT;
                if (unlimited) {
                    check(ch.tryReceive(timeout) == null, "received from an empty channel");
                } else {
                    check(!ch.trySend(-1, timeout), "sent to a full channel");
                }
                if (i % 8 == 7 && ch.capacity() != 0) {
                    if (unlimited) {
                        check(ch.trySend(nextSent++), "unlimited channel refused a value");
                    }
                    Integer v = ch.tryReceive();
                    check(v != null && v == nextReceived++, "received " + v + ", expected " + (nextReceived - 1));
                    if (!unlimited) {
                        check(ch.trySend(nextSent++), "no room after a receive");
                    }
                }
                sample(i);
            }
        }
    }

    /**
     * (d) The consumer is parked in {@code receive()} before each step; every other step
     * interrupts it (it withdraws), the others send it a value.
     */
    static final class InterruptedReceive extends Soak {
        final Channel<Integer> ch;

        InterruptedReceive(String kind) {
            this(newChannel(kind));
        }

        private InterruptedReceive(Channel<Integer> ch) {
            super(new SegmentWatch(ch, "channel"));
            this.ch = ch;
        }

        @Override
        String unit() {
            return "receives (half interrupted)";
        }

        @Override
        void run(int n) throws Exception {
            Consumer consumer = new Consumer(() -> {
                int expected = 0;
                while (true) {
                    int v;
                    try {
                        v = ch.receive();
                    } catch (InterruptedException withdrawn) {
                        continue;
                    }
                    if (v < 0) {
                        check(expected == (n + 1) / 2, "received " + expected + " values, sent " + (n + 1) / 2);
                        return;
                    }
                    check(v == expected++, "received " + v + ", expected " + (expected - 1));
                }
            });
            int sent = 0;
            for (int i = 0; i < n; i++) {
                consumer.awaitParked();
                if (i % 2 == 1) {
                    consumer.thread.interrupt();
                } else {
                    ch.send(sent++);
                }
                sample(i);
            }
            consumer.awaitParked();
            ch.send(-1);
            consumer.join();
        }
    }

    /**
     * (e) {@code trySend} and {@code tryReceive} churn on two threads until {@code n} values went
     * through: a producer that keeps at most 64 values in flight and a consumer. Both fail often
     * (empty, full, or, a receive, beside a send in flight), but a try-send into a buffer whose
     * values were all received must succeed. On a rendezvous channel a try-operation only
     * meets a waiting partner, so every other receive there is {@code tryReceive(50 µs)}.
     */
    static final class TryChurn extends Soak {
        final Channel<Integer> ch;
        final AtomicLong received = new AtomicLong();
        volatile boolean stop;
        int next;
        long attempts;

        TryChurn(String kind) {
            this(newChannel(kind));
        }

        private TryChurn(Channel<Integer> ch) {
            super(new SegmentWatch(ch, "channel"));
            this.ch = ch;
        }

        @Override
        String detail() {
            return " tryReceives=" + attempts;
        }

        /**
         * After a failed try: spin a little, then yield, so that on a loaded machine the partner
         * gets the core instead of one value per scheduling quantum.
         */
        static int backoff(int fails) {
            if (fails < 32) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
            return fails + 1;
        }

        @Override
        int extraSegments() {
            return 64 / Channel.segmentSize() + 2;
        }

        @Override
        void run(int n) throws Exception {
            stop = false;
            int first = next;
            boolean rendezvous = ch.capacity() == 0;
            Consumer producer = new Consumer(() -> {
                int seq = first;
                int fails = 0;
                while (!stop) {
                    long taken = received.get();
                    boolean sent = seq - taken < 64 && ch.trySend(seq);
                    // every value sent was received, and only receives run beside this one
                    // producer, so a buffered channel has room (Sink.trySend; stop 38)
                    if (!sent && !rendezvous && seq == taken) {
                        check(false, "trySend failed on an empty buffer: " + ch);
                    }
                    if (sent) {
                        seq++;
                        fails = 0;
                    } else {
                        fails = backoff(fails);
                    }
                }
            });
            long deadline = System.nanoTime() + Duration.ofSeconds(300).toNanos();
            attempts = 0;
            int fails = 0;
            for (int target = next + n; next < target; ) {
                Integer v = rendezvous && (attempts & 1) == 1 ? ch.tryReceive(TimedOutSend.PARKING) : ch.tryReceive();
                attempts++;
                if (v != null) {
                    check(v == next, "received " + v + ", expected " + next);
                    received.set(++next);
                    sample(next);
                    fails = 0;
                } else {
                    fails = backoff(fails);
                    if ((attempts & 1023) == 0) {
                        check(System.nanoTime() - deadline < 0, "only " + next + " values in 300 s");
                        check(producer.thread.isAlive(), "producer died: " + producer.failure);
                    }
                }
            }
            stop = true;
            producer.join();
            for (Integer v = ch.tryReceive(); v != null; v = ch.tryReceive()) {
                check(v == next, "received " + v + ", expected " + next);
                received.set(++next);
            }
        }
    }
}
