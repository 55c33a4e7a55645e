package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A close that meets the registration of a select that is still registering its other clauses
 * must not let a clause that completes later in that registration win over the closed one: the
 * select is biased, and the close happened first (issue 8; jcstress {@code
 * SelectVsCloseThenSend}, outcome {@code 2, 1, 0, 0}).
 *
 * <p>The select receives from rendezvous channels {@code a} and {@code b}. It is held right after
 * it claimed its cell in {@code b} (it registered on {@code a} already). Meanwhile another thread
 * closes {@code a} (done) and then calls {@code b.trySend(2)}. Before the fix the close refused
 * the registration on {@code a} and returned at once, {@code trySend} then put 2 into the cell
 * the select had claimed, and the select returned 2 although {@code a} was closed before 2 was
 * sent. Now the close waits (parked) until the select has registered, completes it with {@code
 * a}'s close, and the later {@code trySend} finds no receiver.
 */
@Timeout(120)
class CloseMeetsRegisteringSelectTest {
    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void closeBeforeALaterSendWinsOverThatSend(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> a = Channel.newRendezvousChannel();
        Channel<Integer> b = Channel.newRendezvousChannel();
        Object[] other = new Object[2];
        Object selected = selectHeldInB(kind, a, b, () -> {
            other[0] = a.doneOrClosed();
            other[1] = b.trySend(2);
        });
        assertNull(other[0], "a was closed already");
        assertTrue(closerStack.isEmpty() || closerStack.contains("awaitNotRegistering"),
                () -> "the closing thread waited somewhere else:\n" + closerStack);
        assertInstanceOf(ChannelDone.class, selected,
                "a was closed before 2 was sent, so the biased select must report a's close");
        assertEquals(false, other[1], "trySend(2) found a receiver although the select completed");
        assertNull(b.tryReceive(), "a value was left in b");
    }

    /** The same for {@code error()}: the select reports {@code a}'s error, not the later value. */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void errorBeforeALaterSendWinsOverThatSend(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> a = Channel.newRendezvousChannel();
        Channel<Integer> b = Channel.newRendezvousChannel();
        RuntimeException boom = new RuntimeException("boom");
        Object[] other = new Object[2];
        Object selected = selectHeldInB(kind, a, b, () -> {
            other[0] = a.errorOrClosed(boom);
            other[1] = b.trySend(2);
        });
        assertNull(other[0], "a was closed already");
        assertInstanceOf(ChannelError.class, selected, "a's error came before 2 was sent");
        assertEquals(boom, ((ChannelError) selected).cause());
        assertEquals(false, other[1], "trySend(2) found a receiver although the select completed");
        assertNull(b.tryReceive(), "a value was left in b");
    }

    /**
     * A closing thread that is interrupted while it waits for the registering select keeps
     * waiting parked (the close is not interruptible, and it must not spin on the set flag:
     * {@code park} returns at once while the flag is set), completes the select, and returns with
     * its interrupt flag set again.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void anInterruptedCloserKeepsWaitingParkedAndKeepsItsFlag(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> a = Channel.newRendezvousChannel();
        Channel<Integer> b = Channel.newRendezvousChannel();
        Object[] other = new Object[2];
        Thread.State[] afterInterrupt = new Thread.State[1];
        Object selected = selectHeldInB(kind, a, b, () -> {
            other[0] = a.doneOrClosed();
            other[1] = Thread.currentThread().isInterrupted();
        }, closer -> {
            closer.interrupt();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            afterInterrupt[0] = closer.getState();
        });
        assertTrue(closerStack.contains("awaitNotRegistering"), () -> "the close did not wait:\n" + closerStack);
        assertEquals(Thread.State.WAITING, afterInterrupt[0], "the interrupted close stopped waiting parked");
        assertNull(other[0], "a was closed already");
        assertEquals(true, other[1], "the close lost its caller's interrupt flag");
        assertInstanceOf(ChannelDone.class, selected, "the close did not complete the select");
    }

    /**
     * The documented limit of the bias (see {@link Select}): a value that reaches {@code a} while
     * the select registers {@code b} does not wait for the select, so the select may take the
     * later value from {@code b}; the earlier value then stays in {@code a}, and nothing is lost
     * or received twice.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aValueSentDuringRegistrationMayLoseButStaysInItsChannel(ThreadKind kind) throws Exception {
        assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
        Channel<Integer> a = Channel.newBufferedChannel(1);
        Channel<Integer> b = Channel.newRendezvousChannel();
        boolean[] sent = new boolean[2];
        Object selected = selectHeldInB(kind, a, b, () -> {
            sent[0] = a.trySend(1);
            sent[1] = b.trySend(2);
        });
        assertTrue(sent[0], "a has room for 1");
        if (selected.equals(2)) {
            assertTrue(sent[1]);
            assertEquals(1, a.tryReceive(), "1 was lost");
        } else {
            assertEquals(1, selected);
            assertEquals(sent[1] ? 2 : null, b.tryReceive());
            assertNull(a.tryReceive(), "1 was received twice");
        }
    }

    /**
     * Runs {@code selectOrClosed(a.receiveClause(), b.receiveClause())} and, when the select has
     * claimed its cell in {@code b} (after registering on {@code a}), starts {@code other} on
     * another thread and holds the select until that thread has parked or finished. Returns what
     * the select returned.
     */
    private Object selectHeldInB(ThreadKind kind, Channel<Integer> a, Channel<Integer> b, Runnable other)
            throws InterruptedException {
        return selectHeldInB(kind, a, b, other, t -> {});
    }

    /** As above; {@code whileParked} runs with the other thread once it has parked (if it did). */
    private Object selectHeldInB(ThreadKind kind, Channel<Integer> a, Channel<Integer> b, Runnable other,
            Consumer<Thread> whileParked) throws InterruptedException {
        Object[] selected = new Object[1];
        Thread selector = kind.builder().unstarted(() -> {
            try {
                selected[0] = Select.selectOrClosed(a.receiveClause(), b.receiveClause());
            } catch (Throwable t) {
                selected[0] = t;
            }
        });
        Thread otherThread = kind.builder().unstarted(other);
        AtomicInteger claims = new AtomicInteger();
        Faults.probe = point -> {
            // the selector's second claim is its cell in b, after its registration on a
            if (point.equals(Faults.RECEIVE_CLAIMED) && Thread.currentThread() == selector
                    && claims.incrementAndGet() == 2) {
                otherThread.start();
                closerStack = awaitParkedOrDone(otherThread);
                if (!closerStack.isEmpty()) {
                    whileParked.accept(otherThread);
                }
            }
        };
        selector.start();
        selector.join(TimeUnit.SECONDS.toMillis(60));
        otherThread.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(selector.isAlive() || otherThread.isAlive(), "the threads did not finish");
        assertEquals(2, claims.get(), "the select did not claim a cell in each channel");
        assertFalse(selected[0] instanceof Throwable, () -> "the select threw " + selected[0]);
        return selected[0];
    }

    private volatile String closerStack = "";

    /**
     * Waits until {@code t} parks (the close waiting for the select) or finishes; returns its
     * stack while parked, or an empty string.
     */
    private static String awaitParkedOrDone(Thread t) {
        return Forked.awaitBlockedOrDone(t) && t.isAlive() ? Forked.stack(t) : "";
    }
}
