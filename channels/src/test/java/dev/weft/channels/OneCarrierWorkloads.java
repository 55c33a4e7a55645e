package dev.weft.channels;

import dev.weft.channels.OneCarrierStress.Worker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The operations the workers of {@link OneCarrierStress} run, one call per operation. Every
 * operation ends by itself within milliseconds on a correct channel: selects and timed operations
 * have timeouts of at most a few milliseconds, try-operations never wait, and plain {@code
 * send}/{@code receive} wait at most until the closer closes their channel (every 150 ms at the
 * latest; after done it also receives what the channel still delivers) or the interrupter
 * interrupts them. So a worker that completes no operation for
 * seconds is stuck in the channel, not legitimately waiting.
 *
 * <p>Only the public API is used, so the program can be copied onto older commits.
 */
final class OneCarrierWorkloads {
    private OneCarrierWorkloads() {}

    /** Returned by a select that timed out. */
    static final Object TIMED_OUT = new Object();
    /** Returned by a select whose default clause was selected. */
    static final Object DEFAULT = new Object();

    /** The capacities a generation's buffered channel is drawn from. */
    private static final int[] BUFFER_CAPACITIES = {1, 2, 3, 4, 16};

    /** One set of channels; the closer closes it and installs a fresh one. */
    static final class Generation {
        final Channel<Integer> r1 = Channel.newRendezvousChannel();
        final Channel<Integer> r2 = Channel.newRendezvousChannel();
        /** Capacity 1-4, or 16 (whose waiters park at once in the suite's second run). */
        final Channel<Integer> buffered = Channel.newBufferedChannel(
                BUFFER_CAPACITIES[ThreadLocalRandom.current().nextInt(BUFFER_CAPACITIES.length)]);
        final List<Channel<Integer>> all = List.of(r1, r2, buffered);

        Channel<Integer> any(ThreadLocalRandom rnd) {
            return all.get(rnd.nextInt(all.size()));
        }

        @Override
        public String toString() {
            return "r1=" + r1 + "\nr2=" + r2 + "\nbuffered=" + buffered;
        }
    }

    static final AtomicReference<Generation> CURRENT = new AtomicReference<>(new Generation());

    private static Integer value(ThreadLocalRandom rnd) {
        return rnd.nextInt(1_000_000);
    }

    private static Duration shortTimeout(ThreadLocalRandom rnd) {
        int k = rnd.nextInt(8);
        if (k < 5) {
            return Duration.ofMillis(1); // the shape of issue 8's measurement
        }
        if (k < 7) {
            return Duration.ofNanos(rnd.nextLong(3_000_000L));
        }
        return Duration.ZERO;
    }

    /**
     * A select over two of the generation's channels, each clause a send or a receive, in a random
     * order (so selects meet each other in both clause orders): mostly the two rendezvous
     * channels, with a timeout around 1 ms; sometimes with a default clause instead.
     */
    static void select(Worker w, ThreadLocalRandom rnd) throws InterruptedException {
        Generation g = CURRENT.get();
        Channel<Integer> a;
        Channel<Integer> b;
        if (rnd.nextInt(10) < 6) {
            a = g.r1;
            b = g.r2;
        } else {
            a = g.any(rnd);
            do {
                b = g.any(rnd);
            } while (b == a);
        }
        SelectClause<?> ca = rnd.nextBoolean() ? a.sendClause(value(rnd)) : a.receiveClause();
        SelectClause<?> cb = rnd.nextBoolean() ? b.sendClause(value(rnd)) : b.receiveClause();
        boolean swap = rnd.nextBoolean();
        SelectClause<?> first = swap ? cb : ca;
        SelectClause<?> second = swap ? ca : cb;
        if (rnd.nextInt(10) == 0) {
            w.doing("select with default");
            Select.selectOrClosed(first, second, Select.defaultClause(DEFAULT));
        } else {
            w.doing("selectOrClosedWithin");
            Select.selectOrClosedWithin(shortTimeout(rnd), TIMED_OUT, first, second);
        }
    }

    /** A plain send or receive: waits until a partner comes, the channel closes, or an interrupt. */
    static void plain(Worker w, ThreadLocalRandom rnd) throws InterruptedException {
        Channel<Integer> ch = CURRENT.get().any(rnd);
        if (rnd.nextBoolean()) {
            w.doing("sendOrClosed");
            ch.sendOrClosed(value(rnd));
        } else {
            w.doing("receiveOrClosed");
            ch.receiveOrClosed();
        }
    }

    /** A timed send or receive, with a timeout of 0 to 3 ms. */
    static void timed(Worker w, ThreadLocalRandom rnd) throws InterruptedException {
        Channel<Integer> ch = CURRENT.get().any(rnd);
        if (rnd.nextBoolean()) {
            w.doing("trySendOrClosed(timeout)");
            ch.trySendOrClosed(value(rnd), shortTimeout(rnd));
        } else {
            w.doing("tryReceiveOrClosed(timeout)");
            ch.tryReceiveOrClosed(shortTimeout(rnd));
        }
    }

    /**
     * An operation documented never to block: trySend, tryReceive, or a close query. Then a short
     * park, so that the worker does not monopolize the one carrier (a virtual thread that never
     * parks is never unmounted).
     */
    static void tryOp(Worker w, ThreadLocalRandom rnd) {
        Channel<Integer> ch = CURRENT.get().any(rnd);
        switch (rnd.nextInt(6)) {
            case 0, 1 -> {
                w.doing("trySendOrClosed");
                ch.trySendOrClosed(value(rnd));
            }
            case 2, 3 -> {
                w.doing("tryReceiveOrClosed");
                ch.tryReceiveOrClosed();
            }
            case 4 -> {
                w.doing("isClosedForReceive");
                ch.isClosedForReceive();
            }
            default -> {
                w.doing("closedForReceive/closedForSend");
                ch.closedForReceive();
                ch.closedForSend();
            }
        }
        w.doing("pause");
        Thread.interrupted(); // an interrupt aimed at this worker: parkNanos would not park
        LockSupport.parkNanos(10_000L + rnd.nextLong(90_000L));
    }

    /** A platform worker: mostly selects, sometimes a try-operation. */
    static void platformMix(Worker w, ThreadLocalRandom rnd) throws InterruptedException {
        if (rnd.nextInt(5) == 0) {
            tryOp(w, rnd);
        } else {
            select(w, rnd);
        }
    }

    /**
     * The closer: after a pause of up to 150 ms, installs a fresh generation and closes every
     * channel of the old one, with done or error at random, then asks whether each is closed for
     * receiving. Operations still on the old channels end with the close.
     */
    static void close(Worker w, ThreadLocalRandom rnd) throws InterruptedException {
        w.doing("sleep");
        Thread.sleep(20 + rnd.nextInt(130));
        closeGeneration(w, rnd, new Generation());
    }

    /**
     * Receives what a channel closed as done still delivers. done() does not wake senders that
     * were already waiting: their sends came before the close and still complete when received.
     * Nobody else receives from an old generation, so without this a plain send waiting there
     * would wait for ever (legitimately). Each receive ends: the cells below the close's sender
     * count have senders that complete or withdraw, and the cells above are closed.
     */
    private static void drain(Worker w, Channel<Integer> ch) {
        w.doing("draining a done channel");
        boolean interrupted = false;
        while (true) {
            try {
                if (ch.receiveOrClosed() instanceof ChannelClosed) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true; // the interrupter: nothing was received, go on
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Installs {@code next} (or keeps the current one closed if {@code null}) and closes the old one. */
    static void closeGeneration(Worker w, ThreadLocalRandom rnd, Generation next) {
        Generation old = next == null ? CURRENT.get() : CURRENT.getAndSet(next);
        for (Channel<Integer> ch : old.all) {
            if (rnd.nextBoolean()) {
                w.doing("doneOrClosed");
                ch.doneOrClosed();
                drain(w, ch);
            } else {
                w.doing("errorOrClosed");
                ch.errorOrClosed(new IllegalStateException("closed by the stress closer"));
            }
            w.doing("isClosedForReceive after close");
            ch.isClosedForReceive();
        }
    }
}
