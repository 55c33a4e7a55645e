package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
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
        return new SelectOp(a.receiveClause(), b.sendClause(1));
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
     * A select of one or two clauses built from its clauses keeps them, their segments and cell
     * entries (packed in one int) in fields; one built from an array keeps clauses, segments and cell
     * entries in an array after them. Either way each clause keeps its own clause, segment, cell
     * (the largest index a segment can have, too) and registration flag, and an array must be
     * exactly 2n + 1 long.
     */
    @Test
    void eachClauseKeepsItsOwnCellInEveryLayout() {
        Channel<Integer> c = new Channel<>(2);
        Channel<?>[] chs = {a, b, c};
        for (int n = 1; n <= 3; n++) {
            Object[] slots = new Object[2 * n + 1];
            for (int k = 0; k < n; k++) {
                slots[k] = chs[k].receiveClause();
            }
            checkClauses(new SelectOp(slots, n), n, chs, "array, n=" + n);
            if (n <= 2) {
                SelectOp fields = new SelectOp(
                        chs[0].receiveClause(), n == 2 ? chs[1].receiveClause() : null);
                checkClauses(fields, n, chs, "fields, n=" + n);
            }
            int m = n;
            assertThrows(IllegalArgumentException.class, () -> new SelectOp(new Object[2 * m], m));
            assertThrows(IllegalArgumentException.class, () -> new SelectOp(new Object[2 * m + 2], m));
        }
        assertThrows(IllegalArgumentException.class, () -> new SelectOp(null, a.receiveClause()));
    }

    private static void checkClauses(SelectOp op, int n, Channel<?>[] chs, String what) {
        assertEquals(n, op.clauseCount(), what);
        Segment[] segs = new Segment[n];
        // the largest index a segment can have (weft.segmentSize is at most 1024), 0, and the
        // largest an entry can hold, whatever this run's segment size
        int[] indices = {1023, 0, 0x3FFF};
        for (int round = 0; round < 2; round++) {
            boolean flip = round == 1; // rewrite every entry: no bits of the old one may stay
            for (int k = 0; k < n; k++) {
                segs[k] = new Segment(k, null, 2);
                int i = flip ? indices[(k + 1) % 3] : indices[k];
                assertSame(op, op.recordCell(k, segs[k], i));
                assertFalse(op.isRegistered(k), "a new cell is not registered yet");
                op.setRegistered(k, (k % 2 == 0) != flip);
            }
            for (int k = 0; k < n; k++) {
                int i = flip ? indices[(k + 1) % 3] : indices[k];
                assertSame(chs[k], op.clause(k).channel(), what + ", clause " + k);
                assertEquals(i, op.index(k), what + ", clause " + k);
                assertEquals((k % 2 == 0) != flip, op.isRegistered(k), what + ", clause " + k);
                assertSame(segs[k], op.segment(k), what + ", clause " + k);
                assertEquals(k, op.clauseIndexOf(chs[k]), what);
            }
        }
        op.setRegistered(0, true);
        op.setRegistered(0, false);
        assertEquals(indices[1], op.index(0), what + ": the flag leaves the index alone");
    }

    /**
     * A clause that completed during registration keeps the value it received where its cell's
     * segment was, even when that value is itself a segment; the other clauses keep their
     * segments, and every clause its cell index, in either layout. A new cell forgets the value.
     */
    @Test
    void aValueTakenDuringRegistrationReplacesOnlyItsOwnClausesSegment() {
        Channel<Integer> c = new Channel<>(2);
        for (int n = 1; n <= 3; n++) {
            for (boolean array : new boolean[] {false, true}) {
                if (!array && n == 3) {
                    continue;
                }
                for (int taker = 0; taker < n; taker++) {
                    for (Object value : new Object[] {"taken", new Segment(7, null, 2)}) {
                        SelectOp op = newOp(n, array, c);
                        checkValueTakenBy(op, taker, value, (array ? "array" : "fields") + ", n=" + n);
                    }
                }
            }
        }
    }

    private SelectOp newOp(int n, boolean array, Channel<Integer> c) {
        Channel<?>[] chs = {a, b, c};
        if (!array) {
            return new SelectOp(a.receiveClause(), n == 2 ? b.receiveClause() : null);
        }
        Object[] slots = new Object[2 * n + 1];
        for (int k = 0; k < n; k++) {
            slots[k] = chs[k].receiveClause();
        }
        return new SelectOp(slots, n);
    }

    private static void checkValueTakenBy(SelectOp op, int taker, Object value, String what) {
        int n = op.clauseCount();
        String by = what + ", taken by clause " + taker + ": clause ";
        Segment[] segs = new Segment[n];
        for (int k = 0; k < n; k++) {
            segs[k] = new Segment(k, null, 2);
            op.recordCell(k, segs[k], 0x3FFF - k); // the largest index an entry holds, and below
            op.setRegistered(k, k != taker); // the taker registered nowhere
            assertNull(op.valueTaken(k), by + k + " in a cell has taken no value");
        }
        op.recordValue(taker, value);
        assertSame(value, op.valueTaken(taker), by + taker);
        for (int k = 0; k < n; k++) {
            if (k != taker) {
                assertNull(op.valueTaken(k), by + k);
                assertSame(segs[k], op.segment(k), by + k);
            }
            assertEquals(0x3FFF - k, op.index(k), by + k + " keeps its cell index");
            assertEquals(k != taker, op.isRegistered(k), by + k + " keeps its flag");
        }
        op.recordCell(taker, segs[taker], 3);
        assertNull(op.valueTaken(taker), by + taker + " in a new cell has taken no value");
        assertSame(segs[taker], op.segment(taker), by + taker);
        assertEquals(3, op.index(taker), by + taker);
    }

    /**
     * End to end: a select whose later clause completes during registration returns the value it
     * took, whatever that value is (here a segment, which only this package can create), with two
     * clauses (fields) and with three (an array).
     */
    @Test
    void aSelectReturnsAValueTakenDuringRegistrationEvenASegment() throws InterruptedException {
        Channel<Object> empty = new Channel<>();
        Channel<Object> other = new Channel<>();
        Channel<Object> full = new Channel<>(1);
        Segment value = new Segment(3, null, 2);
        full.send(value);
        assertSame(value, Select.select(empty.receiveClause(), full.receiveClause()));
        full.send(value);
        assertSame(value, Select.select(empty.receiveClause(), other.receiveClause(), full.receiveClause()));
        assertNull(empty.tryReceive(), "the withdrawn clauses left nothing behind");
        assertNull(other.tryReceive(), "the withdrawn clauses left nothing behind");
    }

    /**
     * What the GC sees a registering select of two clauses allocate: one object of at most 48
     * bytes (its fields, with compressed references and class pointers, the JVM's default under a
     * 32 GB heap; skipped without them, e.g. under ZGC), measured with the JVM's per-thread
     * allocation counter over many selects kept reachable, so that none is optimized away.
     */
    @Test
    void aSelectOfTwoClausesIsOneObjectOfAtMost48Bytes() {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                vmOption("UseCompressedOops") && vmOption("UseCompressedClassPointers"),
                "the 48 bytes assume compressed references and class pointers");
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(
                mx instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemoryEnabled(),
                "no per-thread allocation counter");
        com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) mx;
        SelectClause<Integer> c0 = a.receiveClause();
        SelectClause<Integer> c1 = b.receiveClause();
        SelectOp[] kept = new SelectOp[10_000];
        for (int round = 0; round < 3; round++) { // the last round counts, after any warm-up
            long before = t.getCurrentThreadAllocatedBytes();
            for (int j = 0; j < kept.length; j++) {
                kept[j] = new SelectOp(c0, c1);
            }
            long after = t.getCurrentThreadAllocatedBytes();
            assertTrue(before >= 0 && after > before, "the counter counts: " + before + ", " + after);
            long perSelect = (after - before) / kept.length;
            if (round == 2) {
                assertTrue(perSelect <= 48, perSelect + " bytes per select");
            }
        }
        assertSame(Thread.currentThread(), kept[kept.length - 1].owner);
    }

    /** Whether the boolean VM option {@code name} is on; false where the JVM has no such option. */
    private static boolean vmOption(String name) {
        var diagnostics = java.lang.management.ManagementFactory.getPlatformMXBean(
                com.sun.management.HotSpotDiagnosticMXBean.class);
        try {
            return diagnostics != null && "true".equals(diagnostics.getVMOption(name).getValue());
        } catch (IllegalArgumentException noSuchOption) {
            return false;
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
