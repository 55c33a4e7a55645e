package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Unit tests of a select's state machine ({@link SelectOp}) on its own: the states, who may move
 * it where, the re-registration request and the lock-waiter stack.
 */
@Timeout(30)
class SelectOpStateTest {
    private final Channel<Integer> a = new Channel<>();
    private final Channel<Integer> b = new Channel<>(1);

    private SelectOp newOp() {
        return new SelectOp(new Object[] {a.receiveClause(), b.sendClause(1), null, null}, 2);
    }

    @Test
    void aNewSelectIsLockedByItsOwner() {
        SelectOp op = newOp();
        assertSame(SelectOp.LOCKED, op.lvState());
        assertSame(Thread.currentThread(), op.owner);
        assertEquals(Thread.currentThread().threadId(), op.id());
        assertTrue(SelectOp.isLocked(op.lvState()));
        assertFalse(SelectOp.isTerminal(op.lvState()));
    }

    /**
     * The cell indices of one or two clauses live in fields and from three clauses on in an
     * array; each clause keeps its own cell and registration flag, and the clause count comes
     * from the slots, which must be exactly 2n.
     */
    @Test
    void eachClauseKeepsItsOwnCellForOneTwoAndThreeClauses() {
        Channel<Integer> c = new Channel<>(2);
        Segment seg = new Segment(0, null, 2);
        for (int n = 1; n <= 3; n++) {
            Object[] slots = new Object[2 * n];
            Channel<?>[] chs = {a, b, c};
            for (int k = 0; k < n; k++) {
                slots[k] = chs[k].receiveClause();
            }
            SelectOp op = new SelectOp(slots, n);
            assertEquals(n, op.clauseCount());
            for (int k = 0; k < n; k++) {
                op.recordCell(k, seg, 10 + k);
                op.setRegistered(k, k % 2 == 0);
            }
            for (int k = 0; k < n; k++) {
                assertEquals(10 + k, op.index(k), "n=" + n + ", clause " + k);
                assertEquals(k % 2 == 0, op.isRegistered(k), "n=" + n + ", clause " + k);
                assertSame(seg, op.segment(k));
                assertEquals(k, op.clauseIndexOf(chs[k]));
            }
            int m = n;
            assertThrows(IllegalArgumentException.class, () -> new SelectOp(new Object[2 * m + 1], m));
        }
    }

    @Test
    void theStatesAreClassifiedAsLockedOrTerminal() {
        SelectOp other = newOp();
        SelectOp.Pending p = new SelectOp.Pending(other, 0, 0, new Segment(0, null, 0), 0);
        assertTrue(SelectOp.isLocked(p));
        assertFalse(SelectOp.isTerminal(p));
        assertFalse(SelectOp.isLocked(SelectOp.WAITING));
        assertFalse(SelectOp.isTerminal(SelectOp.WAITING));
        assertTrue(SelectOp.isTerminal(SelectOp.selected(1)));
        assertTrue(SelectOp.isTerminal(new SelectOp.ClosedSel(0, null)));
        assertTrue(SelectOp.isTerminal(SelectOp.CANCELLED));
    }

    @Test
    void exactlyOnePartnerCompletesAWaitingSelect() {
        SelectOp op = newOp();
        op.svState(SelectOp.WAITING);
        assertTrue(op.casState(SelectOp.WAITING, SelectOp.selected(0)));
        assertFalse(op.casState(SelectOp.WAITING, SelectOp.selected(1)), "a second partner loses");
        assertFalse(op.casState(SelectOp.WAITING, SelectOp.CANCELLED), "the owner's cancel loses");
        assertEquals(new SelectOp.Selected(0), op.lvState());
    }

    @Test
    void selectedOutcomesAreSharedForSmallClauseNumbers() {
        assertSame(SelectOp.selected(3), SelectOp.selected(3));
        assertNotSame(SelectOp.selected(64), SelectOp.selected(64));
        assertEquals(64, SelectOp.selected(64).k());
    }

    @Test
    void aSelectRecordsTheCellOfEachClause() {
        SelectOp op = newOp();
        Segment seg = new Segment(7, null, 0);
        assertSame(op, op.recordCell(1, seg, 3));
        assertSame(seg, op.segment(1));
        assertEquals(3, op.index(1));
        assertEquals(0, op.clauseIndexOf(a));
        assertEquals(1, op.clauseIndexOf(b));
        assertThrows(IllegalStateException.class, () -> op.clauseIndexOf(new Channel<Integer>()));
    }

    @Test
    void aReregistrationRequestIsTakenOnce() {
        SelectOp op = newOp();
        assertFalse(op.takeReregisterRequest());
        op.requestReregistration();
        assertTrue(op.takeReregisterRequest());
        assertFalse(op.takeReregisterRequest());
    }

    @Test
    void leavingTheLockedStatesWakesTheSelectsWaitingForIt() throws Exception {
        SelectOp op = newOp();
        Thread waiter = Thread.ofPlatform().daemon(true).start(() -> {
            op.pushLockWaiter(Thread.currentThread());
            while (SelectOp.isLocked(op.lvState())) {
                LockSupport.park(this);
            }
        });
        while (waiter.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
        op.svState(SelectOp.WAITING); // the owner stops registering: drains the stack
        waiter.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(waiter.isAlive(), "the lock waiter was unparked");
    }
}
