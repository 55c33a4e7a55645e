package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The park loop of {@link Waiting#spinThenPark} reads the watched state before every park, the
 * first one included: a waiter must not depend on its partner's unpark permit still being there.
 * A virtual waiter that parks at once (park-at-once mode, or a spin budget of 0) reads nothing
 * between installing itself and that first park; if its partner completed the cell meanwhile and
 * the unpark permit was consumed by anything else the thread parked on (a lock, a probe), only
 * the re-check keeps the wake-up from being lost. White-box: no production path consumes the
 * permit in that gap today, so no black-box test can see the difference (mutation survey m13:
 * the re-check before the first park removed survived the whole suite, default and tiny
 * segments; stop 35). With that mutation both cases fail (checked, then restored).
 */
@Timeout(30)
class ParkLoopRechecksBeforeParkingTest {
    /** How long the waiter may take to return; it parks for good if the re-check is missing. */
    private static final long PATIENCE_MILLIS = TimeUnit.SECONDS.toMillis(10);

    @Test
    void aWaiterWhosePartnerCameBeforeItsParkReturnsWithoutThePermit() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Segment seg = new Segment(0, null, 0);
        Object[] out = new Object[2];
        Thread waiter = Thread.ofVirtual().unstarted(() -> {
            try {
                Thread me = Thread.currentThread();
                assertTrue(seg.casState(0, null, me), "install");
                // the partner completes the cell and unparks the waiter ...
                assertTrue(seg.casState(0, me, Cells.State.DONE));
                LockSupport.unpark(me);
                // ... and something else the waiter parks on consumes that permit
                LockSupport.parkNanos(1L);
                out[0] = Waiting.spinThenPark(seg, 0, me, null, 0L, ch.spin, ch, true); // no deadline
            } catch (Throwable t) {
                out[1] = t;
            }
        });
        assertReturns(waiter, out, "the waiter parked although its cell was DONE");
        assertSame(Cells.State.DONE, out[0], "the wait ended with " + out[0]);
    }

    @Test
    void aSelectCompletedBeforeItsOwnerParksReturnsWithoutThePermit() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Object[] out = new Object[2];
        Thread owner = Thread.ofVirtual().unstarted(() -> {
            try {
                Thread me = Thread.currentThread();
                SelectOp op = new SelectOp(ch.receiveClause(), null);
                op.svState(SelectOp.WAITING); // registered (nowhere: no partner needs to find it) and waiting
                assertTrue(op.casState(SelectOp.WAITING, SelectOp.selected(0)), "a partner completes the select");
                LockSupport.unpark(me);
                LockSupport.parkNanos(1L); // the permit is consumed elsewhere
                out[0] = Waiting.spinThenPark(null, 0, me, op, 0L, ch.spin, op, true); // no deadline
            } catch (Throwable t) {
                out[1] = t;
            }
        });
        assertReturns(owner, out, "the owner parked although its select was complete");
        assertTrue(SelectOp.isTerminal(out[0]), "the wait ended with " + out[0]);
    }

    /**
     * Starts {@code t} and expects it to finish within the patience; a thread still parked then is
     * unparked (its loop reads the state and returns) and the test fails with {@code parked}.
     */
    private static void assertReturns(Thread t, Object[] out, String parked) throws InterruptedException {
        t.start();
        t.join(PATIENCE_MILLIS);
        boolean stuck = t.isAlive();
        if (stuck) {
            LockSupport.unpark(t);
            t.join(PATIENCE_MILLIS);
        }
        if (out[1] != null) {
            throw new AssertionError("the waiting thread failed", (Throwable) out[1]);
        }
        assertFalse(stuck, parked);
        assertFalse(t.isAlive(), "the waiting thread did not finish");
    }
}
