package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Many producers and consumers: exactly-once delivery, per-producer order, many virtual threads. */
@Timeout(120)
class ChannelConcurrencyTest {

    static Stream<Arguments> capacitiesAndThreads() {
        return Stream.of(Capacity.values())
                .flatMap(c -> Stream.of(ThreadKind.values()).map(k -> Arguments.of(c, k)));
    }

    /**
     * 4+ producers, 4+ consumers. Each value encodes (producer, sequence). Every value is received
     * exactly once, and each consumer sees each producer's values in increasing order.
     */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void exactlyOnceAndPerProducerFifo(Capacity capacity, ThreadKind kind) throws Exception {
        int producers = kind == ThreadKind.VIRTUAL ? 8 : 4;
        int consumers = kind == ThreadKind.VIRTUAL ? 8 : 4;
        int perProducer = kind == ThreadKind.VIRTUAL ? 5_000 : 4_000;
        Channel<Long> ch = capacity.newChannel();
        AtomicIntegerArray seen = new AtomicIntegerArray(producers * perProducer);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Forked<Void>> ps = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            long id = p;
            ps.add(Forked.run(kind, () -> {
                for (int i = 0; i < perProducer; i++) {
                    ch.send(id << 32 | i);
                }
            }));
        }
        List<Forked<Integer>> cs = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            int consumer = c;
            cs.add(Forked.start(kind, () -> {
                long[] last = new long[producers];
                java.util.Arrays.fill(last, -1);
                int count = 0;
                while (true) {
                    Object r = consumer % 2 == 0 ? ch.receiveOrClosed() : receiveOrDone(ch);
                    if (r instanceof ChannelDone) {
                        return count;
                    }
                    long v = (Long) r;
                    int p = (int) (v >>> 32);
                    int seq = (int) v;
                    if (seq <= last[p]) {
                        problems.add("consumer " + consumer + " got " + p + ":" + seq + " after " + p + ":" + last[p]);
                    }
                    last[p] = seq;
                    if (seen.getAndIncrement(p * perProducer + seq) != 0) {
                        problems.add("duplicate " + p + ":" + seq);
                    }
                    count++;
                }
            }));
        }
        for (Forked<Void> p : ps) {
            p.get();
        }
        ch.done();
        int total = 0;
        for (Forked<Integer> c : cs) {
            total += c.get();
        }
        assertTrue(problems.isEmpty(), () -> problems.stream().limit(20).toList().toString());
        assertEquals(producers * perProducer, total);
        for (int i = 0; i < seen.length(); i++) {
            if (seen.get(i) != 1) {
                fail("value " + (i / perProducer) + ":" + (i % perProducer) + " received " + seen.get(i) + " times");
            }
        }
    }

    private static Object receiveOrDone(Channel<Long> ch) throws InterruptedException {
        try {
            return ch.receive();
        } catch (ChannelDoneException e) {
            return new ChannelDone(ch);
        }
    }

    /** 50,000 virtual senders and 50,000 virtual receivers on one channel. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void hundredThousandVirtualThreads(Capacity capacity) throws Exception {
        int pairs = 50_000;
        Channel<Integer> ch = capacity.newChannel();
        LongAdder sum = new LongAdder();
        AtomicIntegerArray counts = new AtomicIntegerArray(pairs);
        List<Thread> threads = new ArrayList<>(2 * pairs);
        for (int i = 0; i < pairs; i++) {
            int v = i;
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    ch.send(v);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }));
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    int r = ch.receive();
                    sum.add(r);
                    counts.incrementAndGet(r);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }));
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !t.join(java.time.Duration.ofNanos(left))) {
                fail("not all threads finished: " + t + " " + t.getState() + "\n" + Forked.stack(t));
            }
        }
        assertEquals((long) pairs * (pairs - 1) / 2, sum.sum());
        for (int i = 0; i < pairs; i++) {
            assertEquals(1, counts.get(i), "value " + i);
        }
        assertNull(ch.tryReceive());
    }

    /**
     * 100,000 virtual threads, each sends one value and then receives one. (Not on a rendezvous
     * channel, where every thread could be waiting in its send with nobody receiving: a deadlock by
     * design. With any buffer there is always one thread that can go on.)
     */
    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = "RENDEZVOUS", mode = EnumSource.Mode.EXCLUDE)
    void hundredThousandVirtualThreadsEachSendingAndReceiving(Capacity capacity) throws Exception {
        int n = 100_000;
        Channel<Integer> ch = capacity.newChannel();
        AtomicLong sum = new AtomicLong();
        LongAdder done = new LongAdder();
        List<Thread> threads = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int v = i + 1;
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    ch.send(v);
                    sum.addAndGet(ch.receive());
                    done.increment();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }));
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !t.join(java.time.Duration.ofNanos(left))) {
                fail("not all threads finished (" + done.sum() + " done): " + t + " " + t.getState()
                        + "\n" + Forked.stack(t));
            }
        }
        assertEquals(n, done.sum());
        assertEquals((long) n * (n + 1) / 2, sum.get());
        assertNull(ch.tryReceive());
    }

    /** Platform threads only: several producers and consumers through a chain of channels. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void platformThreadPipeline(Capacity capacity) throws Exception {
        Channel<Integer> first = capacity.newChannel();
        Channel<Integer> second = capacity.newChannel();
        int n = 5_000;
        List<Forked<Void>> stage = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            stage.add(Forked.run(ThreadKind.PLATFORM, () -> first.forEach(x -> {
                try {
                    second.send(x * 2);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            })));
        }
        Forked<Long> sink = Forked.platform(() -> {
            long s = 0;
            for (int i = 0; i < n; i++) {
                s += second.receive();
            }
            return s;
        });
        for (int i = 0; i < n; i++) {
            first.send(i);
        }
        first.done();
        for (Forked<Void> w : stage) {
            w.get();
        }
        assertEquals((long) n * (n - 1), sink.get());
        second.done();
        assertEquals(new ChannelDone(second), second.receiveOrClosed());
    }
}
