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
    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(2);

    @Test
    void aWaiterWhosePartnerCameBeforeItsParkReturnsWithoutThePermit() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Segment seg = new Segment(0, null, 0);
        Object[] out = new Object[2];
        Thread waiter = Thread.ofVirtual().unstarted(() -> {
            Thread me = Thread.currentThread();
            assertTrue(seg.casState(0, null, me), "install");
            // the partner completes the cell and unparks the waiter ...
            assertTrue(seg.casState(0, me, Cells.State.DONE));
            LockSupport.unpark(me);
            // ... and something else the waiter parks on consumes that permit
            LockSupport.parkNanos(1L);
            long t0 = System.nanoTime();
            out[0] = Waiting.spinThenPark(seg, 0, me, null, Waiting.deadline(PATIENCE_NANOS), ch.spin, ch, true);
            out[1] = System.nanoTime() - t0;
        });
        waiter.start();
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(waiter.isAlive());
        assertSame(Cells.State.DONE, out[0], "the wait ended with " + out[0] + " after "
                + TimeUnit.NANOSECONDS.toMillis((Long) out[1]) + " ms");
        assertTrue((Long) out[1] < PATIENCE_NANOS / 2, "the waiter parked although its cell was DONE");
    }

    @Test
    void aSelectCompletedBeforeItsOwnerParksReturnsWithoutThePermit() throws Exception {
        Channel<Integer> ch = Channel.newRendezvousChannel();
        Object[] out = new Object[2];
        Thread owner = Thread.ofVirtual().unstarted(() -> {
            Thread me = Thread.currentThread();
            SelectOp op = new SelectOp(ch.receiveClause(), null);
            op.svState(SelectOp.WAITING); // registered (nowhere: no partner needs to find it) and waiting
            assertTrue(op.casState(SelectOp.WAITING, SelectOp.selected(0)), "a partner completes the select");
            LockSupport.unpark(me);
            LockSupport.parkNanos(1L); // the permit is consumed elsewhere
            long t0 = System.nanoTime();
            out[0] = Waiting.spinThenPark(null, 0, me, op, Waiting.deadline(PATIENCE_NANOS), ch.spin, op, true);
            out[1] = System.nanoTime() - t0;
        });
        owner.start();
        owner.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(owner.isAlive());
        assertTrue(SelectOp.isTerminal(out[0]), "the wait ended with " + out[0]);
        assertTrue((Long) out[1] < PATIENCE_NANOS / 2, "the owner parked although its select was complete");
    }
}
