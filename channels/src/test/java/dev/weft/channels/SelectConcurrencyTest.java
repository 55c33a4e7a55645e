package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Selects under contention: selects meeting selects in both clause orders (no deadlock, no lost
 * or duplicated value), selects mixed with plain operations, and many selecting consumers and
 * producers over several channels, with exact accounting and per-producer order.
 */
@Timeout(120)
class SelectConcurrencyTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    /** Which clause a side lists first. */
    enum Order {
        SEND_FIRST, RECEIVE_FIRST
    }

    static Stream<Arguments> selectVsSelect() {
        List<Arguments> args = new ArrayList<>();
        for (Capacity c : new Capacity[] {Capacity.RENDEZVOUS, Capacity.ONE, Capacity.SIXTEEN}) {
            for (Order o1 : Order.values()) {
                for (Order o2 : Order.values()) {
                    args.add(Arguments.of(c, o1, o2, (o1.ordinal() + o2.ordinal()) % 2 == 0 ? ThreadKind.PLATFORM : ThreadKind.VIRTUAL));
                }
            }
        }
        return args.stream();
    }

    /**
     * Side 1 loops select(x.send, y.receive), side 2 loops select(y.send, x.receive), each until it
     * has sent N values and received N values (once one direction is finished, the rest goes through
     * plain operations). With 20,000 values per direction, no deadlock, and each direction delivers
     * 0..N-1 in order.
     */
    @ParameterizedTest(name = "[{index}] {0}, side 1 {1}, side 2 {2}, {3}")
    @MethodSource("selectVsSelect")
    void selectAgainstSelectInBothOrders(Capacity capacity, Order order1, Order order2, ThreadKind kind) throws Exception {
        Channel<Integer> x = capacity.newChannel();
        Channel<Integer> y = capacity.newChannel();
        int n = 20_000;
        Forked<int[]> side1 = Forked.start(kind, () -> exchange(x, y, n, order1));
        Forked<int[]> side2 = Forked.start(kind, () -> exchange(y, x, n, order2));
        int[] r1 = join(side1, x, y);
        int[] r2 = join(side2, x, y);
        // r[0]: selects that sent, r[1]: selects that received
        assertTrue(r1[0] + r1[1] > 0 && r2[0] + r2[1] > 0);
        assertEquals(null, x.tryReceive(), "x: " + x);
        assertEquals(null, y.tryReceive(), "y: " + y);
        System.out.printf("select vs select %s %s/%s %s: side 1 sent %d and received %d by select, side 2 %d and %d%n",
                capacity, order1, order2, kind, r1[0], r1[1], r2[0], r2[1]);
    }

    /** Sends 0..n-1 on out and receives 0..n-1 (checked in order) from in, by select while both remain. */
    private static int[] exchange(Channel<Integer> out, Channel<Integer> in, int n, Order order) throws Exception {
        int sent = 0;
        int received = 0;
        int[] bySelect = new int[2];
        while (sent < n || received < n) {
            if (sent < n && received < n) {
                int v = sent;
                SelectClause<Integer> send = out.sendClause(v, () -> -1);
                SelectClause<Integer> receive = in.receiveClause();
                int r = order == Order.SEND_FIRST ? Select.select(send, receive) : Select.select(receive, send);
                if (r == -1) {
                    sent++;
                    bySelect[0]++;
                } else {
                    assertEquals(received, r, "received out of order");
                    received++;
                    bySelect[1]++;
                }
            } else if (sent < n) {
                out.send(sent++);
            } else {
                assertEquals(received, in.receive(), "received out of order");
                received++;
            }
        }
        return bySelect;
    }

    static Stream<Arguments> severalPerSide() {
        return Stream.of(Capacity.RENDEZVOUS, Capacity.ONE, Capacity.SIXTEEN, Capacity.UNLIMITED)
                .flatMap(c -> Stream.of(ThreadKind.values()).map(k -> Arguments.of(c, k)));
    }

    /**
     * The same with three threads per side, each with its own quota (which keeps the total number
     * of sends and receives per channel equal, so nothing can be left waiting at the end). Values
     * encode (thread, sequence): each is received exactly once, each receiver sees each sender's
     * values in order.
     */
    @ParameterizedTest
    @MethodSource("severalPerSide")
    void selectAgainstSelectWithSeveralThreadsPerSide(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> x = capacity.newChannel();
        Channel<Integer> y = capacity.newChannel();
        int perThread = kind == ThreadKind.VIRTUAL ? 4_000 : 2_000;
        int threadsPerSide = 3;
        AtomicIntegerArray seenOnX = new AtomicIntegerArray(threadsPerSide * perThread);
        AtomicIntegerArray seenOnY = new AtomicIntegerArray(threadsPerSide * perThread);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Forked<Void>> threads = new ArrayList<>();
        for (int t = 0; t < threadsPerSide; t++) {
            int id = t;
            threads.add(Forked.run(kind, () -> quotaExchange(x, y, id, threadsPerSide, perThread, seenOnY, problems, id % 2 == 0)));
            threads.add(Forked.run(kind, () -> quotaExchange(y, x, id, threadsPerSide, perThread, seenOnX, problems, id % 2 == 1)));
        }
        for (Forked<Void> t : threads) {
            join(t, x, y);
        }
        assertTrue(problems.isEmpty(), problems.toString());
        for (int v = 0; v < threadsPerSide * perThread; v++) {
            assertEquals(1, seenOnX.get(v), "value " + v + " on x");
            assertEquals(1, seenOnY.get(v), "value " + v + " on y");
        }
        assertEquals(null, x.tryReceive());
        assertEquals(null, y.tryReceive());
    }

    private static void quotaExchange(Channel<Integer> out, Channel<Integer> in, int id, int threads, int quota,
            AtomicIntegerArray seen, ConcurrentLinkedQueue<String> problems, boolean sendFirst) throws Exception {
        int sent = 0;
        int received = 0;
        int[] last = new int[threads];
        java.util.Arrays.fill(last, -1);
        while (sent < quota || received < quota) {
            Integer r;
            if (sent < quota && received < quota) {
                int v = id * quota + sent;
                SelectClause<Integer> send = out.sendClause(v, () -> null);
                SelectClause<Integer> receive = in.receiveClause();
                boolean first = sendFirst ^ (sent + received) % 5 == 0;
                r = (sent + received) % 7 == 0 ? Select.selectUnbiased(send, receive)
                        : first ? Select.select(send, receive) : Select.select(receive, send);
                if (r == null) {
                    sent++;
                    continue;
                }
            } else if (sent < quota) {
                out.send(id * quota + sent);
                sent++;
                continue;
            } else {
                r = in.receive();
            }
            received++;
            int sender = r / quota;
            int seq = r % quota;
            if (seq <= last[sender]) {
                problems.add("thread " + id + " received " + sender + ":" + seq + " after " + sender + ":" + last[sender]);
            }
            last[sender] = seq;
            if (seen.getAndIncrement(r) != 0) {
                problems.add("value " + r + " received twice");
            }
        }
    }

    // ---------------------------------------------------------------- many selecting consumers

    static Stream<Arguments> capacitiesAndThreads() {
        return Stream.of(Capacity.values())
                .flatMap(c -> Stream.of(ThreadKind.values()).map(k -> Arguments.of(c, k)));
    }

    /**
     * 8 consumers select over 3 channels; 4 producers send (two with plain send to a channel of
     * their own, two with selects over send clauses on all three channels). When the producers
     * are done, the channels are closed as done; consumers drop a channel when it reports done.
     * Every value (producer, seq) is received exactly once; each consumer sees each producer's
     * values on each channel in increasing order.
     */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void exactlyOnceWithManySelectingConsumers(Capacity capacity, ThreadKind kind) throws Exception {
        List<Channel<Integer>> chs = List.of(capacity.newChannel(), capacity.newChannel(), capacity.newChannel());
        int producers = 4;
        int consumers = 8;
        int perProducer = kind == ThreadKind.VIRTUAL ? 6_000 : 3_000;
        AtomicIntegerArray seen = new AtomicIntegerArray(producers * perProducer);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Forked<Void>> ps = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int id = p;
            ps.add(Forked.run(kind, () -> {
                for (int i = 0; i < perProducer; i++) {
                    int v = id * perProducer + i;
                    switch (id) {
                        case 0 -> chs.get(0).send(v);
                        case 1 -> chs.get(1 + i % 2).send(v);
                        case 2 -> Select.select(chs.get(0).sendClause(v), chs.get(1).sendClause(v), chs.get(2).sendClause(v));
                        default -> Select.selectUnbiased(chs.get(2).sendClause(v), chs.get(0).sendClause(v),
                                chs.get(1).sendClause(v));
                    }
                }
            }));
        }
        List<Forked<Integer>> cs = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            int consumer = c;
            cs.add(Forked.start(kind, () -> {
                List<Integer> open = new ArrayList<>(List.of(0, 1, 2));
                int[][] last = new int[chs.size()][producers];
                for (int[] l : last) {
                    java.util.Arrays.fill(l, -1);
                }
                int count = 0;
                while (!open.isEmpty()) {
                    SelectClause<?>[] clauses = new SelectClause<?>[open.size()];
                    for (int k = 0; k < open.size(); k++) {
                        int chIndex = open.get(k);
                        clauses[k] = chs.get(chIndex).receiveClause(v -> new int[] {chIndex, v});
                    }
                    Object r = consumer % 2 == 0 ? Select.selectOrClosed(clauses) : Select.selectUnbiasedOrClosed(clauses);
                    if (r instanceof ChannelDone d) {
                        open.remove((Integer) chs.indexOf(d.channel()));
                        continue;
                    }
                    if (r instanceof ChannelClosed closed) {
                        problems.add("unexpected " + closed);
                        return count;
                    }
                    int[] got = (int[]) r;
                    int p = got[1] / perProducer;
                    int seq = got[1] % perProducer;
                    if (seq <= last[got[0]][p]) {
                        problems.add("consumer " + consumer + " got " + p + ":" + seq + " on channel " + got[0]
                                + " after " + p + ":" + last[got[0]][p]);
                    }
                    last[got[0]][p] = seq;
                    if (seen.getAndIncrement(got[1]) != 0) {
                        problems.add("duplicate " + p + ":" + seq);
                    }
                    count++;
                }
                return count;
            }));
        }
        for (Forked<Void> p : ps) {
            join(p, chs.toArray(Channel<?>[]::new));
        }
        for (Channel<Integer> ch : chs) {
            ch.done();
        }
        int total = 0;
        for (Forked<Integer> c : cs) {
            total += join(c, chs.toArray(Channel<?>[]::new));
        }
        assertTrue(problems.isEmpty(), problems.size() + " problems, first: " + problems.stream().limit(5).toList());
        assertEquals(producers * perProducer, total);
        for (int v = 0; v < producers * perProducer; v++) {
            assertEquals(1, seen.get(v), "value " + v);
        }
    }

    /**
     * Plain senders, selecting senders, plain receivers and selecting receivers share two
     * channels. Exact accounting over both; each receiver sees each sender's values on each channel in order.
     */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void selectsMixedWithPlainOperations(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> x = capacity.newChannel();
        Channel<Integer> y = capacity.newChannel();
        int senders = 4;
        int perSender = kind == ThreadKind.VIRTUAL ? 5_000 : 2_500;
        AtomicIntegerArray seen = new AtomicIntegerArray(senders * perSender);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Forked<Void>> ss = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int id = s;
            ss.add(Forked.run(kind, () -> {
                for (int i = 0; i < perSender; i++) {
                    int v = id * perSender + i;
                    switch (id) {
                        case 0 -> x.send(v);
                        case 1 -> {
                            if (i % 2 == 0) {
                                y.send(v);
                            } else {
                                Select.select(x.sendClause(v), y.sendClause(v));
                            }
                        }
                        case 2 -> Select.select(y.sendClause(v), x.sendClause(v));
                        default -> {
                            if (!x.trySend(v)) {
                                Select.selectUnbiased(x.sendClause(v), y.sendClause(v));
                            }
                        }
                    }
                }
            }));
        }
        // receivers: plain on x, plain on y, select (x, y), select (y, x) unbiased, tryReceive-then-select
        List<Forked<Integer>> rs = new ArrayList<>();
        for (int r = 0; r < 5; r++) {
            int id = r;
            rs.add(Forked.start(kind, () -> {
                int[][] last = new int[2][senders]; // per channel (0: x, 1: y) and sender
                for (int[] l : last) {
                    java.util.Arrays.fill(l, -1);
                }
                int count = 0;
                boolean xOpen = true;
                boolean yOpen = true;
                SelectClause<int[]> fromX = x.receiveClause(v -> new int[] {0, v});
                SelectClause<int[]> fromY = y.receiveClause(v -> new int[] {1, v});
                while (xOpen || yOpen) {
                    Object got;
                    if (id == 0 && xOpen) {
                        got = tag(0, x.receiveOrClosed());
                    } else if (id == 1 && yOpen) {
                        got = tag(1, y.receiveOrClosed());
                    } else if (xOpen && yOpen) {
                        got = switch (id) {
                            case 2 -> Select.selectOrClosed(fromX, fromY);
                            case 3 -> Select.selectUnbiasedOrClosed(fromY, fromX);
                            default -> {
                                Object t = tag(0, x.tryReceiveOrClosed());
                                yield t != null ? t : Select.selectOrClosed(fromY, fromX);
                            }
                        };
                    } else {
                        got = xOpen ? tag(0, x.receiveOrClosed()) : tag(1, y.receiveOrClosed());
                    }
                    if (got instanceof ChannelDone d) {
                        if (d.channel() == x) {
                            xOpen = false;
                        } else {
                            yOpen = false;
                        }
                        continue;
                    }
                    if (got instanceof ChannelClosed closed) {
                        problems.add("unexpected " + closed);
                        return count;
                    }
                    int channel = ((int[]) got)[0];
                    int v = ((int[]) got)[1];
                    int sender = v / perSender;
                    int seq = v % perSender;
                    if (seq <= last[channel][sender]) {
                        problems.add("receiver " + id + " got " + sender + ":" + seq + " on " + (channel == 0 ? "x" : "y")
                                + " after " + sender + ":" + last[channel][sender]);
                    }
                    last[channel][sender] = seq;
                    if (seen.getAndIncrement(v) != 0) {
                        problems.add("duplicate " + v);
                    }
                    count++;
                }
                return count;
            }));
        }
        for (Forked<Void> s : ss) {
            join(s, x, y);
        }
        x.done();
        y.done();
        int total = 0;
        for (Forked<Integer> r : rs) {
            total += join(r, x, y);
        }
        assertTrue(problems.isEmpty(), problems.size() + " problems, first: " + problems.stream().limit(5).toList());
        assertEquals(senders * perSender, total);
        for (int v = 0; v < senders * perSender; v++) {
            assertEquals(1, seen.get(v), "value " + v);
        }
    }

    /**
     * done() lands while selecting producers still send: every value whose select returned
     * normally is received exactly once, and no value whose select reported ChannelDone is.
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void doneRacingWithSelectingProducersAccountsForEveryValue(Capacity capacity) throws Exception {
        java.util.SplittableRandom random = new java.util.SplittableRandom(13);
        for (int round = 0; round < 10; round++) {
            Channel<Integer> a = capacity.newChannel();
            Channel<Integer> b = capacity.newChannel();
            int producers = 3;
            int max = 1 << 20;
            List<Forked<Integer>> ps = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int id = p;
                ps.add(Forked.start(p % 2 == 0 ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM, () -> {
                    for (int i = 0; i < max; i++) {
                        int v = id * max + i;
                        Object r = i % 2 == 0 ? Select.selectOrClosed(a.sendClause(v), b.sendClause(v))
                                : Select.selectUnbiasedOrClosed(b.sendClause(v), a.sendClause(v));
                        if (r instanceof ChannelDone) {
                            return i; // 0 .. i-1 were sent
                        }
                        if (r != null) {
                            throw new AssertionError("unexpected " + r);
                        }
                    }
                    throw new AssertionError("done() never came");
                }));
            }
            List<Forked<List<Integer>>> cs = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                cs.add(Forked.virtual(() -> {
                    List<Integer> got = new ArrayList<>();
                    boolean aOpen = true;
                    boolean bOpen = true;
                    while (aOpen || bOpen) {
                        Object r = aOpen && bOpen ? Select.selectOrClosed(a.receiveClause(), b.receiveClause())
                                : (aOpen ? a : b).receiveOrClosed();
                        if (r instanceof ChannelDone d) {
                            if (d.channel() == a) {
                                aOpen = false;
                            } else {
                                bOpen = false;
                            }
                        } else {
                            got.add((Integer) r);
                        }
                    }
                    return got;
                }));
            }
            long stopAfter = System.nanoTime() + random.nextInt(3_000_000);
            while (System.nanoTime() < stopAfter) {
                Thread.onSpinWait();
            }
            // close a first, then b: producers may still send on b in between
            a.done();
            b.done();
            int[] sentCount = new int[producers];
            for (int p = 0; p < producers; p++) {
                sentCount[p] = join(ps.get(p), a, b);
            }
            Map<Integer, Integer> received = new HashMap<>();
            for (Forked<List<Integer>> c : cs) {
                for (int v : join(c, a, b)) {
                    if (received.merge(v, 1, Integer::sum) > 1) {
                        fail("round " + round + ": " + v + " received twice");
                    }
                }
            }
            int expected = 0;
            for (int p = 0; p < producers; p++) {
                expected += sentCount[p];
                for (int i = 0; i < sentCount[p]; i++) {
                    if (!received.containsKey(p * max + i)) {
                        fail("round " + round + ": " + p + ":" + i + " was sent (its select returned) but not received");
                    }
                }
            }
            assertEquals(expected, received.size(), "round " + round + ": received values nobody sent");
        }
    }

    /** Tags a plain receive's outcome with its channel, like the select clauses do; closed states pass. */
    private static Object tag(int channel, Object received) {
        return received == null || received instanceof ChannelClosed ? received : new int[] {channel, (Integer) received};
    }

    private static <T> T join(Forked<T> f, Channel<?>... chs) throws Exception {
        try {
            return f.get(PATIENCE);
        } catch (AssertionError e) {
            StringBuilder sb = new StringBuilder(e.getMessage());
            for (Channel<?> ch : chs) {
                sb.append("\n").append(ch);
            }
            throw new AssertionError(sb.toString(), e);
        }
    }
}
