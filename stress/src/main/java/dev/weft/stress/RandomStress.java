package dev.weft.stress;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelClosed;
import dev.weft.channels.ChannelClosedException;
import dev.weft.channels.ChannelDone;
import dev.weft.channels.ChannelDoneException;
import dev.weft.channels.ChannelError;
import dev.weft.channels.ChannelErrorException;
import dev.weft.channels.Select;
import dev.weft.channels.SelectClause;
import dev.weft.channels.Sink;
import dev.weft.channels.internal.StressAccess;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Randomized stress with exact accounting.
 *
 * <p>Each <em>round</em> creates two channels A and B of one capacity and runs producers and
 * consumers (half on virtual threads, half on platform threads) that mix every kind of operation:
 * {@code send}, {@code sendOrClosed}, {@code trySend}, timed {@code trySend}, a select over
 * {@code A.sendClause} and {@code B.sendClause}, and the receiving counterparts, including selects
 * with a timeout. An interrupter thread interrupts random producers and consumers; a closer closes
 * A and B (done, or in some rounds B in error) at random moments.
 *
 * <p>Every value is unique: {@code producer << 33 | channel << 32 | seq}. A producer records, for
 * each seq, whether it was sent on A, on B, or not at all (interrupted, timed out, channel closed,
 * or the select's other clause won). Consumers record everything they receive. At the end of the
 * round the two must agree exactly: every sent value received exactly once, every unsent value
 * never; values sent to a channel closed in error and not received are counted as discarded (the
 * only legal loss). Each consumer must also see every producer's values on one channel in
 * increasing seq order (per-producer FIFO).
 *
 * <p>Usage: {@code RandomStress <seconds> [capacities]}, e.g. {@code RandomStress 60
 * 0,1,2,16,100,-1} (-1 = unlimited). The segment size is the JVM's ({@code -Dweft.segmentSize}).
 * Exits with status 1 on any accounting failure or a round that hangs; a hang dumps the channels
 * and all threads.
 */
public final class RandomStress {
    /**
     * {@code -Dstress.pair=true}: one producer and one consumer, both virtual, so that each channel
     * is a pair, whose virtual waiters park at once in buffers of 16 or more ({@code
     * Spin#parkAtOnce}); otherwise 4 producers and 3 consumers, half of them virtual.
     */
    static final boolean PAIR = Boolean.getBoolean("stress.pair");
    static final int PRODUCERS = PAIR ? 1 : 4;
    static final int CONSUMERS = PAIR ? 1 : 3;
    static final long ROUND_HANG_MS = 60_000;
    /** Debug knobs for narrowing a failure down: which operation kinds may be used, interrupts on/off. */
    static final String SEND_OPS = System.getProperty("stress.sendOps", "0123456");
    static final String RECEIVE_OPS = System.getProperty("stress.receiveOps", "012345");
    static final boolean TIMED_SELECTS = Boolean.parseBoolean(System.getProperty("stress.timedSelects", "true"));
    static final boolean INTERRUPTS = Boolean.parseBoolean(System.getProperty("stress.interrupts", "true"));
    static final boolean EARLY_CLOSE = Boolean.parseBoolean(System.getProperty("stress.earlyClose", "true"));

    static final String[] SEND_KINDS = {"send", "sendOrClosed", "trySendOrClosed", "timed trySendOrClosed", "select"};
    static final byte NOT_SENT = 0;
    static final byte SENT_A = 1;
    static final byte SENT_B = 2;

    // global statistics
    static final LongAdder OPS = new LongAdder();
    static final LongAdder INTERRUPTS_DELIVERED = new LongAdder();
    static final LongAdder INTERRUPTED_OPS = new LongAdder();
    static final LongAdder INTERRUPT_AFTER_COMPLETION = new LongAdder();
    static final LongAdder TIMEOUTS = new LongAdder();
    static final LongAdder TRY_FAILED = new LongAdder();
    static final LongAdder SELECTS = new LongAdder();
    static final LongAdder CLOSED_SEEN = new LongAdder();
    static final LongAdder CLOSES = new LongAdder();
    static final LongAdder DELIVERED = new LongAdder();
    static final LongAdder RETURNED = new LongAdder();
    static final LongAdder DISCARDED = new LongAdder();
    static final LongAdder ROUNDS = new LongAdder();

    private RandomStress() {}

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 20;
        int[] capacities = args.length > 1
                ? Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray()
                : new int[] {0, 1, 2, 16, 100, -1};
        long seed = args.length > 2 ? Long.parseLong(args[2]) : System.nanoTime();
        System.out.printf("RandomStress: segmentSize=%d, capacities=%s, %.0f s, seed=%d, %d producers, %d consumers%n",
                StressAccess.segmentSize(), Arrays.toString(capacities), seconds, seed, PRODUCERS, CONSUMERS);
        SplittableRandom rnd = new SplittableRandom(seed);
        long perCapacityNanos = (long) (seconds * 1e9 / capacities.length);
        boolean ok = true;
        for (int capacity : capacities) {
            long end = System.nanoTime() + perCapacityNanos;
            long roundsBefore = ROUNDS.sum();
            long deliveredBefore = DELIVERED.sum();
            while (System.nanoTime() < end && ok) {
                ok = new Round(capacity, rnd.split()).run();
                ROUNDS.increment();
            }
            System.out.printf("  capacity %-9s rounds %5d  delivered %,12d%n",
                    capacity < 0 ? "unlimited" : Integer.toString(capacity),
                    ROUNDS.sum() - roundsBefore, DELIVERED.sum() - deliveredBefore);
            if (!ok) {
                break;
            }
        }
        System.out.printf(
                "RandomStress %s: segmentSize=%d rounds=%d ops=%,d selects=%,d interrupts=%,d"
                        + " (interrupted ops %,d, completed-then-flag-set %,d) timeouts=%,d failed-try=%,d"
                        + " closes=%,d closed-seen=%,d delivered=%,d returned-to-sender=%,d discarded-by-error=%,d%n",
                ok ? "PASSED" : "FAILED", StressAccess.segmentSize(), ROUNDS.sum(), OPS.sum(), SELECTS.sum(),
                INTERRUPTS_DELIVERED.sum(), INTERRUPTED_OPS.sum(), INTERRUPT_AFTER_COMPLETION.sum(),
                TIMEOUTS.sum(), TRY_FAILED.sum(), CLOSES.sum(), CLOSED_SEEN.sum(), DELIVERED.sum(),
                RETURNED.sum(), DISCARDED.sum());
        System.exit(ok ? 0 : 1);
    }

    /** A growable list of longs. */
    static final class Longs {
        long[] a = new long[1024];
        int n;

        void add(long v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }
    }

    static long value(int producer, int channel, int seq) {
        return ((long) producer << 33) | ((long) channel << 32) | (seq & 0xFFFFFFFFL);
    }

    /** One round: fresh channels, producers, consumers, an interrupter and a closer. */
    static final class Round {
        final int capacity;
        final SplittableRandom rnd;
        final Channel<Long> a;
        final Channel<Long> b;
        final boolean errorB;
        final int opsPerProducer;
        final byte[][] status;
        /** How each value was sent (for failure reports). */
        final byte[][] how;
        final int[] attempted;
        final Longs[] received = new Longs[CONSUMERS];
        final List<Thread> victims = new ArrayList<>();
        final AtomicBoolean stop = new AtomicBoolean();
        final List<String> failures = new ArrayList<>();

        Round(int capacity, SplittableRandom rnd) {
            this.capacity = capacity;
            this.rnd = rnd;
            this.a = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
            this.b = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
            this.errorB = rnd.nextInt(4) == 0;
            this.opsPerProducer = 200 + rnd.nextInt(3000);
            this.status = new byte[PRODUCERS][opsPerProducer];
            this.how = new byte[PRODUCERS][opsPerProducer];
            this.attempted = new int[PRODUCERS];
        }

        boolean run() throws InterruptedException {
            List<Thread> producers = new ArrayList<>();
            List<Thread> consumers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                int id = p;
                long seed = rnd.nextLong();
                Runnable r = () -> produce(id, new SplittableRandom(seed));
                producers.add(PAIR || p % 2 == 0 ? Thread.ofVirtual().unstarted(r) : Thread.ofPlatform().unstarted(r));
            }
            for (int c = 0; c < CONSUMERS; c++) {
                int id = c;
                received[c] = new Longs();
                long seed = rnd.nextLong();
                Runnable r = () -> consume(id, new SplittableRandom(seed));
                consumers.add(!PAIR && c % 2 == 0 ? Thread.ofPlatform().unstarted(r) : Thread.ofVirtual().unstarted(r));
            }
            victims.addAll(producers);
            victims.addAll(consumers);
            long interrupterSeed = rnd.nextLong();
            Thread interrupter = Thread.ofPlatform().start(() -> interrupt(new SplittableRandom(interrupterSeed)));
            producers.forEach(Thread::start);
            consumers.forEach(Thread::start);

            // Closer: close at a random moment, or once all producers are done, whichever is first.
            long closeAfterMs = EARLY_CLOSE && rnd.nextInt(3) == 0 ? rnd.nextInt(50) : Long.MAX_VALUE;
            long deadline = System.currentTimeMillis() + ROUND_HANG_MS;
            joinAll(producers, closeAfterMs, deadline);
            close(a, false);
            if (rnd.nextBoolean()) {
                Thread.sleep(0, rnd.nextInt(100_000));
            }
            close(b, errorB);
            if (!joinAll(producers, Long.MAX_VALUE, deadline) || !joinAll(consumers, Long.MAX_VALUE, deadline)) {
                stop.set(true);
                interrupter.join();
                hang();
                return false;
            }
            stop.set(true);
            interrupter.join();
            return check();
        }

        static boolean joinAll(List<Thread> threads, long maxMs, long deadline) throws InterruptedException {
            long until = maxMs == Long.MAX_VALUE ? deadline : Math.min(deadline, System.currentTimeMillis() + maxMs);
            for (Thread t : threads) {
                long left = until - System.currentTimeMillis();
                if (left <= 0 || !t.join(Duration.ofMillis(left))) {
                    return false;
                }
            }
            return true;
        }

        void close(Channel<Long> ch, boolean error) {
            CLOSES.increment();
            if (error) {
                ch.errorOrClosed(new RuntimeException("stress error"));
            } else {
                ch.doneOrClosed();
            }
        }

        void interrupt(SplittableRandom r) {
            while (INTERRUPTS && !stop.get()) {
                Thread t = victims.get(r.nextInt(victims.size()));
                if (t.isAlive()) {
                    t.interrupt();
                    INTERRUPTS_DELIVERED.increment();
                }
                try {
                    Thread.sleep(0, 20_000 + r.nextInt(300_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** Clears a leftover interrupt after an operation that completed normally. */
        static void clearFlag() {
            if (Thread.interrupted()) {
                INTERRUPT_AFTER_COMPLETION.increment();
            }
        }

        // ---------------------------------------------------------------------------------- producer

        void produce(int id, SplittableRandom r) {
            boolean aOpen = true;
            boolean bOpen = true;
            int seq = 0;
            for (; seq < opsPerProducer && (aOpen || bOpen); seq++) {
                OPS.increment();
                byte result = NOT_SENT;
                int which = !aOpen ? 1 : !bOpen ? 0 : r.nextInt(2);
                Channel<Long> ch = which == 0 ? a : b;
                long v = value(id, which, seq);
                Object closed = null;
                int kind = SEND_OPS.charAt(r.nextInt(SEND_OPS.length())) - '0';
                how[id][seq] = (byte) kind;
                try {
                    switch (kind) {
                        case 0 -> {
                            try {
                                ch.send(v);
                                result = (byte) (which + 1);
                            } catch (ChannelClosedException e) {
                                closed = e;
                            }
                        }
                        case 1 -> {
                            closed = ch.sendOrClosed(v);
                            if (closed == null) {
                                result = (byte) (which + 1);
                            }
                        }
                        case 2 -> {
                            Object o = ch.trySendOrClosed(v);
                            if (o == null) {
                                result = (byte) (which + 1);
                            } else if (o == Sink.NOT_SENT) {
                                TRY_FAILED.increment();
                            } else {
                                closed = o;
                            }
                        }
                        case 3 -> {
                            Object o = ch.trySendOrClosed(v, Duration.ofNanos(r.nextInt(200_000)));
                            if (o == null) {
                                result = (byte) (which + 1);
                            } else if (o == Sink.NOT_SENT) {
                                TIMEOUTS.increment();
                            } else {
                                closed = o;
                            }
                        }
                        default -> {
                            if (aOpen && bOpen) {
                                SELECTS.increment();
                                long va = value(id, 0, seq);
                                long vb = value(id, 1, seq);
                                SelectClause<Integer> ca = a.sendClause(va, () -> 1);
                                SelectClause<Integer> cb = b.sendClause(vb, () -> 2);
                                Object o;
                                if (!TIMED_SELECTS || r.nextBoolean()) {
                                    o = r.nextBoolean() ? Select.selectOrClosed(ca, cb) : Select.selectOrClosed(cb, ca);
                                } else {
                                    o = Select.selectOrClosedWithin(Duration.ofNanos(r.nextInt(300_000)), 0, ca, cb);
                                    if (Integer.valueOf(0).equals(o)) {
                                        TIMEOUTS.increment();
                                    }
                                }
                                if (o instanceof Integer i && i > 0) {
                                    result = (byte) (int) i;
                                } else if (o instanceof ChannelClosed) {
                                    closed = o;
                                    which = ((ChannelClosed) o).channel() == a ? 0 : 1;
                                }
                            } else {
                                closed = ch.sendOrClosed(v);
                                if (closed == null) {
                                    result = (byte) (which + 1);
                                }
                            }
                        }
                    }
                    clearFlag();
                } catch (InterruptedException e) {
                    INTERRUPTED_OPS.increment();
                }
                status[id][seq] = result;
                if (result == NOT_SENT) {
                    RETURNED.increment();
                }
                if (closed != null) {
                    CLOSED_SEEN.increment();
                    if (which == 0) {
                        aOpen = false;
                    } else {
                        bOpen = false;
                    }
                }
            }
            attempted[id] = seq;
        }

        // ---------------------------------------------------------------------------------- consumer

        void consume(int id, SplittableRandom r) {
            Longs out = received[id];
            boolean aOpen = true;
            boolean bOpen = true;
            while (aOpen || bOpen) {
                OPS.increment();
                int which = !aOpen ? 1 : !bOpen ? 0 : r.nextInt(2);
                Channel<Long> ch = which == 0 ? a : b;
                Object o = null;
                boolean mayBeNull = false; // only try-ops, timed ops and interrupted ops yield nothing
                try {
                    switch (RECEIVE_OPS.charAt(r.nextInt(RECEIVE_OPS.length())) - '0') {
                        case 0 -> o = ch.receiveOrClosed();
                        case 1 -> {
                            try {
                                o = ch.receive();
                            } catch (ChannelDoneException e) {
                                o = new ChannelDone(ch);
                            } catch (ChannelErrorException e) {
                                o = new ChannelError(e.getCause(), ch);
                            }
                        }
                        case 2 -> {
                            mayBeNull = true;
                            o = ch.tryReceiveOrClosed();
                            if (o == null) {
                                TRY_FAILED.increment();
                            }
                        }
                        case 3 -> {
                            mayBeNull = true;
                            o = ch.tryReceiveOrClosed(Duration.ofNanos(r.nextInt(200_000)));
                            if (o == null) {
                                TIMEOUTS.increment();
                            }
                        }
                        default -> {
                            if (aOpen && bOpen) {
                                SELECTS.increment();
                                SelectClause<Object> ca = a.receiveClause(x -> x);
                                SelectClause<Object> cb = b.receiveClause(x -> x);
                                if (!TIMED_SELECTS || r.nextBoolean()) {
                                    o = r.nextBoolean() ? Select.selectOrClosed(ca, cb) : Select.selectOrClosed(cb, ca);
                                } else {
                                    mayBeNull = true;
                                    o = Select.selectOrClosedWithin(Duration.ofNanos(r.nextInt(300_000)), null, ca, cb);
                                    if (o == null) {
                                        TIMEOUTS.increment();
                                    }
                                }
                                if (o instanceof ChannelClosed c) {
                                    which = c.channel() == a ? 0 : 1;
                                }
                            } else {
                                o = ch.receiveOrClosed();
                            }
                        }
                    }
                    clearFlag();
                } catch (InterruptedException e) {
                    INTERRUPTED_OPS.increment();
                    mayBeNull = true;
                }
                if (o == null && !mayBeNull) {
                    fail("consumer " + id + ": a blocking receive or select returned null instead of a value");
                }
                if (o instanceof Long v) {
                    out.add(v);
                } else if (o instanceof ChannelDone || o instanceof ChannelError) {
                    CLOSED_SEEN.increment();
                    if (which == 0) {
                        aOpen = false;
                    } else {
                        bOpen = false;
                    }
                } else if (o != null) {
                    fail("consumer " + id + " got an unexpected object: " + o);
                    return;
                }
            }
        }

        synchronized void fail(String msg) {
            if (failures.size() < 20) {
                failures.add(msg);
            }
        }

        // ---------------------------------------------------------------------------------- checks

        boolean check() {
            byte[][] count = new byte[PRODUCERS * 2][opsPerProducer];
            for (int c = 0; c < CONSUMERS; c++) {
                Longs l = received[c];
                int[] lastSeq = new int[PRODUCERS * 2];
                Arrays.fill(lastSeq, -1);
                for (int i = 0; i < l.n; i++) {
                    long v = l.a[i];
                    int p = (int) (v >>> 33);
                    int ch = (int) ((v >>> 32) & 1);
                    int seq = (int) v;
                    if (p >= PRODUCERS || seq < 0 || seq >= opsPerProducer) {
                        fail("consumer " + c + " received unknown value " + Long.toHexString(v));
                        continue;
                    }
                    int key = p * 2 + ch;
                    if (seq <= lastSeq[key]) {
                        fail("FIFO violated: consumer " + c + " got producer " + p + " channel " + "AB".charAt(ch)
                                + " seq " + seq + " after seq " + lastSeq[key]);
                    }
                    lastSeq[key] = seq;
                    count[key][seq]++;
                }
            }
            long delivered = 0;
            long discarded = 0;
            for (int p = 0; p < PRODUCERS; p++) {
                for (int seq = 0; seq < opsPerProducer; seq++) {
                    int sent = status[p][seq];
                    int ra = count[p * 2][seq];
                    int rb = count[p * 2 + 1][seq];
                    String what = "producer " + p + " seq " + seq + " (sent by " + SEND_KINDS[Math.min(how[p][seq], 4)] + "): ";
                    if (ra > 1 || rb > 1) {
                        fail(what + "received twice (A " + ra + ", B " + rb + ")");
                    } else if (sent == NOT_SENT && (ra | rb) != 0) {
                        fail(what + "reported not sent, but received on " + (ra != 0 ? "A" : "B"));
                    } else if (sent == SENT_A && rb != 0 || sent == SENT_B && ra != 0) {
                        fail(what + "sent on " + (sent == SENT_A ? "A" : "B") + " but received on the other channel");
                    } else if (sent == SENT_A && ra == 0) {
                        fail(what + "sent on A (closed as done) but never received");
                    } else if (sent == SENT_B && rb == 0) {
                        if (errorB) {
                            DISCARDED.increment();
                            discarded++;
                        } else {
                            fail(what + "sent on B (closed as done) but never received");
                        }
                    } else if (sent != NOT_SENT) {
                        delivered++;
                    }
                }
            }
            if (capacity >= 0 && discarded > capacity) {
                // error() discards only what B's buffer held (none in a rendezvous channel: a
                // send there returns once its receiver took the value)
                fail("B's error() discarded " + discarded + " values sent on B, more than its capacity");
            }
            DELIVERED.add(delivered);
            if (!failures.isEmpty()) {
                System.out.println("FAILURE in a round with capacity " + capacity + (errorB ? " (B closed in error)" : "")
                        + ", segment size " + StressAccess.segmentSize() + ":");
                failures.forEach(f -> System.out.println("  " + f));
                System.out.println("  A: " + a);
                System.out.println("  B: " + b);
                return false;
            }
            return true;
        }

        void hang() {
            System.out.println("HANG: a round with capacity " + capacity + ", segment size "
                    + StressAccess.segmentSize() + " did not finish within " + ROUND_HANG_MS + " ms");
            System.out.println("  A: " + a);
            System.out.println("  B: " + b);
            for (ThreadInfo ti : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
                System.out.print(ti);
            }
            for (Thread t : victims) {
                if (t.isAlive()) {
                    System.out.println("  still alive: " + t + " state " + t.getState());
                    for (StackTraceElement e : t.getStackTrace()) {
                        System.out.println("      at " + e);
                    }
                }
            }
        }
    }
}
