package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Selects under random interrupts, with every kind of send and receive on two channels, and two
 * selects in opposite clause order over channels of different capacities (a buffered(1) and a
 * rendezvous channel). Exact accounting: an operation that threw {@link InterruptedException} had
 * no effect, so the sender retries it, and every value is received exactly once.
 *
 * <p>Written after an adversarial run (helper 24, stop 20) that reported hangs. They were in the
 * test: its opposite-order case waited 2 s per round for a partner that had finished, and its
 * {@code trySend} loops spun on {@code Thread.yield()}, which on JDK 25 can keep two virtual
 * threads on both carriers while the runnable receivers they wait for never run. The retry
 * loops here back off with {@code parkNanos} instead.
 */
@Timeout(120)
class SelectInterruptChaosTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    /**
     * Six senders (plain send, trySend, biased and unbiased select, drawn per value) and six
     * receivers (biased and unbiased selectOrClosed, then plain receives on the channel left
     * open) on two channels, while a platform thread interrupts a random one of them every few
     * microseconds. Half the threads are virtual.
     */
    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "ONE", "SIXTEEN"})
    void everyValueOnceUnderRandomInterrupts(Capacity capacity) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        int senders = 6;
        int perSender = 3_000;
        AtomicIntegerArray sent = new AtomicIntegerArray(senders * perSender);
        AtomicIntegerArray received = new AtomicIntegerArray(senders * perSender);
        AtomicLong interrupts = new AtomicLong();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Forked<Void>> ss = new ArrayList<>();
        List<Forked<Void>> rs = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int id = s;
            ss.add(Forked.run(s % 2 == 0 ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM, () -> {
                SplittableRandom random = new SplittableRandom(id);
                for (int i = 0; i < perSender; i++) {
                    int v = id * perSender + i;
                    while (true) {
                        try {
                            sendOnce(a, b, v, random.nextInt(5), random);
                            break;
                        } catch (InterruptedException e) {
                            interrupts.incrementAndGet();
                        }
                    }
                    if (sent.getAndIncrement(v) != 0) {
                        problems.add("sent twice " + v);
                    }
                }
            }));
        }
        for (int r = 0; r < 6; r++) {
            int id = r;
            rs.add(Forked.run(r % 2 == 1 ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM, () -> {
                SplittableRandom random = new SplittableRandom(100 + id);
                Channel<Integer> left = null;
                while (true) {
                    Object got;
                    try {
                        if (left != null) {
                            got = random.nextBoolean() ? Select.selectOrClosed(left.receiveClause()) : left.receiveOrClosed();
                        } else {
                            got = random.nextBoolean()
                                    ? Select.selectOrClosed(a.receiveClause(), b.receiveClause())
                                    : Select.selectUnbiasedOrClosed(a.receiveClause(), b.receiveClause());
                        }
                    } catch (InterruptedException e) {
                        interrupts.incrementAndGet();
                        continue;
                    }
                    if (got instanceof ChannelDone d) {
                        if (left != null) {
                            return;
                        }
                        left = d.channel() == a ? b : a;
                    } else if (!(got instanceof Integer v)) {
                        problems.add("unexpected " + got);
                        return;
                    } else if (received.getAndIncrement(v) != 0) {
                        problems.add("received twice " + v);
                    }
                }
            }));
        }
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> targets = new ArrayList<>();
        ss.forEach(f -> targets.add(f.thread()));
        rs.forEach(f -> targets.add(f.thread()));
        Forked<Void> chaos = Forked.run(ThreadKind.PLATFORM, () -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (!stop.get()) {
                targets.get(random.nextInt(targets.size())).interrupt();
                LockSupport.parkNanos(random.nextInt(20_000));
            }
        });
        for (Forked<Void> s : ss) {
            s.get(PATIENCE);
        }
        stop.set(true);
        chaos.get();
        a.done();
        b.done();
        for (Forked<Void> r : rs) {
            r.get(PATIENCE);
        }
        assertTrue(problems.isEmpty(), problems.size() + " problems, first: " + problems.stream().limit(5).toList());
        for (int v = 0; v < senders * perSender; v++) {
            assertEquals(1, sent.get(v), "sent " + v);
            assertEquals(1, received.get(v), "received " + v);
        }
        assertTrue(interrupts.get() > 0, "the chaos thread interrupted no operation");
        System.out.printf("chaos %s: %d operations interrupted%n", capacity, interrupts.get());
    }

    /** One send of v by the given kind; a failed trySend is retried after a short park. */
    private static void sendOnce(Channel<Integer> a, Channel<Integer> b, int v, int kind, SplittableRandom random)
            throws InterruptedException {
        switch (kind) {
            case 0 -> a.send(v);
            case 1 -> b.send(v);
            case 2 -> {
                while (!(random.nextBoolean() ? a : b).trySend(v)) {
                    // not Thread.yield(): see the class javadoc
                    LockSupport.parkNanos(1_000);
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                }
            }
            case 3 -> Select.select(a.sendClause(v), b.sendClause(v));
            default -> Select.selectUnbiased(b.sendClause(v), a.sendClause(v));
        }
    }

    /**
     * Side 1 loops select(a.send, b.receive) and side 2 select(b.send, a.receive), where a is
     * buffered(1) and b rendezvous, with 20 ms timeouts. Progress is always possible (a is empty,
     * so side 1 can send, or full, so side 2 can receive), so neither side may go 5 s without
     * one of them completing a select; every value sent is received once, by the other side or
     * by the drain at the end.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void oppositeSelectsOverDifferentCapacities(ThreadKind kind) throws Exception {
        for (int round = 0; round < 20; round++) {
            Channel<Integer> a = Channel.newBufferedChannel(1);
            Channel<Integer> b = Channel.newRendezvousChannel();
            int n = 2_000;
            AtomicIntegerArray received = new AtomicIntegerArray(2 * n);
            AtomicLong lastProgress = new AtomicLong(System.nanoTime());
            AtomicBoolean done1 = new AtomicBoolean();
            AtomicBoolean done2 = new AtomicBoolean();
            Forked<Integer> side1 = Forked.start(kind, () -> side(a, b, 0, n, received, lastProgress, done1, done2));
            Forked<Integer> side2 = Forked.start(kind, () -> side(b, a, n, n, received, lastProgress, done2, done1));
            int sent1 = side1.get(PATIENCE);
            int sent2 = side2.get(PATIENCE);
            for (Integer x; (x = a.tryReceive()) != null; ) {
                assertEquals(0, received.getAndIncrement(x), "drained twice " + x);
            }
            assertEquals(null, b.tryReceive(), "a rendezvous channel holds nothing");
            for (int v = 0; v < 2 * n; v++) {
                boolean wasSent = v < n ? v < sent1 : v - n < sent2;
                assertEquals(wasSent ? 1 : 0, received.get(v), "round " + round + ", value " + v);
            }
        }
    }

    /**
     * Sends first..first+n-1 on out (in order) and receives from in, by select, until it has sent
     * n values or the other side has finished; returns how many it sent.
     */
    private static int side(Channel<Integer> out, Channel<Integer> in, int first, int n, AtomicIntegerArray received,
            AtomicLong lastProgress, AtomicBoolean myDone, AtomicBoolean otherDone) throws Exception {
        int sent = 0;
        try {
            while (sent < n) {
                Object r;
                try {
                    r = Select.selectWithin(Duration.ofMillis(20),
                            out.sendClause(first + sent, () -> (Object) "sent"), in.receiveClause(v -> (Object) v));
                } catch (TimeoutException e) {
                    if (otherDone.get()) {
                        return sent;
                    }
                    long stalled = System.nanoTime() - lastProgress.get();
                    if (stalled > 5_000_000_000L) {
                        throw new AssertionError("no select completed for " + stalled / 1_000_000 + " ms: " + out + ", " + in);
                    }
                    continue;
                }
                lastProgress.set(System.nanoTime());
                if ("sent".equals(r)) {
                    sent++;
                } else if (received.getAndIncrement((Integer) r) != 0) {
                    throw new AssertionError("received twice " + r);
                }
            }
            return sent;
        } finally {
            myDone.set(true);
        }
    }
}
