package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A select whose earlier clause was refused before that clause's channel was closed must not
 * complete a later clause with a value that arrived only after the close returned (the close rule
 * of {@link Select} and {@link CloseableChannel}).
 *
 * <p>B = {@code selectOrClosed(x.receive, y.receive)} on rendezvous channels registers its receive
 * in x and is held (fault probe {@code SELECT_REGISTERED}) before registering y. While B is held,
 * another operation meets B's registration in x and refuses it (kills the cell and asks B to
 * register again): a {@code trySend}, or a registering select with a larger id. Then {@code
 * x.done()} runs: B's killed cell lies below the close's sweep, so the close does not meet B and
 * returns at once. Only then does S start {@code y.send("v")} and park. B is released and must
 * report x's {@link ChannelDone}. On 923d28e B registered y next, completed with S and returned
 * "v" (both thread kinds, both refusers), found by helper 22's repro of a review finding; now a
 * select registers its refused clauses again before it registers the next one.
 *
 * <p>{@link #waitingSelectSendRefusesThenStaysInX} is the variant with a plain {@code
 * select(x.send("t"))}: its send stays registered in x (a done close leaves pending senders), so x
 * is not closed for receiving and the rule does not apply; B may return "t" or "v" (the documented
 * limit of the bias), and then the other value is still in its channel.
 */
@Timeout(120)
class SelectRefusedClauseVsCloseTest {
    @AfterEach
    void probesOff() {
        Faults.probe = null;
    }

    /** Step 2 is {@code x.trySend("t")} on the test thread. */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void trySendRefusesThenCloseThenLaterSend(ThreadKind kind) throws Exception {
        Scenario sc = new Scenario(kind);
        sc.startAndHoldB();
        boolean sent = sc.x.trySend("t");
        sc.log.append("x.trySend(\"t\") = ").append(sent).append("; ");
        assertFalse(sent, "trySend found B's registration and delivered to it");
        sc.closeXThenSendOnYThenReleaseB();
        sc.assertBReportsXsClose();
    }

    /**
     * Step 2 is {@code selectWithin(ZERO, z.receive, x.send("t"))} on a thread created after B
     * (larger id): as a registering select with a larger id, it refuses B's registration in x
     * (SelectMeeting.meetSelect, self != null), installs its own send in the next cell, times out
     * and withdraws it, so x holds nothing when it is closed.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void registeringLargerSelectRefusesThenCloseThenLaterSend(ThreadKind kind) throws Exception {
        Scenario sc = new Scenario(kind);
        Channel<String> z = Channel.newRendezvousChannel();
        Object[] aOut = new Object[1];
        Thread a = kind.builder().unstarted(() -> {
            try {
                aOut[0] = Select.selectWithin(Duration.ZERO, z.receiveClause(), sc.x.sendClause("t"));
            } catch (Throwable t) {
                aOut[0] = t;
            }
        });
        assertTrue(a.threadId() > sc.b.threadId(), "A must have the larger id");
        sc.startAndHoldB();
        a.start();
        a.join(20_000);
        assertFalse(a.isAlive(), "A did not finish while B was held");
        sc.log.append("A = ").append(aOut[0]).append("; ");
        assertInstanceOf(TimeoutException.class, aOut[0], "A met no receiver and timed out");
        sc.closeXThenSendOnYThenReleaseB();
        sc.assertBReportsXsClose();
    }

    /** The literal variant: {@code select(x.send("t"))} on a thread created after B. */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void waitingSelectSendRefusesThenStaysInX(ThreadKind kind) throws Exception {
        Scenario sc = new Scenario(kind);
        Object[] aOut = new Object[1];
        Thread a = kind.builder().unstarted(() -> {
            try {
                aOut[0] = Select.select(sc.x.sendClause("t", () -> "A sent"));
            } catch (Throwable t) {
                aOut[0] = t;
            }
        });
        assertTrue(a.threadId() > sc.b.threadId(), "A must have the larger id");
        sc.startAndHoldB();
        a.start();
        awaitWaiting(a, "SelectRegistration.await");
        sc.closeXThenSendOnYThenReleaseB();
        Object got = sc.bOut;
        sc.log.append("B = ").append(got).append("; ");
        if ("v".equals(got)) {
            String rest = sc.x.tryReceive();
            sc.log.append("then x.tryReceive() = ").append(rest).append("; ");
            assertEquals("t", rest, "A's value was lost: " + sc.log);
        } else {
            assertEquals("t", got, "B must take A's value or S's: " + sc.log);
            assertEquals("v", sc.y.tryReceive(), "S's value must still be in y: " + sc.log);
        }
        a.join(20_000);
        assertEquals("A sent", aOut[0], "A's send did not complete: " + sc.log);
        sc.finish();
        System.out.println("[refused vs close] waitingSelect " + kind + ": " + sc.log);
    }

    // ---------------------------------------------------------------------------------------------

    private static final class Scenario {
        final ThreadKind kind;
        final Channel<String> x = Channel.newRendezvousChannel();
        final Channel<String> y = Channel.newRendezvousChannel();
        final CountDownLatch registered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final StringBuilder log = new StringBuilder();
        final Thread b;
        volatile Object bOut;
        Thread s;
        volatile Object sOut = "not finished";

        Scenario(ThreadKind kind) {
            assumeTrue(Faults.ENABLED, "run with -Dweft.faults=true");
            this.kind = kind;
            b = kind.builder().unstarted(() -> {
                try {
                    bOut = Select.selectOrClosed(x.receiveClause(), y.receiveClause());
                } catch (Throwable t) {
                    bOut = t;
                }
            });
            Gate.holdFirstArrival(Faults.SELECT_REGISTERED, b, registered, release);
        }

        void startAndHoldB() throws InterruptedException {
            b.start();
            assertTrue(registered.await(20, TimeUnit.SECONDS), "B did not register its x clause");
        }

        /** Steps 3 to 5: close x, then S sends on y and parks, then B goes on. */
        void closeXThenSendOnYThenReleaseB() throws InterruptedException {
            AtomicBoolean doneReturned = new AtomicBoolean();
            // a watchdog so that a close that waits for B cannot hang the test
            Thread watchdog = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(10_000);
                } catch (InterruptedException e) {
                    return;
                }
                if (!doneReturned.get()) {
                    release.countDown();
                }
            });
            long t0 = System.nanoTime();
            x.done();
            doneReturned.set(true);
            watchdog.interrupt();
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            log.append("x.done() returned after ").append(ms).append(" ms; ");
            assertEquals(1, release.getCount(), "x.done() waited for B (watchdog released B): " + log);
            s = kind.builder().start(() -> {
                try {
                    y.send("v");
                    sOut = "sent";
                } catch (Throwable t) {
                    sOut = t;
                }
            });
            awaitWaiting(s, null);
            log.append("S parked in y.send(\"v\"); ");
            release.countDown();
            b.join(20_000);
            assertFalse(b.isAlive(), "B did not finish");
        }

        void assertBReportsXsClose() throws InterruptedException {
            Object got = bOut;
            log.append("B = ").append(got).append("; ");
            // cleanup before asserting: S must not be left parked
            String left = y.tryReceive();
            log.append("then y.tryReceive() = ").append(left).append("; ");
            finish();
            System.out.println("[refused vs close] " + kind + ": " + log);
            assertInstanceOf(ChannelDone.class, got,
                    "x was closed (done, no value pending) before S's send on y started, so B must "
                            + "report x's close, but: " + log);
        }

        void finish() throws InterruptedException {
            if (s != null) {
                s.join(20_000);
                assertFalse(s.isAlive(), "S still parked");
            }
        }
    }

    /** Polls until {@code t} is WAITING (and, if given, inside {@code frame}). */
    private static void awaitWaiting(Thread t, String frame) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!(t.getState() == Thread.State.WAITING
                && (frame == null || Forked.stack(t).contains(frame)))) {
            if (!t.isAlive()) {
                fail("thread finished instead of parking");
            }
            if (System.nanoTime() - deadline > 0) {
                fail("thread did not park:\n" + Forked.stack(t));
            }
            Thread.sleep(1);
        }
        Thread.sleep(20); // let it settle in its park
        assertEquals(Thread.State.WAITING, t.getState());
    }
}
