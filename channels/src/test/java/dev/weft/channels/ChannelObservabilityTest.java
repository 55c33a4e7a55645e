package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** Names, {@code toString()}, and what waiting threads park on (thread dumps). */
class ChannelObservabilityTest {

    @Test
    void waitingReceiverParksOnTheChannelsReceiveBlocker() throws Exception {
        Channel<String> orders = Channel.newBufferedChannel("orders", 16);
        Forked<String> r1 = Forked.virtual(orders::receive).awaitBlocked();
        Object blocker = LockSupport.getBlocker(r1.thread());
        assertInstanceOf(ChannelWait.Receive.class, blocker);
        assertEquals("receive on Channel[orders, capacity 16]", blocker.toString());
        orders.send("a");
        assertEquals("a", r1.get());
        // the next wait parks on the very same object: nothing is allocated per wait
        Forked<String> r2 = Forked.platform(orders::receive).awaitBlocked();
        assertSame(blocker, LockSupport.getBlocker(r2.thread()));
        orders.send("b");
        assertEquals("b", r2.get());
    }

    @Test
    void waitingSenderAndTimedWaitsToo() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Forked<Void> sender = Forked.run(ThreadKind.VIRTUAL, () -> ch.send(1)).awaitBlocked();
        Object blocker = LockSupport.getBlocker(sender.thread());
        assertInstanceOf(ChannelWait.Send.class, blocker);
        assertTrue(blocker.toString().matches("send on Channel#\\d+\\[capacity 0]"), blocker.toString());
        assertEquals(1, ch.receive());
        sender.get();
        Forked<Boolean> timed = Forked.virtual(() -> ch.trySend(2, Duration.ofMinutes(1))).awaitBlocked();
        assertSame(blocker, LockSupport.getBlocker(timed.thread()));
        assertEquals(2, ch.receive());
        assertTrue(timed.get());
    }

    @Test
    void waitingSelectNamesItsChannels() throws Exception {
        Channel<String> a = Channel.newRendezvousChannel("a");
        Channel<String> b = Channel.newUnlimitedChannel("b");
        Channel<String> c = Channel.newBufferedChannel(1);
        c.send("full");
        Forked<Object> sel = Forked.virtual(() ->
                Select.select(a.receiveClause(), b.receiveClause(), c.sendClause("x"))).awaitBlocked();
        String text = LockSupport.getBlocker(sel.thread()).toString();
        assertTrue(text.startsWith("select on [receive on Channel[a, capacity 0], receive on Channel[b,"
                + " capacity unlimited], send on Channel#"), text);
        a.send("go");
        assertEquals("go", sel.get());
    }

    @Test
    void toStringIsOneBoundedLine() throws Exception {
        Channel<Integer> ch = Channel.newBufferedChannel("jobs", 4);
        assertEquals("Channel[jobs, capacity 4, open, buffered ~0, waiting senders ~0, waiting receivers ~0]",
                ch.toString());
        for (int i = 0; i < 4; i++) {
            ch.send(i);
        }
        Forked<Void> s1 = Forked.run(ThreadKind.VIRTUAL, () -> ch.send(4)).awaitBlocked();
        Forked<Void> s2 = Forked.run(ThreadKind.VIRTUAL, () -> ch.send(5)).awaitBlocked();
        assertEquals("Channel[jobs, capacity 4, open, buffered ~4, waiting senders ~2, waiting receivers ~0]",
                ch.toString());
        assertEquals(List.of(0, 1, 2, 3, 4, 5), List.of(ch.receive(), ch.receive(), ch.receive(),
                ch.receive(), ch.receive(), ch.receive()));
        s1.get();
        s2.get();
        Forked<Integer> r = Forked.virtual(ch::receive).awaitBlocked();
        assertEquals("Channel[jobs, capacity 4, open, buffered ~0, waiting senders ~0, waiting receivers ~1]",
                ch.toString());
        ch.send(9);
        assertEquals(9, r.get());
        ch.send(10);
        ch.done();
        assertEquals("Channel[jobs, capacity 4, done, buffered ~1]", ch.toString());
        Channel<Integer> failed = Channel.newUnlimitedChannel();
        failed.error(new RuntimeException());
        assertTrue(failed.toString().matches("Channel#\\d+\\[capacity unlimited, error]"), failed.toString());

        Channel<Integer> longName = Channel.newRendezvousChannel("n".repeat(10_000));
        assertTrue(longName.toString().length() < 200, longName.toString());
        assertEquals(10_000, longName.name().length());
        assertNull(failed.name());
        assertThrows(NullPointerException.class, () -> Channel.newRendezvousChannel(null));
        assertThrows(IllegalArgumentException.class, () -> Channel.newBufferedChannel("x", -2));
        assertTrue(Channel.newBufferedChannel("x", -1).toString().contains("capacity unlimited"));
    }

    @Test
    void anUnnamedChannelTakesItsIdWhenFirstDescribedAndKeepsIt() throws Exception {
        Channel<Integer> a = Channel.newRendezvousChannel();
        Channel<Integer> b = Channel.newBufferedChannel(4);
        long idB = idOf(b); // b is described first, so it took the smaller id
        long idA = idOf(a);
        assertTrue(0 < idB && idB < idA, idB + " " + idA);
        assertEquals(idA, idOf(a));
        assertEquals(idB, b.id());
        assertTrue(b.toString().startsWith("Channel#" + idB + "[capacity 4, open"), b.toString());
        // threads describing a new channel at the same moment agree on its id
        for (int round = 0; round < 300; round++) {
            Channel<Integer> c = Channel.newRendezvousChannel();
            List<Object> seen = race(2, c::id);
            for (Object id : seen) {
                assertEquals(seen.get(0), id);
            }
            assertEquals(seen.get(0), c.id());
        }
    }

    @Test
    void theFirstWaitsOfANewChannelMakeOneBlockerBetweenThem() throws Exception {
        for (int round = 0; round < 300; round++) {
            Channel<Integer> c = Channel.newRendezvousChannel();
            for (boolean send : new boolean[] {true, false}) {
                List<Object> seen = race(2, () -> c.waitBlocker(send));
                for (Object blocker : seen) {
                    assertSame(seen.get(0), blocker);
                }
                Class<?> kind = send ? ChannelWait.Send.class : ChannelWait.Receive.class;
                assertTrue(kind.isInstance(seen.get(0)), String.valueOf(seen.get(0)));
            }
        }
        // and a real wait parks on it
        Channel<Integer> d = Channel.newRendezvousChannel();
        Object blocker = d.waitBlocker(false);
        Forked<Integer> r = Forked.virtual(d::receive).awaitBlocked();
        assertSame(blocker, LockSupport.getBlocker(r.thread()));
        d.send(1);
        assertEquals(1, r.get());
    }

    /**
     * Runs {@code task} on {@code n} platform threads that spin until all of them are ready and
     * then call it at once; their results.
     */
    private static List<Object> race(int n, Callable<Object> task) throws Exception {
        AtomicInteger ready = new AtomicInteger();
        List<Forked<Object>> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            threads.add(Forked.platform(() -> {
                ready.incrementAndGet();
                long deadline = System.nanoTime() + Forked.PATIENCE.toNanos();
                while (ready.get() < n && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                return task.call();
            }));
        }
        List<Object> results = new ArrayList<>();
        for (Forked<Object> f : threads) {
            results.add(f.get());
        }
        return results;
    }

    private static long idOf(Channel<?> ch) {
        String s = ch.toString();
        assertTrue(s.startsWith("Channel#"), s);
        return Long.parseLong(s.substring("Channel#".length(), s.indexOf('[')));
    }

    @Test
    void cellDumpStaysAvailable() throws Exception {
        Channel<Integer> ch = Channel.newBufferedChannel(2);
        ch.send(1);
        String dump = ch.dumpCells();
        assertTrue(dump.startsWith("Channel(capacity=2, senders=1"), dump);
        assertTrue(dump.contains("\n  Segment#0["), dump);
    }

    /**
     * The real tools: {@code jcmd Thread.print} (what jstack prints) shows the blocker's class for a
     * platform thread, and {@code jcmd Thread.dump_to_file -format=json} shows it for a virtual
     * thread, as its {@code parkBlocker}.
     */
    @Test
    void threadDumpsShowTheOperation() throws Exception {
        Channel<String> orders = Channel.newBufferedChannel("orders", 16);
        Channel<String> acks = Channel.newRendezvousChannel("acks");
        Forked<String> platform = Forked.platform(orders::receive).awaitBlocked();
        Forked<Void> virtual = Forked.run(ThreadKind.VIRTUAL, () -> acks.send("ack")).awaitBlocked();
        String blockerId = "dev.weft.channels.ChannelWait$Send@"
                + Integer.toHexString(System.identityHashCode(LockSupport.getBlocker(virtual.thread())));
        try {
            String print = jcmd("Thread.print");
            assertTrue(print.contains("- parking to wait for  <0x") && print.contains(
                    "(a dev.weft.channels.ChannelWait$Receive)"), print);
            Path json = Files.createTempFile("weft-threads", ".json");
            Files.delete(json);
            jcmd("Thread.dump_to_file", "-format=json", json.toString());
            String dump = Files.readString(json, StandardCharsets.UTF_8);
            Files.delete(json);
            assertTrue(dump.contains("\"parkBlocker\"") && dump.contains(blockerId), blockerId);
        } finally {
            orders.send("x");
            acks.receive();
            platform.get();
            virtual.get();
        }
    }

    private static String jcmd(String... args) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        List<String> cmd = new java.util.ArrayList<>(List.of(jcmd.toString(),
                String.valueOf(ProcessHandle.current().pid())));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "jcmd hung");
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        return text;
    }
}
