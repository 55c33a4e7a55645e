package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The API contracts that issue 8's reviews found broken on a0d3073: a value that is itself a
 * {@link ChannelClosed} object is never taken for a close signal (on select's immediate and
 * waiting paths alike), zero timeouts follow one interrupt rule, close reasons print one short
 * line, a select does not read the caller's array after it started, and a throwing receive
 * callback loses only its own value.
 */
class ChannelContractsTest {

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    /** A user value that is a ChannelDone object (of another, closed channel). */
    private static ChannelDone doneValue() {
        Channel<Object> other = Channel.newRendezvousChannel();
        other.done();
        return (ChannelDone) other.closedForSend();
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void closedObjectAsValueThroughPlainReceive(Capacity capacity) throws Exception {
        Channel<Object> ch = capacity.newChannel();
        ChannelDone v = doneValue();
        Forked<Void> sender = Forked.virtual(() -> {
            ch.send(v);
            return null;
        });
        assertSame(v, ch.receive());
        sender.value();
        assertFalse(ch.isClosedForReceive());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void closedObjectAsValueSelectedAtOnce(Capacity capacity) throws Exception {
        Channel<Object> ch = capacity.newChannel();
        Channel<Object> other = Channel.newRendezvousChannel();
        ChannelDone v = doneValue();
        Forked<Void> sender = Forked.virtual(() -> {
            ch.send(v);
            return null;
        });
        if (capacity.isRendezvous()) {
            sender.awaitBlocked();
        } else {
            sender.value();
        }
        // the value is ready: select's immediate path
        assertSame(v, Select.select(other.receiveClause(), ch.receiveClause()));
        sender.value();
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void closedObjectAsValueSelectedAfterWaiting(Capacity capacity) throws Exception {
        Channel<Object> ch = capacity.newChannel();
        Channel<Object> other = Channel.newRendezvousChannel();
        ChannelDone v = doneValue();
        Forked<Object> selector =
                Forked.virtual(() -> Select.selectOrClosed(other.receiveClause(), ch.receiveClause()));
        selector.awaitBlocked();
        ch.send(v); // select's waiting path
        assertSame(v, selector.value());
        // and it was not taken for the channel's close: the channel is open
        assertTrue(ch.trySend("x") || capacity.isRendezvous());
    }

    @Test
    void closedObjectAsValueWithDefaultClause() throws Exception {
        Channel<Object> ch = Channel.newBufferedChannel(1);
        ChannelDone v = doneValue();
        ch.send(v);
        assertSame(v, Select.select(ch.receiveClause(), Select.defaultClause("none")));
    }

    @Test
    void forEachPassesClosedObjectValuesThrough() throws Exception {
        Channel<Object> ch = Channel.newBufferedChannel(4);
        ChannelDone v = doneValue();
        ch.send("a");
        ch.send(v);
        ch.send("b");
        ch.done();
        List<Object> got = new ArrayList<>();
        ch.forEach(got::add);
        assertEquals(List.of("a", v, "b"), got);
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void zeroTimeoutsLeaveTheInterruptFlagAlone(Capacity capacity) throws Exception {
        Channel<String> ch = capacity.newChannel();
        Channel<String> full = Channel.newRendezvousChannel();
        Thread.currentThread().interrupt();
        assertNull(ch.tryReceive(Duration.ZERO));
        assertTrue(Thread.currentThread().isInterrupted());
        assertNull(ch.tryReceiveOrClosed(Duration.ZERO));
        assertFalse(full.trySend("v", Duration.ZERO));
        assertEquals(Sink.NOT_SENT, full.trySendOrClosed("v", Duration.ZERO));
        assertEquals("t", Select.selectOrClosedWithin(Duration.ZERO, "t", ch.receiveClause()));
        assertThrows(
                java.util.concurrent.TimeoutException.class,
                () -> Select.selectWithin(Duration.ZERO, ch.receiveClause(), full.sendClause("v")));
        assertTrue(Thread.currentThread().isInterrupted(), "a zero timeout never waits");
    }

    @Test
    void positiveTimeoutsThrowWhenInterruptedBeforeWaiting() {
        Channel<String> ch = Channel.newRendezvousChannel();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> ch.tryReceive(Duration.ofMillis(50)));
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> ch.trySend("v", Duration.ofMillis(50)));
        Thread.currentThread().interrupt();
        assertThrows(
                InterruptedException.class,
                () -> Select.selectOrClosedWithin(Duration.ofMillis(50), "t", ch.receiveClause()));
        // and none of them had an effect
        assertNull(ch.tryReceive());
        assertFalse(ch.trySend("v"));
    }

    @Test
    void closeReasonsPrintOneShortLine() {
        Channel<String> ch = Channel.newBufferedChannel(64);
        for (int i = 0; i < 64; i++) {
            ch.trySend("value " + i);
        }
        Channel<String> ch2 = Channel.newBufferedChannel(64);
        for (int i = 0; i < 64; i++) {
            ch2.trySend("value " + i);
        }
        ch.done();
        ch2.error(new IllegalStateException("boom"));
        for (Object r : List.of(ch.closedForSend(), ch2.closedForSend())) {
            String s = r.toString();
            assertFalse(s.contains("\n"), s);
            assertTrue(s.length() < 120, s);
            assertFalse(s.contains("Segment"), s);
        }
        assertTrue(ch2.closedForSend().toString().contains("boom"));
    }

    @Test
    void selectDoesNotReadTheCallersArrayAfterItStarted() throws Exception {
        Channel<String> a = Channel.newRendezvousChannel();
        Channel<String> b = Channel.newRendezvousChannel();
        Channel<String> c = Channel.newRendezvousChannel();
        SelectClause<?>[] clauses = {a.receiveClause(), b.receiveClause()};
        @SuppressWarnings("unchecked")
        Forked<Object> selector = Forked.virtual(() -> Select.select((SelectClause<Object>[]) clauses));
        selector.awaitBlocked();
        clauses[0] = c.receiveClause(); // the caller reuses its array
        clauses[1] = c.receiveClause();
        a.send("via a"); // must still complete the select's clause on a
        assertEquals("via a", selector.value());
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void throwingReceiveCallbackLosesOnlyItsValue(Capacity capacity) throws Exception {
        Channel<String> a = capacity.newChannel();
        Channel<String> b = Channel.newRendezvousChannel();
        Forked<Object> selector = Forked.virtual(() -> Select.select(
                a.receiveClause(v -> {
                    throw new IllegalStateException("callback failed on " + v);
                }),
                b.receiveClause()));
        selector.awaitBlocked();
        a.send("x");
        Throwable t = selector.failure();
        assertTrue(t instanceof IllegalStateException && t.getMessage().contains("x"), String.valueOf(t));
        // the value was consumed, and the other clause's registration was withdrawn
        assertNull(a.tryReceive());
        assertFalse(b.trySend("y"), "a withdrawn registration must not receive");
        // both channels stay usable
        Forked<String> r = Forked.virtual(b::receive);
        b.send("z");
        assertEquals("z", r.value());
    }
}
