package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a broken lazy initialization would cost (the ids, park blockers and pair-rule Sides that a
 * channel makes on first use, since 47b0f89 / 445211f): many fresh channels whose first waits (the ones
 * that make the park blockers, the pair-rule Sides) are raced by both sides at once, by close or
 * error, and by selects. A lost wake-up shows as a hang (joined with a deadline; the stacks of the
 * workers and the stuck channel's cells are printed), a lost or duplicated value as a count
 * mismatch. Channels cycle through rendezvous, buffer 1, buffer 16 and unlimited (16 and unlimited
 * take the pair rule; buffered ones move {@code bufferEnd}).
 */
@Timeout(60)
class FreshChannelTrafficTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    static Channel<Integer> fresh(int i) {
        return switch (i & 3) {
            case 0 -> Channel.newRendezvousChannel();
            case 1 -> Channel.newBufferedChannel(1);
            case 2 -> Channel.newBufferedChannel(16);
            default -> Channel.newUnlimitedChannel();
        };
    }

    /**
     * 2 senders and 2 receivers walk the same array of fresh channels; on each channel each sender
     * sends one value and each receiver takes one, so both sides' first waits race there.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void bothSidesRaceTheFirstWaitsOfManyFreshChannels(ThreadKind kind) throws Exception {
        int n = kind == ThreadKind.VIRTUAL ? 100_000 : 20_000;
        int per = 2;
        @SuppressWarnings("unchecked")
        Channel<Integer>[] chs = new Channel[n];
        for (int i = 0; i < n; i++) {
            chs[i] = fresh(i);
        }
        AtomicIntegerArray got = new AtomicIntegerArray(n * per);
        AtomicIntegerArray at = new AtomicIntegerArray(2 * per);
        FirstRaces.Workers w = new FirstRaces.Workers(kind, 2 * per, t -> {
            boolean sender = t < per;
            for (int i = 0; i < n; i++) {
                at.set(t, i);
                if (sender) {
                    chs[i].send(i * per + t);
                } else {
                    int v = chs[i].receive();
                    if (v / per != i) {
                        throw new AssertionError("channel " + i + " gave " + v);
                    }
                    if (got.getAndIncrement(v) != 0) {
                        throw new AssertionError("value " + v + " received twice");
                    }
                }
            }
        });
        w.join(PATIENCE, () -> stuck(chs, at));
        for (int v = 0; v < n * per; v++) {
            if (got.get(v) != 1) {
                fail("value " + v + " received " + got.get(v) + " times");
            }
        }
    }

    /**
     * Per fresh channel, in lockstep: one sender, two receivers and a closer (done on even
     * channel groups, error on the others, each capacity getting both) start at once, the closer after a short random spin. Nobody may
     * hang; a receiver gets the value or the closing reason of the right kind; with done a sent
     * value is received; with error at most the sent value is received.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void closeOrErrorRacesTheFirstWaitsOfFreshChannels(ThreadKind kind) throws Exception {
        int n = kind == ThreadKind.VIRTUAL ? 20_000 : 5_000;
        @SuppressWarnings("unchecked")
        Channel<Integer>[] chs = new Channel[n];
        for (int i = 0; i < n; i++) {
            chs[i] = fresh(i);
        }
        RuntimeException boom = new RuntimeException("first-wait error");
        AtomicIntegerArray sent = new AtomicIntegerArray(n);
        AtomicIntegerArray received = new AtomicIntegerArray(n);
        AtomicIntegerArray at = new AtomicIntegerArray(4);
        FirstRaces.SpinBarrier barrier = new FirstRaces.SpinBarrier(4, PATIENCE);
        FirstRaces.Workers w = new FirstRaces.Workers(kind, 4, t -> {
            for (int i = 0; i < n; i++) {
                at.set(t, i);
                barrier.await();
                Channel<Integer> c = chs[i];
                boolean done = ((i >> 2) & 1) == 0;
                switch (t) {
                    case 0 -> {
                        Object r = c.sendOrClosed(i);
                        if (r == null) {
                            sent.incrementAndGet(i);
                        } else {
                            checkClosed(r, done, c, boom);
                        }
                    }
                    case 1, 2 -> {
                        Object r = c.receiveOrClosed();
                        if (r instanceof Integer v) {
                            if (v != i) {
                                throw new AssertionError("channel " + i + " gave " + v);
                            }
                            received.incrementAndGet(i);
                        } else {
                            checkClosed(r, done, c, boom);
                        }
                    }
                    default -> {
                        int spins = ThreadLocalRandom.current().nextInt(200);
                        for (int s = 0; s < spins; s++) {
                            Thread.onSpinWait();
                        }
                        Object r = done ? c.doneOrClosed() : c.errorOrClosed(boom);
                        if (r != null) {
                            throw new AssertionError("the only closer found it closed: " + r);
                        }
                    }
                }
            }
        });
        w.join(PATIENCE, () -> stuck(chs, at));
        for (int i = 0; i < n; i++) {
            int s = sent.get(i);
            int r = received.get(i);
            if (r > s || (((i >> 2) & 1) == 0 && r != s)) {
                // done: every sent value is received; error: at most the sent value is
                fail("channel " + i + " (" + chs[i] + ", " + (((i >> 2) & 1) == 0 ? "done" : "error") + "): sent "
                        + s + ", received " + r);
            }
        }
    }

    private static void checkClosed(Object r, boolean done, Channel<Integer> c, Throwable boom) {
        if (done ? !(r instanceof ChannelDone) : !(r instanceof ChannelError e && e.cause() == boom)) {
            throw new AssertionError("closed result " + r + " on " + c);
        }
    }

    /**
     * Selects on fresh channels: per round two fresh channels a and b; two selectors each
     * select(send a, send b) one value, two each select(receive a, receive b) one. No hang, every
     * value received once.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void selectsRaceTheFirstWaitsOfFreshChannels(ThreadKind kind) throws Exception {
        int n = kind == ThreadKind.VIRTUAL ? 40_000 : 8_000;
        @SuppressWarnings("unchecked")
        Channel<Integer>[] as = new Channel[n];
        @SuppressWarnings("unchecked")
        Channel<Integer>[] bs = new Channel[n];
        for (int i = 0; i < n; i++) {
            as[i] = fresh(i);
            bs[i] = fresh(i + 1);
        }
        AtomicIntegerArray got = new AtomicIntegerArray(2 * n);
        AtomicIntegerArray at = new AtomicIntegerArray(4);
        AtomicLong mixed = new AtomicLong();
        FirstRaces.Workers w = new FirstRaces.Workers(kind, 4, t -> {
            for (int i = 0; i < n; i++) {
                at.set(t, i);
                Channel<Integer> a = as[i];
                Channel<Integer> b = bs[i];
                if (t < 2) {
                    int v = 2 * i + t;
                    if ((i + t) % 3 == 0) {
                        (t == 0 ? a : b).send(v); // a plain wait among the selects
                        mixed.incrementAndGet();
                    } else {
                        Select.select(a.sendClause(v), b.sendClause(v));
                    }
                } else {
                    int v = (i + t) % 2 == 0 ? Select.select(a.receiveClause(), b.receiveClause())
                            : Select.select(b.receiveClause(), a.receiveClause());
                    if (v / 2 != i) {
                        throw new AssertionError("round " + i + " gave " + v);
                    }
                    if (got.getAndIncrement(v) != 0) {
                        throw new AssertionError("value " + v + " received twice");
                    }
                }
            }
        });
        w.join(PATIENCE, () -> stuck(as, at) + "\n b: " + stuck(bs, at));
        for (int v = 0; v < 2 * n; v++) {
            assertEquals(1, got.get(v), "value " + v);
        }
        assertTrue(mixed.get() > 0);
    }

    /**
     * {@code bufferEnd}, now beside {@code receivers}: on fresh buffered channels it starts at the
     * capacity, each receive moves it by one, and a receiver count moved by receives that wait (no
     * expansion yet) leaves it alone; a withdrawn sender (timed out) gives its buffer cell back.
     */
    @org.junit.jupiter.api.Test
    void bufferEndStartsAtTheCapacityAndMovesWithReceivesOnly() throws Exception {
        for (int cap : new int[] {1, 2, 5, 16, 40}) {
            Channel<Integer> c = Channel.newBufferedChannel(cap);
            assertEquals(cap, c.lvBufferEnd());
            assertEquals(0L, c.lvReceivers());
            for (int v = 0; v < cap; v++) {
                assertTrue(c.trySend(v), "cap " + cap + ", value " + v);
            }
            assertTrue(!c.trySend(-1), "cap " + cap + ": full");
            assertEquals(cap, c.lvBufferEnd(), "a failed try-send does not move it");
            assertEquals(0, c.receive());
            assertEquals(cap + 1, c.lvBufferEnd());
            assertEquals(1L, c.lvReceiverCount());
            assertTrue(c.trySend(cap));
            // a sender that times out beyond the buffer withdraws; the channel still works
            assertTrue(!c.trySend(-2, Duration.ofMillis(1)));
            for (int v = 1; v <= cap; v++) {
                assertEquals(v, c.receive());
            }
            assertTrue(c.lvBufferEnd() >= 2L * cap + 1, "cap " + cap + ": " + c.lvBufferEnd());
            assertEquals(cap + 1L, c.lvReceiverCount());
            assertTrue(c.dumpCells().contains("bufferEnd=" + c.lvBufferEnd()), c.dumpCells());
            for (int v = 0; v < cap; v++) {
                assertTrue(c.trySend(v), "cap " + cap + ", refill " + v);
            }
            assertTrue(!c.trySend(-1), "cap " + cap + ": full again");
        }
    }

    /**
     * Buffer expansion by concurrent receivers: 2 senders and 2 receivers each move 64 values
     * through each of 3,000 fresh small-buffer channels (capacity 1-4), so the two receivers'
     * expansions (and the senders' reads of {@code bufferEnd}) overlap. No hang, no lost or
     * duplicated value.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void concurrentReceiversExpandTheBufferOfFreshChannels(ThreadKind kind) throws Exception {
        int n = kind == ThreadKind.VIRTUAL ? 3_000 : 600;
        int m = 64;
        @SuppressWarnings("unchecked")
        Channel<Integer>[] chs = new Channel[n];
        for (int i = 0; i < n; i++) {
            chs[i] = Channel.newBufferedChannel(1 + i % 4);
        }
        AtomicIntegerArray got = new AtomicIntegerArray(n * 2 * m);
        AtomicIntegerArray at = new AtomicIntegerArray(4);
        FirstRaces.Workers w = new FirstRaces.Workers(kind, 4, t -> {
            for (int i = 0; i < n; i++) {
                at.set(t, i);
                for (int k = 0; k < m; k++) {
                    if (t < 2) {
                        chs[i].send((i * 2 + t) * m + k);
                    } else {
                        int v = chs[i].receive();
                        if (v / (2 * m) != i || got.getAndIncrement(v) != 0) {
                            throw new AssertionError("channel " + i + ": value " + v + " foreign or twice");
                        }
                    }
                }
            }
        });
        w.join(PATIENCE, () -> stuck(chs, at));
        for (int v = 0; v < n * 2 * m; v++) {
            if (got.get(v) != 1) {
                fail("value " + v + " received " + got.get(v) + " times");
            }
        }
    }

    private static String stuck(Channel<Integer>[] chs, AtomicIntegerArray at) {
        StringBuilder sb = new StringBuilder();
        for (int t = 0; t < at.length(); t++) {
            int i = at.get(t);
            sb.append("\nworker ").append(t).append(" at channel ").append(i).append(": ").append(chs[i])
                    .append('\n').append(chs[i].dumpCells());
        }
        return sb.toString();
    }
}
