package dev.weft.channels;

import static dev.weft.channels.SelectChecks.assertFresh;
import static dev.weft.channels.SelectChecks.drainFilled;
import static dev.weft.channels.SelectChecks.fill;
import static dev.weft.channels.SelectChecks.offer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Selects over closed channels: {@code selectOrClosed} returns the {@link ChannelClosed} (error on
 * any clause's channel, done on a drained receive clause, done or error on a send clause), {@code
 * select} throws the matching exception, and a close while the select waits wakes it. The other
 * clauses leave no trace.
 */
@Timeout(60)
class SelectCloseTest {
    private static final Duration LONG = Duration.ofSeconds(20);

    static Stream<Arguments> capacitiesAndThreads() {
        return Stream.of(Capacity.values())
                .flatMap(c -> Stream.of(ThreadKind.values()).map(k -> Arguments.of(c, k)));
    }

    /** The selects that report a closed channel by value; each returns it. */
    enum OrClosedForm {
        OR_CLOSED, OR_CLOSED_WITHIN, UNBIASED_OR_CLOSED;

        Object call(SelectClause<?>... clauses) throws InterruptedException {
            return switch (this) {
                case OR_CLOSED -> Select.selectOrClosed(clauses);
                case OR_CLOSED_WITHIN -> Select.selectOrClosedWithin(LONG, "timeout", clauses);
                case UNBIASED_OR_CLOSED -> Select.selectUnbiasedOrClosed(clauses);
            };
        }
    }

    /** The selects that throw on a closed channel. */
    enum ThrowingForm {
        SELECT, WITHIN, UNBIASED;

        Object call(SelectClause<?>... clauses) throws InterruptedException, TimeoutException {
            return switch (this) {
                case SELECT -> Select.select(clauses);
                case WITHIN -> Select.selectWithin(LONG, clauses);
                case UNBIASED -> Select.selectUnbiased(clauses);
            };
        }
    }

    // ---------------------------------------------------------------- closed before the select

    /** A clause on a channel in error: the ChannelError, at once, wherever the clause is. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void errorOnAReceiveClauseChannelIsReturnedRightAway(Capacity capacity) throws Exception {
        Channel<Integer> open = capacity.newChannel();
        Channel<Integer> failed = capacity.newChannel();
        if (!capacity.isRendezvous()) {
            failed.send(1); // discarded by the error
        }
        RuntimeException boom = new RuntimeException("boom");
        failed.error(boom);
        ChannelError expected = new ChannelError(boom, failed);
        for (OrClosedForm form : OrClosedForm.values()) {
            assertEquals(expected, form.call(failed.receiveClause(), open.receiveClause()), form.toString());
            assertEquals(expected, form.call(open.receiveClause(), failed.receiveClause()), form.toString());
            assertEquals(expected, form.call(open.receiveClause(), failed.receiveClause(), Select.defaultClause(0)),
                    form + " with a default clause");
        }
        for (ThrowingForm form : ThrowingForm.values()) {
            ChannelErrorException e = assertThrows(ChannelErrorException.class,
                    () -> form.call(open.receiveClause(), failed.receiveClause()), form.toString());
            assertSame(boom, e.getCause());
            e = assertThrows(ChannelErrorException.class,
                    () -> form.call(open.receiveClause(), failed.receiveClause(v -> "x"), Select.defaultClause("d")));
            assertSame(boom, e.getCause());
        }
        assertFresh(open, capacity, "the open channel");
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void errorOnASendClauseChannelIsReturnedRightAway(Capacity capacity) throws Exception {
        Channel<Integer> open = capacity.newChannel();
        Channel<Integer> failed = capacity.newChannel();
        RuntimeException boom = new RuntimeException("boom");
        failed.error(boom);
        ChannelError expected = new ChannelError(boom, failed);
        for (OrClosedForm form : OrClosedForm.values()) {
            assertEquals(expected, form.call(failed.sendClause(1), open.receiveClause()), form.toString());
            assertEquals(expected, form.call(open.receiveClause(), failed.sendClause(1, () -> "x")), form.toString());
            assertEquals(expected, form.call(open.receiveClause(), failed.sendClause(1), Select.defaultClauseNull()));
        }
        for (ThrowingForm form : ThrowingForm.values()) {
            ChannelErrorException e = assertThrows(ChannelErrorException.class,
                    () -> form.call(open.receiveClause(), failed.sendClause(2)), form.toString());
            assertSame(boom, e.getCause());
        }
        assertEquals(expected, failed.receiveOrClosed(), "a send clause delivered to a failed channel");
        assertFresh(open, capacity, "the open channel");
    }

    /**
     * jox short-cuts a select when any clause's channel is in error ("otherwise, we might have
     * selected a clause, for which a value was available immediately - even though a channel for a
     * clause appearing later was in error"), and the spec says the ChannelError is returned right
     * away, even over a ready earlier clause (select checks every channel for an error first).
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void errorWinsOverAReadyEarlierClause(Capacity capacity) throws Exception {
        Channel<Integer> ready = capacity.newChannel();
        Channel<Integer> failed = capacity.newChannel();
        RuntimeException boom = new RuntimeException("boom");
        failed.error(boom);
        Forked<Void> sender = offer(ready, capacity, 5, ThreadKind.VIRTUAL);
        assertEquals(new ChannelError(boom, failed), Select.selectOrClosed(ready.receiveClause(), failed.receiveClause()));
        assertEquals(new ChannelError(boom, failed),
                Select.selectOrClosed(ready.receiveClause(), failed.receiveClause(), Select.defaultClause(0)));
        assertEquals(5, ready.receive(), "the ready value was consumed although the select reported the error");
        if (sender != null) {
            sender.get();
        }
    }

    /** A drained done channel on a receive clause: ChannelDone, at once. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void receiveClauseOnADrainedDoneChannelGivesChannelDone(Capacity capacity) throws Exception {
        Channel<Integer> open = capacity.newChannel();
        Channel<Integer> done = capacity.newChannel();
        done.done();
        ChannelDone expected = new ChannelDone(done);
        for (OrClosedForm form : OrClosedForm.values()) {
            assertEquals(expected, form.call(done.receiveClause(), open.receiveClause()), form.toString());
            assertEquals(expected, form.call(open.receiveClause(), done.receiveClause()), form.toString());
            assertEquals(expected, form.call(open.receiveClause(), done.receiveClause(v -> "x"), Select.defaultClause("d")));
        }
        for (ThrowingForm form : ThrowingForm.values()) {
            assertThrows(ChannelDoneException.class, () -> form.call(open.receiveClause(), done.receiveClause()));
            assertThrows(ChannelDoneException.class,
                    () -> form.call(open.receiveClause(), done.receiveClause(), Select.defaultClause(0)));
        }
        assertFresh(open, capacity, "the open channel");
    }

    /** A done channel still delivers its buffered values to select, then reports ChannelDone. */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void doneChannelDeliversItsValuesToSelectFirst(Capacity capacity) throws Exception {
        assumeTrue(!capacity.isRendezvous());
        Channel<Integer> open = capacity.newChannel();
        Channel<Integer> done = capacity.newChannel();
        int n = Math.min(capacity.fillableWithoutReceiver(), 20);
        for (int i = 0; i < n; i++) {
            done.send(i);
        }
        done.done();
        for (int i = 0; i < n; i++) {
            Object r = switch (i % 3) {
                case 0 -> Select.selectOrClosed(open.receiveClause(), done.receiveClause());
                case 1 -> Select.select(done.receiveClause(), open.receiveClause(), Select.defaultClause(-1));
                default -> Select.selectUnbiased(open.receiveClause(), done.receiveClause());
            };
            assertEquals(i, r);
        }
        assertEquals(new ChannelDone(done), Select.selectOrClosed(open.receiveClause(), done.receiveClause()));
        assertFresh(open, capacity, "the open channel");
    }

    /** Rendezvous senders that were waiting at done() are still received by a select. */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void doneRendezvousChannelDeliversItsWaitingSendersToSelect(ThreadKind kind) throws Exception {
        Channel<Integer> open = Channel.newRendezvousChannel();
        Channel<Integer> done = Channel.newRendezvousChannel();
        Forked<Void> s1 = Forked.run(kind, () -> done.send(1)).awaitBlocked();
        Forked<Void> s2 = Forked.run(kind, () -> done.send(2)).awaitBlocked();
        done.done();
        assertEquals(1, Select.select(open.receiveClause(), done.receiveClause()));
        assertEquals(2, Select.selectOrClosed(done.receiveClause(), open.receiveClause()));
        s1.get();
        s2.get();
        assertEquals(new ChannelDone(done), Select.selectOrClosed(open.receiveClause(), done.receiveClause()));
        assertFresh(open, Capacity.RENDEZVOUS, "the open channel");
    }

    @ParameterizedTest
    @EnumSource(Capacity.class)
    void sendClauseOnADoneChannelGivesChannelDone(Capacity capacity) throws Exception {
        Channel<Integer> open = capacity.newChannel();
        Channel<Integer> done = capacity.newChannel();
        if (!capacity.isRendezvous()) {
            done.send(-1);
        }
        done.done();
        ChannelDone expected = new ChannelDone(done);
        for (OrClosedForm form : OrClosedForm.values()) {
            assertEquals(expected, form.call(done.sendClause(1), open.receiveClause()), form.toString());
            assertEquals(expected, form.call(open.receiveClause(), done.sendClause(2, () -> "x")), form.toString());
            assertEquals(expected, form.call(open.receiveClause(), done.sendClause(3), Select.defaultClause("d")));
        }
        for (ThrowingForm form : ThrowingForm.values()) {
            assertThrows(ChannelDoneException.class, () -> form.call(open.receiveClause(), done.sendClause(4)));
        }
        if (!capacity.isRendezvous()) {
            assertEquals(-1, done.receive());
        }
        assertEquals(expected, done.receiveOrClosed(), "a send clause delivered to a done channel");
        assertFresh(open, capacity, "the open channel");
    }

    // ---------------------------------------------------------------- closed while the select waits

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void doneOnAReceiveClauseChannelWakesTheWaitingSelect(Capacity capacity, ThreadKind kind) throws Exception {
        for (OrClosedForm form : OrClosedForm.values()) {
            Channel<Integer> a = capacity.newChannel();
            Channel<Integer> b = capacity.newChannel();
            Forked<Object> selector = Forked.start(kind, () -> form.call(a.receiveClause(), b.receiveClause()))
                    .awaitBlocked();
            b.done();
            assertEquals(new ChannelDone(b), selector.get(), form.toString());
            assertFresh(a, capacity, "a, " + form);
        }
        for (ThrowingForm form : ThrowingForm.values()) {
            Channel<Integer> a = capacity.newChannel();
            Channel<Integer> b = capacity.newChannel();
            Forked<Object> selector = Forked.start(kind, () -> form.call(a.receiveClause(), b.receiveClause()))
                    .awaitBlocked();
            a.done();
            assertInstanceOf(ChannelDoneException.class, selector.failure(), form.toString());
            assertFresh(b, capacity, "b, " + form);
        }
    }

    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void errorWakesTheWaitingSelect(Capacity capacity, ThreadKind kind) throws Exception {
        RuntimeException boom = new RuntimeException("boom");
        for (OrClosedForm form : OrClosedForm.values()) {
            Channel<Integer> a = capacity.newChannel();
            Channel<Integer> b = capacity.newChannel();
            Forked<Object> selector = Forked.start(kind, () -> form.call(a.receiveClause(), b.receiveClause()))
                    .awaitBlocked();
            a.error(boom);
            assertEquals(new ChannelError(boom, a), selector.get(), form.toString());
            assertFresh(b, capacity, "b, " + form);
        }
        for (ThrowingForm form : ThrowingForm.values()) {
            Channel<Integer> a = capacity.newChannel();
            Channel<Integer> b = capacity.newChannel();
            Forked<Object> selector = Forked.start(kind, () -> form.call(a.receiveClause(), b.receiveClause()))
                    .awaitBlocked();
            b.error(boom);
            assertSame(boom, assertInstanceOf(ChannelErrorException.class, selector.failure(), form.toString()).getCause());
            assertFresh(a, capacity, "a, " + form);
        }
    }

    /** A select waiting with a send clause (rendezvous, full buffer) is woken by error. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void errorWakesASelectWaitingToSend(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(capacity.isBounded());
        RuntimeException boom = new RuntimeException("boom");
        Channel<Integer> in = capacity.newChannel();
        Channel<Integer> out = capacity.newChannel();
        fill(out, capacity);
        Forked<Object> selector = Forked.start(kind, () -> Select.selectOrClosed(in.receiveClause(), out.sendClause(7)))
                .awaitBlocked();
        out.error(boom);
        assertEquals(new ChannelError(boom, out), selector.get());
        assertEquals(new ChannelError(boom, out), out.receiveOrClosed());
        assertFresh(in, capacity, "in");
    }

    /**
     * done() on the channel of a waiting send clause: like a plain sender that waited before
     * done(), the select's value is still received, and the select completes normally.
     */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void selectWaitingToSendAtDoneIsStillReceived(Capacity capacity, ThreadKind kind) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> in = capacity.newChannel();
        Channel<Integer> out = capacity.newChannel();
        fill(out, capacity);
        Forked<Object> selector = Forked.start(kind, () -> Select.selectOrClosed(in.receiveClause(v -> "received"),
                out.sendClause(7, () -> "sent"))).awaitBlocked();
        out.done();
        List<Integer> got = new ArrayList<>();
        while (true) {
            Object r = out.receiveOrClosed();
            if (r instanceof ChannelDone) {
                break;
            }
            got.add((Integer) r);
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < capacity.buffer(); i++) {
            expected.add(i);
        }
        expected.add(7);
        assertEquals(expected, got);
        assertEquals("sent", selector.get());
        assertFresh(in, capacity, "in");
    }

    /**
     * done() on the channel of a waiting send clause, then the select completes on its other
     * clause: the withdrawn value is not received, and the done channel reports ChannelDone.
     */
    @ParameterizedTest
    @EnumSource(Capacity.class)
    void selectWaitingToSendAtDoneThatCompletesElsewhereDeliversNothing(Capacity capacity) throws Exception {
        assumeTrue(capacity.isBounded());
        Channel<Integer> in = capacity.newChannel();
        Channel<Integer> out = capacity.newChannel();
        fill(out, capacity);
        Forked<Object> selector = Forked.virtual(() -> Select.selectOrClosed(in.receiveClause(v -> "received " + v),
                out.sendClause(7, () -> "sent"))).awaitBlocked();
        out.done();
        in.send(3);
        assertEquals("received 3", selector.get());
        drainFilled(out, capacity);
        assertEquals(new ChannelDone(out), out.receiveOrClosed());
        assertEquals(new ChannelDone(out), out.tryReceiveOrClosed());
        assertTrue(out.isClosedForReceive());
        assertFresh(in, capacity, "in");
    }

    /** Many selects waiting on the same channels are all woken by one close, each with ChannelDone. */
    @ParameterizedTest
    @MethodSource("capacitiesAndThreads")
    void closeWakesEveryWaitingSelect(Capacity capacity, ThreadKind kind) throws Exception {
        Channel<Integer> a = capacity.newChannel();
        Channel<Integer> b = capacity.newChannel();
        List<Forked<Object>> selectors = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            boolean aFirst = i % 2 == 0;
            selectors.add(Forked.start(kind, () -> aFirst
                    ? Select.selectOrClosed(a.receiveClause(), b.receiveClause())
                    : Select.selectUnbiasedOrClosed(b.receiveClause(), a.receiveClause())).awaitBlocked());
        }
        a.done();
        for (Forked<Object> s : selectors) {
            assertEquals(new ChannelDone(a), s.get());
        }
        assertFresh(b, capacity, "b");
    }

    /** A select that was closed out leaves the other channels usable and its value not consumed. */
    @Test
    void closedSelectConsumesNothingFromTheOtherClauses() throws Exception {
        Channel<Integer> a = Channel.newBufferedChannel(1);
        Channel<Integer> b = Channel.newRendezvousChannel();
        Forked<Object> selector = Forked.virtual(() -> Select.selectOrClosed(b.receiveClause(), a.sendClause(5)));
        assertEquals(5, a.receive()); // a has room: the send clause completes right away
        assertNull(selector.get());
        a.send(1); // now a is full
        Forked<Object> waiting = Forked.virtual(() -> Select.selectOrClosed(b.receiveClause(), a.sendClause(6)))
                .awaitBlocked();
        b.done();
        assertEquals(new ChannelDone(b), waiting.get());
        assertEquals(1, a.receive());
        assertNull(a.tryReceive(), "the send clause of a select closed out by b delivered its value");
    }
}
