package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@link Source#iterator()}, {@link Source#asIterable()} and {@link Source#stream()}. */
class SourceIterationTest {

    private static Channel<Integer> filled(int capacity, int n, boolean done) throws Exception {
        Channel<Integer> ch = Channel.newBufferedChannel(capacity);
        for (int i = 1; i <= n; i++) {
            ch.send(i);
        }
        if (done) {
            ch.done();
        }
        return ch;
    }

    @Test
    void forEachLoopEndsWhenDone() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Forked<Void> producer = Forked.run(ThreadKind.VIRTUAL, () -> {
            for (int i = 1; i <= 100; i++) {
                ch.send(i);
            }
            ch.done();
        });
        List<Integer> got = new ArrayList<>();
        for (int v : ch.asIterable()) {
            got.add(v);
        }
        producer.get();
        assertEquals(100, got.size());
        for (int i = 0; i < 100; i++) {
            assertEquals(i + 1, got.get(i));
        }
    }

    @Test
    void errorEndsTheLoopWithChannelErrorExceptionAfterTheValuesBeforeIt() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Forked<Void> producer = Forked.run(ThreadKind.VIRTUAL, () -> {
            ch.send(1);
            ch.send(2);
            ch.error(new IllegalStateException("boom"));
        });
        List<Integer> got = new ArrayList<>();
        ChannelErrorException e = assertThrows(ChannelErrorException.class, () -> {
            for (int v : ch.asIterable()) {
                got.add(v);
            }
        });
        producer.get();
        assertEquals(List.of(1, 2), got);
        assertInstanceOf(IllegalStateException.class, e.getCause());
    }

    @Test
    void hasNextHoldsOneValueAndNeverConsumesTwice() throws Exception {
        Channel<Integer> ch = filled(4, 3, false);
        Iterator<Integer> it = ch.iterator();
        assertTrue(it.hasNext());
        assertTrue(it.hasNext()); // still the same held value
        assertTrue(it.hasNext());
        assertEquals(2, (int) ch.tryReceive()); // hasNext took exactly one: 1 is held, 2 and 3 remain
        assertEquals(1, it.next());
        assertEquals(3, it.next()); // next() without hasNext() receives
        ch.done();
        assertFalse(it.hasNext());
        assertFalse(it.hasNext());
        assertThrows(NoSuchElementException.class, it::next);
    }

    @Test
    void interruptedHasNextThrowsUncheckedSetsTheFlagAndConsumesNothing() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Iterator<Integer> it = ch.iterator();
        Forked<String> receiver = Forked.virtual(() -> {
            try {
                it.hasNext();
                return "no exception";
            } catch (ReceiveInterruptedException e) {
                boolean flag = Thread.interrupted(); // read and clear
                assertInstanceOf(InterruptedException.class, e.getCause());
                return flag ? "flag set" : "flag not set";
            }
        }).awaitBlocked();
        receiver.interrupt();
        assertEquals("flag set", receiver.get());
        // the interrupted wait consumed nothing: no receiver is left, and a sender's value is
        // received by the same iterator afterwards
        assertFalse(ch.trySend(7));
        Forked<Void> sender = Forked.run(ThreadKind.VIRTUAL, () -> ch.send(8));
        assertTrue(it.hasNext());
        assertEquals(8, it.next());
        sender.get();
    }

    @Test
    void interruptedWhileWaitingInAStream() throws Exception {
        Channel<Integer> ch = Channel.newBufferedChannel(4);
        ch.send(1);
        Forked<String> receiver = Forked.virtual(() -> {
            List<Integer> seen = new ArrayList<>();
            try {
                ch.stream().forEach(seen::add);
                return "no exception";
            } catch (ReceiveInterruptedException e) {
                return seen + " " + Thread.interrupted();
            }
        }).awaitBlocked();
        receiver.interrupt();
        assertEquals("[1] true", receiver.get());
        assertTrue(ch.trySend(2)); // nothing is waiting in the channel any more
        assertEquals(2, ch.tryReceive());
    }

    @Test
    void aValueThatIsAChannelClosedObjectIsIterated() throws Exception {
        Channel<Object> ch = Channel.newBufferedChannel(2);
        ChannelDone foreign = new ChannelDone(Channel.newRendezvousChannel());
        ch.send(foreign);
        ch.done();
        List<Object> got = new ArrayList<>();
        ch.asIterable().forEach(got::add);
        assertEquals(1, got.size());
        assertSame(foreign, got.get(0));
    }

    @Test
    void streamCollectsUntilDone() throws Exception {
        Channel<Integer> ch = filled(10, 10, true);
        assertEquals(55, ch.stream().mapToInt(Integer::intValue).sum());
        assertTrue(ch.isClosedForReceive());
    }

    @Test
    void limitReceivesExactlyWhatItReturns() throws Exception {
        Channel<Integer> ch = filled(10, 10, false);
        assertEquals(List.of(1, 2, 3), ch.stream().limit(3).toList());
        assertEquals(4, ch.tryReceive()); // 4 was not consumed
        assertEquals(5, ch.stream().findFirst().orElseThrow());
        assertEquals(6, ch.tryReceive());
        assertTrue(ch.stream().anyMatch(v -> v == 8)); // consumes 7 and 8
        assertEquals(9, ch.tryReceive());
    }

    @Test
    void takeWhileConsumesTheFirstValueThatFails() throws Exception {
        Channel<Integer> ch = filled(10, 10, false);
        assertEquals(List.of(1, 2), ch.stream().takeWhile(v -> v < 3).toList());
        assertEquals(4, ch.tryReceive()); // 3 was received and dropped, as documented
    }

    @Test
    void parallelStreamDoesNotReadAhead() throws Exception {
        Channel<Integer> ch = filled(100, 100, false);
        assertEquals(List.of(1, 2), ch.stream().parallel().limit(2).toList());
        assertEquals(3, ch.tryReceive());
    }

    @Test
    void streamOfAChannelInErrorThrows() throws Exception {
        Channel<Integer> ch = filled(4, 2, false);
        ch.error(new RuntimeException("x"));
        assertThrows(ChannelErrorException.class, () -> ch.stream().collect(Collectors.toList()));
    }

    @Test
    void aUserImplementedSourceGetsIterationForFree() {
        Source<String> three = new ListSource(List.of("a", "b", "c"));
        assertEquals("abc", three.stream().collect(Collectors.joining()));
        StringBuilder sb = new StringBuilder();
        for (String s : new ListSource(List.of("x", "y")).asIterable()) {
            sb.append(s);
        }
        assertEquals("xy", sb.toString());
    }

    /** A minimal Source written by a user: only the abstract methods. */
    private static final class ListSource implements Source<String> {
        private final Channel<String> ch = Channel.newUnlimitedChannel();

        ListSource(List<String> values) {
            values.forEach(ch::trySend);
            ch.done();
        }

        @Override
        public String receive() throws InterruptedException {
            return ch.receive();
        }

        @Override
        public Object receiveOrClosed() throws InterruptedException {
            return ch.receiveOrClosed();
        }

        @Override
        public String tryReceive() {
            return ch.tryReceive();
        }

        @Override
        public Object tryReceiveOrClosed() {
            return ch.tryReceiveOrClosed();
        }

        @Override
        public String tryReceive(java.time.Duration timeout) throws InterruptedException {
            return ch.tryReceive(timeout);
        }

        @Override
        public Object tryReceiveOrClosed(java.time.Duration timeout) throws InterruptedException {
            return ch.tryReceiveOrClosed(timeout);
        }

        @Override
        public SelectClause<String> receiveClause() {
            return ch.receiveClause();
        }

        @Override
        public <U> SelectClause<U> receiveClause(java.util.function.Function<String, U> callback) {
            return ch.receiveClause(callback);
        }

        @Override
        public void done() {
            ch.done();
        }

        @Override
        public Object doneOrClosed() {
            return ch.doneOrClosed();
        }

        @Override
        public void error(Throwable reason) {
            ch.error(reason);
        }

        @Override
        public Object errorOrClosed(Throwable reason) {
            return ch.errorOrClosed(reason);
        }

        @Override
        public boolean isClosedForSend() {
            return ch.isClosedForSend();
        }

        @Override
        public boolean isClosedForReceive() {
            return ch.isClosedForReceive();
        }

        @Override
        public ChannelClosed closedForSend() {
            return ch.closedForSend();
        }

        @Override
        public ChannelClosed closedForReceive() {
            return ch.closedForReceive();
        }
    }
}
