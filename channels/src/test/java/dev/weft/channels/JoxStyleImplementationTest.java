package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 9, point 4: a class that implements {@link Source}, {@link Sink} and {@link
 * CloseableChannel} the jox way, overriding exactly the methods jox 1.1.2 makes abstract, compiles
 * against weft and gets working defaults for everything else (the non-blocking and timed
 * operations, {@code isClosedFor...}, {@code forEach}, {@code toList}).
 */
@Timeout(120)
class JoxStyleImplementationTest {

    /**
     * A delegating wrapper that counts calls per method, as a user would write one against jox:
     * it implements only jox's abstract methods. If weft made any other method abstract, this
     * class would not compile.
     */
    static final class MeteredChannel<T> implements Source<T>, Sink<T> {
        private final Channel<T> inner;
        final Map<String, LongAdder> calls = new ConcurrentHashMap<>();

        MeteredChannel(Channel<T> inner) {
            this.inner = inner;
        }

        private void count(String method) {
            calls.computeIfAbsent(method, m -> new LongAdder()).increment();
        }

        long calls(String method) {
            LongAdder a = calls.get(method);
            return a == null ? 0 : a.sum();
        }

        // CloseableChannel
        @Override
        public void done() {
            count("done");
            inner.done();
        }

        @Override
        public Object doneOrClosed() {
            count("doneOrClosed");
            return inner.doneOrClosed();
        }

        @Override
        public void error(Throwable reason) {
            count("error");
            inner.error(reason);
        }

        @Override
        public Object errorOrClosed(Throwable reason) {
            count("errorOrClosed");
            return inner.errorOrClosed(reason);
        }

        @Override
        public ChannelClosed closedForSend() {
            count("closedForSend");
            return inner.closedForSend();
        }

        @Override
        public ChannelClosed closedForReceive() {
            count("closedForReceive");
            return inner.closedForReceive();
        }

        // Sink
        @Override
        public void send(T value) throws InterruptedException {
            count("send");
            inner.send(value);
        }

        @Override
        public Object sendOrClosed(T value) throws InterruptedException {
            count("sendOrClosed");
            return inner.sendOrClosed(value);
        }

        @Override
        public SelectClause<Void> sendClause(T value) {
            count("sendClause");
            return inner.sendClause(value);
        }

        @Override
        public <U> SelectClause<U> sendClause(T value, Supplier<U> callback) {
            count("sendClause(callback)");
            return inner.sendClause(value, callback);
        }

        // Source
        @Override
        public T receive() throws InterruptedException {
            count("receive");
            return inner.receive();
        }

        @Override
        public Object receiveOrClosed() throws InterruptedException {
            count("receiveOrClosed");
            return inner.receiveOrClosed();
        }

        @Override
        public SelectClause<T> receiveClause() {
            count("receiveClause");
            return inner.receiveClause();
        }

        @Override
        public <U> SelectClause<U> receiveClause(Function<T, U> callback) {
            count("receiveClause(callback)");
            return inner.receiveClause(callback);
        }
    }

    /** A {@link CloseableChannel} with only jox's abstract methods: a latch-like "closed" flag. */
    static final class CloseOnce implements CloseableChannel {
        private final AtomicReference<ChannelClosed> reason = new AtomicReference<>();

        @Override
        public void done() {
            if (doneOrClosed() instanceof ChannelClosed c) {
                throw c.toException();
            }
        }

        @Override
        public Object doneOrClosed() {
            return reason.compareAndExchange(null, new ChannelDone(null));
        }

        @Override
        public void error(Throwable cause) {
            if (errorOrClosed(cause) instanceof ChannelClosed c) {
                throw c.toException();
            }
        }

        @Override
        public Object errorOrClosed(Throwable cause) {
            return reason.compareAndExchange(null, new ChannelError(cause, null));
        }

        @Override
        public ChannelClosed closedForSend() {
            return reason.get();
        }

        @Override
        public ChannelClosed closedForReceive() {
            return reason.get();
        }
    }

    /** The abstract methods of weft's interfaces are exactly jox 1.1.2's (see {@link JoxApi}). */
    @Test
    void weftMakesAbstractExactlyTheMethodsJoxMakesAbstract() {
        TreeSet<String> weft = Stream.of(CloseableChannel.class, Sink.class, Source.class)
                .flatMap(type -> Stream.of(type.getDeclaredMethods())
                        .filter(m -> Modifier.isAbstract(m.getModifiers()))
                        .map(m -> type.getSimpleName() + "." + m.getName() + "/" + m.getParameterCount()))
                .collect(Collectors.toCollection(TreeSet::new));
        TreeSet<String> jox = JoxApi.ENTRIES.stream()
                .filter(e -> e.kind() == JoxApi.Kind.ABSTRACT)
                .filter(e -> List.of("CloseableChannel", "Sink", "Source").contains(e.owner()))
                .map(e -> e.owner() + "." + e.name() + "/" + e.parameterCount())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(jox, weft);
    }

    @Test
    void nonBlockingDefaultsWorkThroughTheClauses() throws Exception {
        MeteredChannel<String> ch = new MeteredChannel<>(Channel.newBufferedChannel(1));
        assertTrue(ch.trySend("a"));
        assertFalse(ch.trySend("b"));
        assertSame(Sink.NOT_SENT, ch.trySendOrClosed("b"));
        assertEquals("a", ch.tryReceive());
        assertNull(ch.tryReceive());
        assertNull(ch.tryReceiveOrClosed());
        assertNull(ch.trySendOrClosed("c"));
        assertEquals("c", ch.tryReceiveOrClosed());
        assertEquals(4, ch.calls("sendClause"));
        assertEquals(4, ch.calls("receiveClause"));
        assertThrows(NullPointerException.class, () -> ch.trySend(null));

        MeteredChannel<String> rendezvous = new MeteredChannel<>(Channel.newRendezvousChannel());
        assertFalse(rendezvous.trySend("nobody waits"));
        Forked<String> receiver = Forked.virtual(rendezvous::receive).awaitBlocked();
        assertTrue(rendezvous.trySend("x"));
        assertEquals("x", receiver.get());
        Forked<Void> sender = Forked.run(ThreadKind.VIRTUAL, () -> rendezvous.send("y"));
        Forked.awaitBlocked(sender.thread());
        assertEquals("y", rendezvous.tryReceive());
        sender.get();
    }

    @Test
    void timedDefaultsWaitAtMostTheTimeoutAndLeaveNoTrace() throws Exception {
        MeteredChannel<String> ch = new MeteredChannel<>(Channel.newRendezvousChannel());
        assertNull(ch.tryReceive(Duration.ZERO));
        assertNull(ch.tryReceive(Duration.ofMillis(20)));
        assertNull(ch.tryReceiveOrClosed(Duration.ofMillis(1)));
        assertFalse(ch.trySend("late", Duration.ZERO));
        assertFalse(ch.trySend("late", Duration.ofMillis(20)));
        assertSame(Sink.NOT_SENT, ch.trySendOrClosed("late", Duration.ofMillis(1)));
        assertFalse(ch.trySend("x")); // the timed-out operations left no waiter behind

        Forked<Void> sender = Forked.run(ThreadKind.VIRTUAL, () -> ch.send("in time"));
        assertEquals("in time", ch.tryReceive(Forked.PATIENCE));
        sender.get();
        Forked<String> receiver = Forked.virtual(ch::receive);
        assertTrue(ch.trySend("in time too", Forked.PATIENCE));
        assertEquals("in time too", receiver.get());
        assertTrue(ch.calls("receiveClause") >= 4 && ch.calls("sendClause") >= 4, ch.calls.toString());

        assertThrows(IllegalArgumentException.class, () -> ch.tryReceive(Duration.ofMillis(-1)));
        assertThrows(NullPointerException.class, () -> ch.trySend("v", (Duration) null));
    }

    @Test
    void closedStateDefaultsFollowTheAbstractMethods() throws Exception {
        MeteredChannel<String> ch = new MeteredChannel<>(Channel.newBufferedChannel(4));
        assertFalse(ch.isClosedForSend());
        assertFalse(ch.isClosedForReceive());
        ch.send("a");
        ch.send("b");
        ch.done();
        assertTrue(ch.isClosedForSend());
        assertFalse(ch.isClosedForReceive());
        assertTrue(ch.calls("closedForSend") >= 1 && ch.calls("closedForReceive") >= 1);
        assertThrows(ChannelDoneException.class, () -> ch.trySend("c"));
        assertInstanceOf(ChannelDone.class, ch.trySendOrClosed("c"));
        assertThrows(ChannelDoneException.class, () -> ch.trySend("c", Duration.ofMillis(1)));
        assertEquals(List.of("a", "b"), ch.toList());
        assertTrue(ch.isClosedForReceive());
        assertThrows(ChannelDoneException.class, ch::tryReceive);
        assertInstanceOf(ChannelDone.class, ch.tryReceiveOrClosed());
        assertThrows(ChannelDoneException.class, () -> ch.tryReceive(Duration.ofMillis(1)));

        MeteredChannel<String> failed = new MeteredChannel<>(Channel.newBufferedChannel(4));
        failed.send("dropped");
        failed.error(new IllegalStateException("boom"));
        assertThrows(ChannelErrorException.class, failed::tryReceive);
        assertInstanceOf(ChannelError.class, failed.tryReceiveOrClosed(Duration.ofMillis(1)));
        assertThrows(ChannelErrorException.class, () -> failed.forEach(v -> {}));

        CloseOnce latch = new CloseOnce();
        assertFalse(latch.isClosedForSend() || latch.isClosedForReceive());
        latch.done();
        assertTrue(latch.isClosedForSend() && latch.isClosedForReceive());
        assertThrows(ChannelDoneException.class, latch::done);
    }

    @Test
    void wrappersWorkWithSelectForEachAndTheStaticTrySend() throws Exception {
        MeteredChannel<Integer> a = new MeteredChannel<>(Channel.newBufferedChannel(1));
        MeteredChannel<Integer> b = new MeteredChannel<>(Channel.newBufferedChannel(1));
        assertTrue(Sink.trySend(1, a, b));
        assertTrue(Sink.trySend(2, a, b));
        assertFalse(Sink.trySend(3, a, b));
        assertEquals(1, Select.select(a.receiveClause(), b.receiveClause()));
        assertEquals(2, b.tryReceive());

        Forked<Void> producer = Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int i = 0; i < 100; i++) {
                a.send(i);
            }
            a.done();
        });
        long[] sum = new long[1];
        a.forEach(v -> sum[0] += v);
        producer.get();
        assertEquals(4950, sum[0]);
        assertEquals(100, a.calls("send"));
    }
}
