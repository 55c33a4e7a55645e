package dev.weft.channels;

import static dev.weft.channels.SelectChecks.assertFresh;
import static dev.weft.channels.SelectChecks.demand;
import static dev.weft.channels.SelectChecks.drainFilled;
import static dev.weft.channels.SelectChecks.fill;
import static dev.weft.channels.SelectChecks.offer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Select semantics on one thread (with parked partners where a rendezvous needs them): input
 * validation, the bias towards the first ready clause, the unbiased variant's uniform choice,
 * clause callbacks, default clauses, waiting for a partner, registrations that leave no trace,
 * and FIFO order among waiting selects and plain operations.
 */
@Timeout(60)
class SelectTest {
    private static final Duration LONG = Duration.ofSeconds(20);

    static Stream<Arguments> capacitiesAndThreads() {
        return Stream.of(Capacity.values())
                .flatMap(c -> Stream.of(ThreadKind.values()).map(k -> Arguments.of(c, k)));
    }

    /** The biased select forms; with a long timeout the timed forms behave like the others. */
    enum Form {
        SELECT, OR_CLOSED, WITHIN, OR_CLOSED_WITHIN;

        Object call(SelectClause<?>... clauses) throws Exception {
            return switch (this) {
                case SELECT -> Select.select(clauses);
                case OR_CLOSED -> Select.selectOrClosed(clauses);
                case WITHIN -> Select.selectWithin(LONG, clauses);
                case OR_CLOSED_WITHIN -> Select.selectOrClosedWithin(LONG, "timeout", clauses);
            };
        }
    }

    /** Every select entry point, for input validation. */
    private static List<SelectCall> allEntryPoints() {
        return List.of(
                Select::select,
                Select::selectOrClosed,
                c -> Select.selectWithin(LONG, c),
                c -> Select.selectOrClosedWithin(LONG, "timeout", c),
                Select::selectUnbiased,
                Select::selectUnbiasedOrClosed);
    }

    interface SelectCall {
        Object call(SelectClause<?>[] clauses) throws Exception;
    }

    // ---------------------------------------------------------------- bad input

    @Test
    void emptySelectIsRejected() {
        for (SelectCall call : allEntryPoints()) {
            assertThrows(IllegalArgumentException.class, () -> call.call(new SelectClause<?>[0]));
        }
        assertThrows(IllegalArgumentException.class, () -> Select.<Object>select());
        assertThrows(IllegalArgumentException.class, () -> Select.<Object>selectUnbiased());
    }

    @Test
    void nullClauseArrayIsRejected() {
        for (SelectCall call : allEntryPoints()) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> call.call(null));
            assertTrue(e instanceof IllegalArgumentException || e instanceof NullPointerException, e.toString());
        }
    }

    /**
     * A rejected select has no effect, even when a clause before the bad one could complete: the
     * value stays in the channel (for a rendezvous channel: its sender stays parked).
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void nullClauseIsRejectedWithoutEffect(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Channel<Integer> other = capacity.newChannel();
        Forked<Void> sender = offer(ch, capacity, 1, ThreadKind.VIRTUAL);
        for (SelectCall call : allEntryPoints()) {
            assertThrows(IllegalArgumentException.class, () -> call.call(new SelectClause<?>[] {ch.receiveClause(), null}));
            assertThrows(IllegalArgumentException.class, () -> call.call(new SelectClause<?>[] {null, ch.receiveClause()}));
            assertThrows(IllegalArgumentException.class,
                    () -> call.call(new SelectClause<?>[] {ch.receiveClause(), other.receiveClause(), null}));
            assertThrows(IllegalArgumentException.class,
                    () -> call.call(new SelectClause<?>[] {ch.receiveClause(), null, Select.defaultClause(0)}));
            assertThrows(IllegalArgumentException.class, () -> call.call(new SelectClause<?>[] {null}));
        }
        assertSenderStillThere(ch, capacity, sender, 1);
        assertFresh(ch, capacity, "after rejected selects");
        assertFresh(other, capacity, "other channel after rejected selects");
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void twoClausesOnTheSameChannelAreRejectedWithoutEffect(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Channel<Integer> other = capacity.newChannel();
        Forked<Void> sender = offer(ch, capacity, 1, ThreadKind.VIRTUAL);
        List<SelectClause<?>[]> bad = new ArrayList<>();
        bad.add(new SelectClause<?>[] {ch.receiveClause(), ch.receiveClause()});
        bad.add(new SelectClause<?>[] {ch.receiveClause(x -> x), ch.receiveClause()});
        bad.add(new SelectClause<?>[] {ch.receiveClause(), ch.sendClause(5)});
        bad.add(new SelectClause<?>[] {ch.sendClause(5), ch.receiveClause()});
        bad.add(new SelectClause<?>[] {ch.sendClause(5), ch.sendClause(6, () -> "x")});
        bad.add(new SelectClause<?>[] {ch.receiveClause(), other.receiveClause(), ch.receiveClause()});
        bad.add(new SelectClause<?>[] {ch.receiveClause(), ch.receiveClause(), Select.defaultClause(0)});
        SelectClause<Integer> same = ch.receiveClause();
        bad.add(new SelectClause<?>[] {same, same});
        // more than 8 clauses (another code path): duplicates far apart and next to each other
        for (int dupAt : new int[] {0, 8}) {
            SelectClause<?>[] many = new SelectClause<?>[10];
            for (int k = 0; k < many.length; k++) {
                many[k] = Channel.<Integer>newRendezvousChannel().receiveClause();
            }
            many[dupAt] = ch.receiveClause();
            many[9] = ch.sendClause(7);
            bad.add(many);
        }
        for (SelectCall call : allEntryPoints()) {
            for (SelectClause<?>[] clauses : bad) {
                assertThrows(IllegalArgumentException.class, () -> call.call(clauses));
            }
        }
        assertSenderStillThere(ch, capacity, sender, 1);
        assertFresh(ch, capacity, "after rejected selects");
        assertFresh(other, capacity, "other channel after rejected selects");
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void defaultClauseNotLastIsRejectedWithoutEffect(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Channel<Integer> other = capacity.newChannel();
        Forked<Void> sender = offer(ch, capacity, 1, ThreadKind.VIRTUAL);
        List<SelectClause<?>[]> bad = List.of(
                new SelectClause<?>[] {Select.defaultClause(0), ch.receiveClause()},
                new SelectClause<?>[] {ch.receiveClause(), Select.defaultClause(0), other.receiveClause()},
                new SelectClause<?>[] {ch.receiveClause(), Select.defaultClause(0), Select.defaultClause(1)},
                new SelectClause<?>[] {Select.defaultClauseNull(), Select.defaultClause(() -> 2)});
        for (SelectCall call : allEntryPoints()) {
            for (SelectClause<?>[] clauses : bad) {
                assertThrows(IllegalArgumentException.class, () -> call.call(clauses));
            }
        }
        assertSenderStillThere(ch, capacity, sender, 1);
        assertFresh(ch, capacity, "after rejected selects");
        assertFresh(other, capacity, "other channel after rejected selects");
    }

    @Test
    void nullArgumentsToClauseFactoriesAreRejected() throws Exception {
        Channel<Integer> ch = Channel.newBufferedChannel(2);
        assertThrows(NullPointerException.class, () -> ch.sendClause(null));
        assertThrows(NullPointerException.class, () -> ch.sendClause(null, () -> 1));
        assertThrows(NullPointerException.class, () -> ch.sendClause(1, null));
        assertThrows(NullPointerException.class, () -> ch.receiveClause(null));
        assertThrows(NullPointerException.class, () -> Select.defaultClause((Supplier<Integer>) null));
        assertFresh(ch, Capacity.TWO, "after rejected clauses");
        // a null default value is allowed
        assertNull(Select.select(ch.receiveClause(), Select.defaultClause((Integer) null)));
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void badTimeoutsAreRejectedWithoutEffect(Capacity capacity) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Forked<Void> sender = offer(ch, capacity, 1, ThreadKind.VIRTUAL);
        assertThrows(NullPointerException.class, () -> Select.selectWithin(null, ch.receiveClause()));
        assertThrows(NullPointerException.class, () -> Select.selectOrClosedWithin(null, 0, ch.receiveClause()));
        assertThrows(IllegalArgumentException.class, () -> Select.selectWithin(Duration.ofMillis(-1), ch.receiveClause()));
        assertThrows(IllegalArgumentException.class,
                () -> Select.selectOrClosedWithin(Duration.ofNanos(-1), 0, ch.receiveClause()));
        assertThrows(IllegalArgumentException.class,
                () -> Select.selectOrClosedWithin(Duration.ofSeconds(-5), 0, ch.receiveClause(), Select.defaultClause(3)));
        assertSenderStillThere(ch, capacity, sender, 1);
        assertFresh(ch, capacity, "after rejected timeouts");
    }

    private static void assertSenderStillThere(Channel<Integer> ch, Capacity capacity, Forked<Void> sender, int v)
            throws Exception {
        if (sender != null) {
            assertTrue(sender.thread().isAlive(), "the parked sender was released");
        }
        assertEquals(v, ch.receive(), "a rejected select consumed the value: " + ch.dumpCells());
        if (sender != null) {
            sender.get();
        }
    }

    // ---------------------------------------------------------------- bias

    /** Both channels can deliver a value: the first clause listed wins, every time. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void firstReadyReceiveClauseWins(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        int trials = capacity.isRendezvous() ? 20 : 200;
        for (int i = 0; i < trials; i++) {
            boolean aFirst = i % 2 == 0;
            Form form = Form.values()[(i / 2) % Form.values().length];
            Forked<Void> sa = offer(a, capacity, 2 * i, kind);
            Forked<Void> sb = offer(b, capacity, 2 * i + 1, kind);
            SelectClause<String> ca = a.receiveClause(v -> "a" + v);
            SelectClause<String> cb = b.receiveClause(v -> "b" + v);
            Object r = aFirst ? form.call(ca, cb) : form.call(cb, ca);
            assertEquals(aFirst ? "a" + 2 * i : "b" + (2 * i + 1), r, "trial " + i + " " + form);
            // the other value is still there
            assertEquals(aFirst ? 2 * i + 1 : 2 * i, (aFirst ? b : a).receive(), "trial " + i);
            for (Forked<Void> s : new ArrayList<>(java.util.Arrays.asList(sa, sb))) {
                if (s != null) {
                    s.get();
                }
            }
        }
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    /** Both channels can take a value: the first send clause listed wins. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void firstReadySendClauseWins(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        int trials = capacity.isRendezvous() ? 20 : 200;
        for (int i = 0; i < trials; i++) {
            boolean aFirst = i % 2 == 0;
            Form form = Form.values()[(i / 2) % Form.values().length];
            Forked<Integer> ra = demand(a, capacity, kind);
            Forked<Integer> rb = demand(b, capacity, kind);
            SelectClause<String> ca = a.sendClause(10, () -> "a");
            SelectClause<String> cb = b.sendClause(20, () -> "b");
            Object r = aFirst ? form.call(ca, cb) : form.call(cb, ca);
            assertEquals(aFirst ? "a" : "b", r, "trial " + i + " " + form);
            Channel<Integer> chosen = aFirst ? a : b;
            Channel<Integer> notChosen = aFirst ? b : a;
            Forked<Integer> chosenReceiver = aFirst ? ra : rb;
            Forked<Integer> otherReceiver = aFirst ? rb : ra;
            if (capacity.isRendezvous()) {
                assertEquals(aFirst ? 10 : 20, chosenReceiver.get());
                assertTrue(otherReceiver.thread().isAlive(), "the other receiver got a value");
                notChosen.send(99); // release it
                assertEquals(99, otherReceiver.get());
            } else {
                assertEquals(aFirst ? 10 : 20, chosen.tryReceive());
                assertNull(notChosen.tryReceive(), "the other clause sent too");
            }
        }
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    /** A ready send clause and a ready receive clause: the first one listed wins. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void firstReadyClauseWinsBetweenSendAndReceive(Capacity capacity) throws Exception {
        Channel<Integer> in = capacity.newChannel();
        Channel<Integer> out = capacity.newChannel();
        for (int i = 0; i < 20; i++) {
            boolean sendFirst = i % 2 == 0;
            Forked<Void> sender = offer(in, capacity, i, ThreadKind.VIRTUAL);
            Forked<Integer> receiver = demand(out, capacity, ThreadKind.VIRTUAL);
            SelectClause<String> send = out.sendClause(100 + i, () -> "sent");
            SelectClause<String> receive = in.receiveClause(v -> "received " + v);
            String r = sendFirst ? Select.select(send, receive) : Select.select(receive, send);
            if (sendFirst) {
                assertEquals("sent", r);
                assertEquals(100 + i, receiver != null ? receiver.get() : out.tryReceive());
                assertEquals(i, in.receive(), "the receive clause consumed a value");
                if (sender != null) {
                    sender.get();
                }
            } else {
                assertEquals("received " + i, r);
                if (sender != null) {
                    sender.get();
                }
                if (receiver != null) {
                    assertTrue(receiver.thread().isAlive(), "the send clause delivered too");
                    out.send(-5);
                    assertEquals(-5, receiver.get());
                } else {
                    assertNull(out.tryReceive(), "the send clause delivered too");
                }
            }
        }
        assertFresh(in, capacity, "in");
        assertFresh(out, capacity, "out");
    }

    /** A later ready clause wins over earlier clauses that cannot complete; those leave no trace. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void readyClauseWinsOverEarlierBlockedClauses(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> empty = capacity.newChannel();
        Channel<Integer> full = capacity.newChannel();
        Channel<Integer> ready = capacity.newChannel();
        if (capacity.isBounded()) {
            fill(full, capacity);
        }
        for (int i = 0; i < 10; i++) {
            Forked<Void> sender = offer(ready, capacity, i, kind);
            Object r = capacity.isBounded()
                    ? Select.select(empty.receiveClause(v -> "empty"), full.sendClause(-3, () -> "full"),
                            ready.receiveClause(v -> "ready " + v))
                    : Select.select(empty.receiveClause(v -> "empty"), ready.receiveClause(v -> "ready " + v));
            assertEquals("ready " + i, r);
            if (sender != null) {
                sender.get();
            }
        }
        assertFresh(empty, capacity, "empty");
        if (capacity.isBounded()) {
            drainFilled(full, capacity);
            assertFresh(full, capacity, "full");
        }
        assertFresh(ready, capacity, "ready");
    }

    // ---------------------------------------------------------------- unbiased

    /**
     * Three ready receive clauses, 3000 selects: each clause is picked about 1000 times. The bound
     * [700, 1300] is more than 11 standard deviations (about 26) wide on each side.
     */
    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"ONE", "SIXTEEN", "UNLIMITED"})
    void selectUnbiasedSpreadsUniformlyOverReadyReceiveClauses(Capacity capacity) throws Exception {
        List<Channel<Integer>> chs = List.of(capacity.newChannel(), capacity.newChannel(), capacity.newChannel());
        for (int k = 0; k < 3; k++) {
            chs.get(k).send(k);
        }
        int[] counts = new int[3];
        for (int i = 0; i < 3000; i++) {
            SelectClause<Integer> c0 = chs.get(0).receiveClause();
            SelectClause<Integer> c1 = chs.get(1).receiveClause();
            SelectClause<Integer> c2 = chs.get(2).receiveClause();
            Object r = i % 2 == 0 ? Select.selectUnbiased(c0, c1, c2) : Select.selectUnbiasedOrClosed(c0, c1, c2);
            int k = (Integer) r;
            counts[k]++;
            chs.get(k).send(k); // ready again
        }
        assertUniform(counts, 3000);
        for (int k = 0; k < 3; k++) {
            assertEquals(k, chs.get(k).tryReceive(), "exactly one value per channel left");
            assertFresh(chs.get(k), capacity, "channel " + k);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"ONE", "UNLIMITED"})
    void selectUnbiasedSpreadsUniformlyOverReadySendClauses(Capacity capacity) throws Exception {
        List<Channel<Integer>> chs = List.of(capacity.newChannel(), capacity.newChannel(), capacity.newChannel());
        int[] counts = new int[3];
        for (int i = 0; i < 3000; i++) {
            int k = Select.selectUnbiased(chs.get(0).sendClause(i, () -> 0), chs.get(1).sendClause(i, () -> 1),
                    chs.get(2).sendClause(i, () -> 2));
            counts[k]++;
            for (int j = 0; j < 3; j++) {
                assertEquals(j == k ? (Integer) i : null, chs.get(j).tryReceive(), "trial " + i + ", channel " + j);
            }
        }
        assertUniform(counts, 3000);
        for (int k = 0; k < 3; k++) {
            assertFresh(chs.get(k), capacity, "channel " + k);
        }
    }

    /** With a default clause: uniform among the ready clauses, the default only when none is. */
    @Test
    void selectUnbiasedWithDefaultSpreadsOverReadyClausesAndDefaultsOnlyWhenNoneIs() throws Exception {
        List<Channel<Integer>> chs = List.of(Channel.newBufferedChannel(1), Channel.newBufferedChannel(1),
                Channel.newBufferedChannel(1));
        for (int k = 0; k < 3; k++) {
            chs.get(k).send(k);
        }
        int[] counts = new int[3];
        for (int i = 0; i < 3000; i++) {
            int k = Select.selectUnbiased(chs.get(0).receiveClause(), chs.get(1).receiveClause(),
                    chs.get(2).receiveClause(), Select.defaultClause(-1));
            assertTrue(k >= 0, "default chosen while all clauses were ready");
            counts[k]++;
            chs.get(k).send(k);
        }
        assertUniform(counts, 3000);
        for (int k = 0; k < 3; k++) {
            assertEquals(k, chs.get(k).receive());
        }
        for (int i = 0; i < 10; i++) {
            assertEquals(-1, Select.selectUnbiased(chs.get(0).receiveClause(), chs.get(1).receiveClause(),
                    chs.get(2).receiveClause(), Select.defaultClause(-1)));
        }
    }

    /** Only one of three clauses is ready: the unbiased select always picks it. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void selectUnbiasedPicksTheOnlyReadyClause(Capacity capacity) throws Exception {
        List<Channel<Integer>> chs = List.of(capacity.newChannel(), capacity.newChannel(), capacity.newChannel());
        SplittableRandom random = new SplittableRandom(3);
        int trials = capacity.isRendezvous() ? 30 : 300;
        for (int i = 0; i < trials; i++) {
            int ready = random.nextInt(3);
            Forked<Void> sender = offer(chs.get(ready), capacity, i, ThreadKind.VIRTUAL);
            String r = Select.selectUnbiased(chs.get(0).receiveClause(v -> "0:" + v),
                    chs.get(1).receiveClause(v -> "1:" + v), chs.get(2).receiveClause(v -> "2:" + v));
            assertEquals(ready + ":" + i, r);
            if (sender != null) {
                sender.get();
            }
        }
        for (int k = 0; k < 3; k++) {
            assertFresh(chs.get(k), capacity, "channel " + k);
        }
    }

    private static void assertUniform(int[] counts, int trials) {
        int expected = trials / counts.length;
        for (int k = 0; k < counts.length; k++) {
            assertTrue(counts[k] >= expected * 7 / 10 && counts[k] <= expected * 13 / 10,
                    "clause " + k + " chosen " + counts[k] + " times of " + trials + ": " + java.util.Arrays.toString(counts));
        }
    }

    // ---------------------------------------------------------------- callbacks

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void receiveClauseFunctionTransformsTheValueOnTheSelectingThread(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        AtomicInteger aCalls = new AtomicInteger();
        AtomicInteger bCalls = new AtomicInteger();
        AtomicReference<Thread> callbackThread = new AtomicReference<>();
        Forked<Void> sender = offer(b, capacity, 21, kind);
        Forked<String> selector = Forked.start(kind, () -> Select.select(
                a.receiveClause(v -> {
                    aCalls.incrementAndGet();
                    return "a" + v;
                }),
                b.receiveClause(v -> {
                    bCalls.incrementAndGet();
                    callbackThread.set(Thread.currentThread());
                    return "doubled " + (2 * v);
                })));
        assertEquals("doubled 42", selector.get());
        assertSame(selector.thread(), callbackThread.get(), "the callback ran on another thread");
        assertEquals(0, aCalls.get(), "the callback of a clause that was not selected ran");
        assertEquals(1, bCalls.get());
        if (sender != null) {
            sender.get();
        }
        // plain forms: the value itself
        offer(a, capacity, 5, kind);
        assertEquals(5, Select.select(a.receiveClause(), b.receiveClause()));
        // a callback may return null
        Forked<Void> s2 = offer(a, capacity, 6, kind);
        assertNull(Select.select(a.receiveClause(v -> null), b.receiveClause(v -> "b")));
        if (s2 != null) {
            s2.get();
        }
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void sendClauseSupplierGivesTheResult(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        if (capacity.isBounded()) {
            fill(a, capacity); // only b can take a value
        }
        AtomicInteger aCalls = new AtomicInteger();
        AtomicInteger bCalls = new AtomicInteger();
        Forked<Integer> receiver = demand(b, capacity, kind);
        Supplier<String> aCallback = () -> {
            aCalls.incrementAndGet();
            return "a";
        };
        Supplier<String> bCallback = () -> {
            bCalls.incrementAndGet();
            return "b";
        };
        Forked<String> selector = Forked.start(kind, () -> capacity.isBounded()
                ? Select.select(a.sendClause(1, aCallback), b.sendClause(2, bCallback))
                : Select.select(b.sendClause(2, bCallback)));
        assertEquals("b", selector.get());
        assertEquals(0, aCalls.get());
        assertEquals(1, bCalls.get());
        assertEquals(2, receiver != null ? receiver.get() : b.tryReceive());
        // without a callback the result is null
        Forked<Integer> r2 = demand(b, capacity, kind);
        assertNull(capacity.isBounded() ? Select.select(a.sendClause(3), b.sendClause(4)) : Select.select(b.sendClause(4)));
        assertEquals(4, r2 != null ? r2.get() : b.tryReceive());
        if (capacity.isBounded()) {
            drainFilled(a, capacity);
        }
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    /** An exception thrown by the selected clause's callback propagates; the other clauses are withdrawn. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void callbackExceptionPropagates(Capacity capacity) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        IllegalStateException boom = new IllegalStateException("boom");
        Forked<Void> sender = Forked.run(ThreadKind.VIRTUAL, () -> b.send(1));
        Forked<Object> selector = Forked.virtual(() -> Select.select(a.receiveClause(v -> "a"), b.receiveClause(v -> {
            throw boom;
        })));
        assertSame(boom, selector.failure());
        sender.get();
        Forked<Object> s2 = Forked.virtual(() -> Select.select(a.receiveClause(v -> "a"), b.sendClause(2, () -> {
            throw boom;
        })));
        assertEquals(2, b.receive());
        assertSame(boom, s2.failure());
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    // ---------------------------------------------------------------- default clauses

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void defaultIsChosenOnlyWhenNothingIsReady(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> in = capacity.newChannel();
        Channel<Integer> out = capacity.newChannel();
        if (capacity.isBounded()) {
            fill(out, capacity);
        }
        AtomicInteger supplierCalls = new AtomicInteger();
        Supplier<Integer> supplier = () -> {
            supplierCalls.incrementAndGet();
            return -2;
        };
        // nothing ready
        List<SelectClause<Integer>> blocked = new ArrayList<>();
        blocked.add(in.receiveClause());
        if (capacity.isBounded()) {
            blocked.add(out.sendClause(77, () -> 77));
        }
        for (int i = 0; i < 20; i++) {
            assertEquals(-1, selectWith(blocked, Select.defaultClause(-1)));
            assertEquals(-2, selectWith(blocked, Select.defaultClause(supplier)));
            assertNull(selectWith(blocked, Select.defaultClauseNull()));
            assertEquals("default", Select.selectOrClosed(in.receiveClause(), Select.defaultClause("default")));
        }
        assertEquals(20, supplierCalls.get());
        // a value is ready: it wins over the default
        for (int i = 0; i < 5; i++) {
            Forked<Void> sender = offer(in, capacity, i, kind);
            assertEquals(i, selectWith(blocked, Select.defaultClause(supplier)));
            if (sender != null) {
                sender.get();
            }
        }
        assertEquals(20, supplierCalls.get(), "the default supplier ran although it was not chosen");
        // a send is possible: it wins over the default
        if (capacity.isBounded()) {
            drainFilled(out, capacity);
        }
        for (int i = 0; i < 5; i++) {
            Forked<Integer> receiver = demand(out, capacity, kind);
            assertEquals("sent", Select.select(in.receiveClause(v -> "received"), out.sendClause(i, () -> "sent"),
                    Select.defaultClause("default")));
            assertEquals(i, receiver != null ? receiver.get() : out.tryReceive());
        }
        assertFresh(in, capacity, "in");
        assertFresh(out, capacity, "out");
    }

    /** Selects over {@code clauses} followed by {@code last}. */
    private static Integer selectWith(List<SelectClause<Integer>> clauses, SelectClause<Integer> last)
            throws InterruptedException {
        List<SelectClause<Integer>> all = new ArrayList<>(clauses);
        all.add(last);
        return (Integer) Select.select(all.toArray(new SelectClause<?>[0]));
    }

    // ---------------------------------------------------------------- waiting for a partner

    /** The select waits; a value arrives later on its second channel and completes it. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void blocksUntilAPartnerArrivesOnTheSecondChannel(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        for (int i = 0; i < 10; i++) {
            Form form = Form.values()[i % Form.values().length];
            Forked<Object> selector = Forked.start(kind, () -> form.call(a.receiveClause(v -> "a" + v),
                    b.receiveClause(v -> "b" + v))).awaitBlocked();
            b.send(i);
            assertEquals("b" + i, selector.get(), form.toString());
        }
        assertFresh(a, capacity, "a (its registrations were withdrawn)");
        assertFresh(b, capacity, "b");
    }

    /** Waiting send clauses: a receiver on the second channel completes the select. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void blockedSendClauseCompletesWhenAReceiverComes(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        fill(a, capacity);
        fill(b, capacity);
        Forked<String> selector = Forked.start(kind, () -> Select.select(a.sendClause(100, () -> "a"),
                b.sendClause(200, () -> "b"))).awaitBlocked();
        // receiving from b frees a buffer cell (or meets the select directly): the select's value goes in
        assertEquals(capacity.isRendezvous() ? 200 : 0, b.receive());
        assertEquals("b", selector.get());
        for (int i = 1; i < capacity.buffer(); i++) {
            assertEquals(i, b.tryReceive());
        }
        if (!capacity.isRendezvous()) {
            assertEquals(200, b.tryReceive(), "the select's value follows the buffered ones");
        }
        drainFilled(a, capacity);
        assertFresh(a, capacity, "a: the send clause that was not chosen delivered nothing");
        assertFresh(b, capacity, "b");
    }

    /**
     * After a select completed on clause A, its registration on B is gone: a later send on B is
     * not consumed by the finished select; a later receiver gets it. Repeated, so that withdrawn
     * registrations pile up behind each other (and cross segments).
     */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void finishedSelectDoesNotConsumeLaterSends(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        for (int i = 0; i < 40; i++) {
            boolean even = i % 2 == 0;
            Forked<Integer> selector = Forked.start(kind, () -> even
                    ? Select.select(a.receiveClause(), b.receiveClause())
                    : Select.selectUnbiased(b.receiveClause(), a.receiveClause())).awaitBlocked();
            a.send(i);
            assertEquals(i, selector.get());
            if (i % 8 == 7) {
                assertFresh(b, capacity, "b after " + (i + 1) + " selects completed on a");
            }
        }
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    /** A send clause that was not chosen is never received later. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void unchosenSendClauseIsNeverReceived(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        fill(b, capacity);
        for (int i = 0; i < 40; i++) {
            int v = 1000 + i;
            boolean even = i % 2 == 0;
            Forked<String> selector = Forked.start(kind, () -> even
                    ? Select.select(b.sendClause(v, () -> "sent"), a.receiveClause(x -> "received " + x))
                    : Select.select(a.receiveClause(x -> "received " + x), b.sendClause(v, () -> "sent")))
                    .awaitBlocked();
            a.send(i);
            assertEquals("received " + i, selector.get());
        }
        drainFilled(b, capacity);
        assertFresh(b, capacity, "b: no withdrawn send clause may deliver");
        assertFresh(a, capacity, "a");
    }

    /** Selects over many channels (more than the select's small-index caches). */
    @ParameterizedTest
    @EnumSource(value = Capacity.class, names = {"RENDEZVOUS", "ONE", "UNLIMITED"})
    void selectOverManyChannels(Capacity capacity) throws Exception {
        int n = 100;
        List<Channel<Integer>> chs = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            chs.add(capacity.newChannel());
        }
        SelectClause<?>[] clauses = new SelectClause<?>[n];
        for (int k = 0; k < n; k++) {
            int idx = k;
            clauses[k] = chs.get(k).receiveClause(v -> idx + ":" + v);
        }
        // one ready clause far down the list
        Forked<Void> sender = offer(chs.get(80), capacity, 8, ThreadKind.VIRTUAL);
        assertEquals("80:8", Select.select(clauses));
        if (sender != null) {
            sender.get();
        }
        // waiting, completed by the last channel
        Forked<?> selector = Forked.virtual(() -> Select.select(clauses)).awaitBlocked();
        chs.get(n - 1).send(9);
        assertEquals((n - 1) + ":9", selector.get());
        // waiting, completed by a channel beyond 64
        selector = Forked.virtual(() -> Select.selectUnbiased(clauses)).awaitBlocked();
        chs.get(70).send(7);
        assertEquals("70:7", selector.get());
        for (int k = 0; k < n; k += 11) {
            assertFresh(chs.get(k), capacity, "channel " + k);
        }
        assertFresh(chs.get(n - 2), capacity, "channel " + (n - 2));
    }

    /** Clauses are immutable: the same clause objects serve many selects. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void clausesCanBeReused(Capacity capacity) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        SelectClause<String> ra = a.receiveClause(v -> "a" + v);
        SelectClause<String> rb = b.receiveClause(v -> "b" + v);
        for (int i = 0; i < 30; i++) {
            Channel<Integer> target = i % 3 == 0 ? a : b;
            Forked<?> selector = Forked.virtual(() -> Select.select(ra, rb)).awaitBlocked();
            target.send(i);
            assertEquals((target == a ? "a" : "b") + i, selector.get());
        }
        SelectClause<String> sa = a.sendClause(5, () -> "sent a");
        for (int i = 0; i < 10; i++) {
            Forked<?> selector = Forked.virtual(() -> Select.select(sa, rb));
            assertEquals(5, a.receive());
            assertEquals("sent a", selector.get());
        }
        assertFresh(a, capacity, "a");
        assertFresh(b, capacity, "b");
    }

    // ---------------------------------------------------------------- FIFO with plain operations

    /** Waiting receivers, plain and selecting, are served in the order they started waiting. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void waitingReceiversAreServedInArrivalOrder(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Channel<Integer> other1 = capacity.newChannel();
        Channel<Integer> other2 = capacity.newChannel();
        Forked<?> r1 = Forked.start(kind, () -> "plain " + ch.receive()).awaitBlocked();
        Forked<?> r2 = Forked.start(kind, () -> Select.select(other1.receiveClause(v -> "other"),
                ch.receiveClause(v -> "select " + v))).awaitBlocked();
        Forked<?> r3 = Forked.start(kind, () -> "plain " + ch.receive()).awaitBlocked();
        Forked<?> r4 = Forked.start(kind, () -> Select.select(ch.receiveClause(v -> "select " + v),
                other2.receiveClause(v -> "other"))).awaitBlocked();
        for (int i = 1; i <= 4; i++) {
            ch.send(i);
        }
        assertEquals("plain 1", r1.get());
        assertEquals("select 2", r2.get());
        assertEquals("plain 3", r3.get());
        assertEquals("select 4", r4.get());
        assertFresh(ch, capacity, "ch");
        assertFresh(other1, capacity, "other1");
        assertFresh(other2, capacity, "other2");
    }

    /** Waiting senders, plain and selecting, deliver in the order they started waiting. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void waitingSendersDeliverInArrivalOrder(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> ch = capacity.newChannel();
        Channel<Integer> other = capacity.newChannel();
        fill(ch, capacity);
        fill(other, capacity);
        Forked<Void> s1 = Forked.run(kind, () -> ch.send(101)).awaitBlocked();
        Forked<String> s2 = Forked.start(kind, () -> Select.select(other.sendClause(-1, () -> "other"),
                ch.sendClause(102, () -> "select"))).awaitBlocked();
        Forked<Void> s3 = Forked.run(kind, () -> ch.send(103)).awaitBlocked();
        Forked<String> s4 = Forked.start(kind, () -> Select.select(ch.sendClause(104, () -> "select"),
                other.sendClause(-1, () -> "other"))).awaitBlocked();
        List<Integer> got = new ArrayList<>();
        for (int i = 0; i < capacity.buffer() + 4; i++) {
            got.add(ch.receive());
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < capacity.buffer(); i++) {
            expected.add(i);
        }
        expected.addAll(List.of(101, 102, 103, 104));
        assertEquals(expected, got);
        s1.get();
        assertEquals("select", s2.get());
        s3.get();
        assertEquals("select", s4.get());
        drainFilled(other, capacity);
        assertFresh(ch, capacity, "ch");
        assertFresh(other, capacity, "other");
    }

    /** Two selects waiting on the same channel are served in order, each exactly once. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void waitingSelectsOnTheSameChannelAreServedInOrder(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> ch = capacity.newChannel();
        Channel<Integer> x = capacity.newChannel();
        Channel<Integer> y = capacity.newChannel();
        Forked<?> s1 = Forked.start(kind, () -> Select.select(x.receiveClause(v -> "x"), ch.receiveClause(v -> "ch" + v)))
                .awaitBlocked();
        Forked<?> s2 = Forked.start(kind, () -> Select.select(ch.receiveClause(v -> "ch" + v), y.receiveClause(v -> "y")))
                .awaitBlocked();
        ch.send(1);
        assertEquals("ch1", s1.get());
        assertTrue(s2.thread().isAlive(), "the second select completed too");
        y.send(2);
        assertEquals("y", s2.get());
        assertFresh(ch, capacity, "ch");
        assertFresh(x, capacity, "x");
        assertFresh(y, capacity, "y");
    }

    /**
     * Withdrawn select registrations keep neither a receiver's nor a sender's place: a buffered
     * channel keeps exactly its capacity after many selects that registered on it and completed
     * elsewhere.
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void withdrawnRegistrationsDoNotChangeTheCapacity(Capacity capacity) throws Exception {
        Channel<Integer> victim = capacity.newChannel();
        Channel<Integer> winner = Channel.newUnlimitedChannel();
        // receive registrations on an empty channel, withdrawn when the second clause completes
        for (int i = 0; i < 100; i++) {
            winner.send(i);
            assertEquals(i, Select.select(victim.receiveClause(), winner.receiveClause()));
        }
        assertFresh(victim, capacity, "after 100 withdrawn receive registrations");
        if (capacity.isBounded()) {
            // send registrations on a full channel
            fill(victim, capacity);
            for (int i = 0; i < 100; i++) {
                winner.send(i);
                assertEquals("won " + i, Select.select(victim.sendClause(-i, () -> "sent"),
                        winner.receiveClause(v -> "won " + v)));
            }
            drainFilled(victim, capacity);
            assertFresh(victim, capacity, "after 100 withdrawn send registrations");
        }
    }
}
