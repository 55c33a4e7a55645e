package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Unit tests of the spin policy ({@link Waiting.Spin}) and of waiting in a cell. */
@Timeout(30)
class SpinPolicyTest {

    @Test
    void aWaitThatTheSpinSatisfiedGrowsTheBudgetUpToTheCeiling() throws Exception {
        Waiting.Spin spin = new Waiting.Spin();
        Thread me = Thread.currentThread(); // a platform thread: starts at 128
        assertFalse(me.isVirtual());
        assertEquals(128, spin.budget(me));
        spin.record(me, true, 10);
        assertEquals(128 * 2 + 8, spin.budget(me));
        for (int n = 0; n < 20; n++) {
            spin.record(me, true, 0);
        }
        assertEquals(Waiting.PLATFORM_SPINS, spin.budget(me));
    }

    @Test
    void aWaitThatHadToParkHalvesTheBudgetAndZeroIsProbedAgainSometimes() {
        Waiting.Spin spin = new Waiting.Spin();
        Thread me = Thread.currentThread();
        spin.record(me, false, 128);
        assertEquals(64, spin.budget(me));
        for (int n = 0; n < 10; n++) {
            spin.record(me, false, 0);
        }
        int probes = 0;
        for (int n = 0; n < 10_000; n++) {
            int b = spin.budget(me);
            assertTrue(b == 0 || b == 32, "budget " + b);
            probes += b == 32 ? 1 : 0;
        }
        assertTrue(probes > 0 && probes < 10_000, "a zero budget is probed on some waits only: " + probes);
    }

    @Test
    void virtualAndPlatformThreadsHaveSeparateBudgets() throws Exception {
        Waiting.Spin spin = new Waiting.Spin();
        spin.record(Thread.currentThread(), false, 0);
        int virtualBudget = CompletableFuture.supplyAsync(
                        () -> spin.budget(Thread.currentThread()),
                        r -> Thread.ofVirtual().start(r))
                .get(10, TimeUnit.SECONDS);
        assertEquals(32, virtualBudget);
        assertEquals(64, spin.budget(Thread.currentThread()));
    }

    @Test
    void backoffCountsItsSteps() {
        int step = 0;
        for (int n = 0; n < 100; n++) {
            step = Waiting.backoff(step); // spins first, then yields; never blocks
        }
        assertEquals(100, step);
    }

    @Test
    void aPlainWaitReturnsTheStateThatReplacedTheWaiter() throws Exception {
        Segment seg = new Segment(0, null, 0);
        Thread me = Thread.currentThread();
        assertTrue(seg.casState(0, null, me));
        Thread partner = Thread.ofPlatform().start(() -> {
            sleep(50);
            seg.casState(0, me, Cells.State.DONE);
            java.util.concurrent.locks.LockSupport.unpark(me);
        });
        assertSame(Cells.State.DONE, Waiting.spinThenPark(seg, 0, me, null, 0L, new Waiting.Spin(), this));
        partner.join();
    }

    @Test
    void aPlainWaitReportsTimeoutAndInterruptAndLeavesTheCellToTheCaller() {
        Segment seg = new Segment(0, null, 0);
        Thread me = Thread.currentThread();
        assertTrue(seg.casState(0, null, me));
        long deadline = Waiting.deadline(TimeUnit.MILLISECONDS.toNanos(20));
        assertSame(Result.TIMED_OUT, Waiting.spinThenPark(seg, 0, me, null, deadline, new Waiting.Spin(), this));
        me.interrupt();
        assertSame(Result.INTERRUPTED, Waiting.spinThenPark(seg, 0, me, null, 0L, new Waiting.Spin(), this));
        assertFalse(Thread.interrupted(), "the flag is cleared when reported");
        assertSame(me, seg.lvState(0), "the caller withdraws, not the wait loop");
    }

    @Test
    void aSelectWaitEndsOnATerminalStateOrAReregistrationRequest() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        SelectOp op = new SelectOp(new Object[] {ch.receiveClause(), null}, 1);
        Thread me = Thread.currentThread();
        op.svState(SelectOp.WAITING);
        Thread partner = Thread.ofPlatform().start(() -> {
            sleep(50);
            op.requestReregistration();
        });
        assertSame(SelectOp.WAITING, Waiting.spinThenPark(null, 0, me, op, 0L, new Waiting.Spin(), op));
        partner.join();
        assertTrue(op.takeReregisterRequest());
        partner = Thread.ofPlatform().start(() -> {
            sleep(50);
            op.casState(SelectOp.WAITING, SelectOp.selected(0));
            op.wake();
        });
        assertSame(SelectOp.selected(0), Waiting.spinThenPark(null, 0, me, op, 0L, new Waiting.Spin(), op));
        partner.join();
    }

    @Test
    void aWrappedWaiterIsStillHeld() {
        Thread me = Thread.currentThread();
        assertTrue(Cells.holds(me, me));
        assertTrue(Cells.holds(new Cells.WaiterEB(me), me));
        assertFalse(Cells.holds(Cells.State.DONE, me));
        assertTrue(Cells.isWaiter(new Cells.WaiterEB(me)));
        assertFalse(Cells.isWaiter(null));
        assertFalse(Cells.isWaiter(Cells.State.CLAIMED));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
