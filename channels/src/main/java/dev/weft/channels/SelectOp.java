package dev.weft.channels;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One running {@code select}: its state word and its registrations.
 *
 * <h2>State machine</h2>
 *
 * <pre>
 *   LOCKED ──owner──▶ WAITING ──partner CAS──▶ Selected(k)      (a rendezvous on clause k)
 *     │  ▲              │  └───closing CAS───▶ ClosedSel(k)      (clause k's channel closed)
 *     │  └──owner CAS───┘  └───owner CAS─────▶ CANCELLED         (interrupt or timeout)
 *     ├──owner──▶ Selected(k) / ClosedSel(k)  (completed while registering)
 *     ├──owner──▶ Pending(partner) ──owner CAS──▶ LOCKED   (partner stopped registering)
 *     │               ├──partner (helping) CAS──▶ Selected(k)
 *     │               └──partner CAS──▶ LOCKED             (stale: the cell was refused)
 *     └──owner (an Error escaped)──▶ CANCELLED   (also by CAS from WAITING or Pending)
 * </pre>
 *
 * <ul>
 *   <li>{@code LOCKED}: the owner is registering. Nobody else changes the state. Two kinds of
 *       thread wait for it, both parked on its lock-waiter stack: a registering select with a
 *       smaller id (below), and closing (so that a clause completed during registration cannot
 *       win over a close that came first; {@link #awaitNotRegistering}). A plain operation, a
 *       try-operation, buffer expansion or a larger-id select that meets one of its
 *       registrations refuses it (kills the cell, sets {@code reregister}), and the owner registers
 *       that clause again after registering the others. So does a select's first clause, which
 *       is tried as a try-operation before its select exists ({@code Select.tryFirst}), whatever
 *       the ids. The owner writes LOCKED at construction and
 *       by CAS from {@code WAITING} (re-registration), and a helper writes it by CAS from a stale
 *       {@code Pending}.
 *   <li>{@code WAITING}: every clause is registered; the owner parks. Partners complete it by CAS to
 *       {@code Selected(k)}; closing by CAS to {@code ClosedSel(k)}; the owner on interrupt or
 *       timeout by CAS to {@code CANCELLED}. The successful CAS is the linearization point.
 *   <li>{@code Pending}: a descriptor. The owner, while LOCKED, found in the cell it works on the
 *       registration of another select that is itself registering and has a larger id. It
 *       publishes what it wants (the partner, the cell), pushes a node on the partner's lock-waiter
 *       stack and parks. The partner drains that stack whenever it stops registering ({@link
 *       #svState}, {@link #wake}), so the owner wakes and either finds it WAITING (and completes
 *       it normally) or terminal. When the partner, still registering, meets one of the owner's
 *       registrations, it helps: it completes the described rendezvous in the described cell and
 *       moves both states to {@code Selected} (its CAS from {@code Pending} is the linearization
 *       point of the pair). If that cell no longer holds the partner's registration (buffer
 *       expansion, closing or a plain operation refused it meanwhile), the descriptor is stale: the
 *       partner moves the owner back to LOCKED and unparks it, and the owner reads its cell again.
 *       A select only ever waits for one with a larger id, so the waits cannot form a cycle, and
 *       the select with the largest id in a chain waits for nobody.
 *   <li>{@code Selected(k)}, {@code ClosedSel(k)}, {@code CANCELLED}: terminal. The owner then
 *       withdraws every other registration by CAS on its cell (counting the cell as cleaned for
 *       segment removal), so no registration can receive or deliver later. A select whose
 *       registration or waiting is hit by an Error moves itself to CANCELLED the same way.
 * </ul>
 */
final class SelectOp {
    /** The select's states that carry no data (the others are the classes below). */
    enum Phase {
        /** The owner is registering (or registering again). */
        LOCKED,
        /** Every clause is registered; the owner waits. */
        WAITING,
        /** Terminal: interrupted, timed out, or hit by an Error. */
        CANCELLED
    }

    static final Phase LOCKED = Phase.LOCKED;
    static final Phase WAITING = Phase.WAITING;
    static final Phase CANCELLED = Phase.CANCELLED;

    /** Terminal: clause {@code k} completed a rendezvous (or took a buffered value). */
    record Selected(int k) {}

    /** Terminal: clause {@code k}'s channel is closed with {@code reason}. */
    record ClosedSel(int k, ChannelClosed reason) {}

    /** Descriptor: the owner waits for {@code partner} to leave LOCKED, or to help. */
    static final class Pending {
        final SelectOp partner;
        /** The owner's clause and the cell it claimed, holding {@code partner}'s registration. */
        final int k;

        final int partnerK;
        final Segment seg;
        final int i;

        Pending(SelectOp partner, int k, int partnerK, Segment seg, int i) {
            this.partner = partner;
            this.k = k;
            this.partnerK = partnerK;
            this.seg = seg;
            this.i = i;
        }
    }

    private static final Selected[] SELECTED = new Selected[64];

    static Selected selected(int k) {
        return k < SELECTED.length ? SELECTED[k] : new Selected(k);
    }

    /** A thread (a select or a close) parked until this one stops registering. */
    private static final class LockWaiter {
        final Thread thread;
        final LockWaiter next;

        LockWaiter(Thread thread, LockWaiter next) {
            this.thread = thread;
            this.next = next;
        }
    }

    /** An entry's flag: a live registration. */
    private static final int REGISTERED = 1 << 15;

    /**
     * An entry's flag: the clause completed during registration, and where its cell's segment was
     * ({@link #where0}) it keeps the value it received instead ({@link #recordValue}). A flag, not
     * a type test, because any object can be a value, even a segment.
     */
    private static final int TAKEN = 1 << 14;

    /** An entry's cell index: below both flags ({@code Segment.SIZE} is at most 1024). */
    private static final int INDEX = TAKEN - 1;

    /** An entry's bits: a cell index and the two flags. */
    private static final int ENTRY = 0xFFFF;

    private static final VarHandle STATE;
    private static final VarHandle REREGISTER;
    private static final VarHandle LOCK_WAITERS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(SelectOp.class, "state", Object.class);
            REREGISTER = l.findVarHandle(SelectOp.class, "reregister", boolean.class);
            LOCK_WAITERS = l.findVarHandle(SelectOp.class, "lockWaiters", LockWaiter.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        for (int k = 0; k < SELECTED.length; k++) {
            SELECTED[k] = new Selected(k);
        }
        if (Segment.SIZE - 1 > INDEX) { // weft.segmentSize is at most 1024 (Config)
            throw new ExceptionInInitializerError("a cell index does not fit a select's cell entry");
        }
    }

    final Thread owner;

    /**
     * Clause 0 of a select of one or two clauses; for a select of more clauses (or one built from
     * an array), its slots instead: its clauses (a private copy, indices {@code [0, n)}), where
     * each clause is (indices {@code [n, 2n)}, as {@link #where0} below) and last the {@code
     * int[n]} of their cell entries (below). One field for both forms keeps a select of two
     * clauses at 48 bytes. Final after construction; the clauses are read by other threads
     * ({@link #clauseIndexOf}), the rest of the slots only by the owner.
     */
    private final Object first;

    /** Clause 1 of a select of two clauses; otherwise {@code null}. Read by other threads. */
    private final SelectClause<?> clause1;

    /**
     * Where clause 0 (and 1) of a select of one or two clauses is; owner-only: the segment of its
     * current cell (its registration or claim) or, once it completed during registration, the
     * value it received there ({@link #recordValue}, its entry's {@link #TAKEN} flag tells
     * which). A completed clause needs its segment no more, so the value needs no field of its
     * own.
     */
    private Object where0;

    private Object where1;

    /**
     * The cell entries of clauses 0 and 1 of a select of one or two clauses: clause 0's in the
     * low 16 bits, clause 1's in the high 16; owner-only. An entry is the index in its segment of
     * the clause's current cell, with {@link #REGISTERED} set while that clause has a live
     * registration there and {@link #TAKEN} once it completed during registration. Packed so
     * that, with the value sharing {@link #where0}, a select of two clauses is one object of 48
     * bytes (with compressed references and class pointers: JOL's layout in PERFORMANCE.md, and
     * {@code SelectOpStateTest}).
     */
    private int cells01;

    /** Invariant: one of the states in the class comment; see there for who writes what. */
    private volatile Object state = LOCKED;

    /**
     * Set (then the owner is unparked) when another select refused one of this select's
     * registrations; the owner clears it and registers the killed clauses again.
     */
    private volatile boolean reregister;

    /**
     * Invariant: the threads of smaller-id selects parked in {@code awaitLargerSelect}, and of
     * closes parked in {@link #awaitNotRegistering}, until this select stops registering (a Treiber stack, fresh nodes per push). Pushed by them while this
     * select is LOCKED or Pending; taken whole and unparked whenever this select leaves those
     * states ({@link #svState}, and by a helper that selects it). A waiter pushes, then reads
     * the state again before parking, so a drain that ran before the push is never needed.
     */
    private volatile LockWaiter lockWaiters;

    /**
     * A select over the checked clauses {@code c0} and {@code c1}, or over {@code c0} alone when
     * {@code c1} is null.
     */
    SelectOp(SelectClause<?> c0, SelectClause<?> c1) {
        if (c0 == null) {
            throw new IllegalArgumentException("a select needs a first clause");
        }
        this.owner = Thread.currentThread();
        this.first = c0;
        this.clause1 = c1;
    }

    /**
     * A select over the checked clauses in {@code slots[0, n)}; it takes the array, a private
     * copy whose length must be exactly {@code 2n + 1} ({@link #clauseCount} is derived from it),
     * keeps where its clauses are in {@code slots[n, 2n)} and puts the array of
     * their cell entries in {@code slots[2n]}.
     */
    SelectOp(Object[] slots, int n) {
        if (slots.length != 2 * n + 1 || n < 1) {
            throw new IllegalArgumentException(
                    "a select of " + n + " clauses needs 2n + 1 slots, got " + slots.length);
        }
        this.owner = Thread.currentThread();
        this.clause1 = null;
        slots[2 * n] = new int[n];
        this.first = slots;
    }

    /**
     * Orders selects that meet each other: its owner's thread id, unique among running selects
     * (a thread runs one select at a time). Not a field, to keep a select's allocation small.
     */
    long id() {
        return owner.threadId();
    }

    /** The slots of a select of more than two clauses (or built from an array), else null. */
    private Object[] slots() {
        return first instanceof Object[] sl ? sl : null;
    }

    /** The number of clauses. */
    int clauseCount() {
        Object[] sl = slots();
        return sl != null ? sl.length >> 1 : clause1 == null ? 1 : 2;
    }

    /** Clause {@code k}'s cell entry. */
    private int cell(int k) {
        Object[] sl = slots();
        if (sl != null) {
            return ((int[]) sl[sl.length - 1])[k];
        }
        return (cells01 >>> (k << 4)) & ENTRY;
    }

    /** Sets clause {@code k}'s cell entry to {@code v} (an index, perhaps with flags). */
    private void setCell(int k, int v) {
        Object[] sl = slots();
        if (sl != null) {
            ((int[]) sl[sl.length - 1])[k] = v;
        } else {
            int shift = k << 4;
            cells01 = (cells01 & ~(ENTRY << shift)) | ((v & ENTRY) << shift);
        }
    }

    /** Clause {@code k}. */
    SelectClause<?> clause(int k) {
        Object f = first;
        if (f instanceof SelectClause<?> c0) {
            return k == 0 ? c0 : clause1;
        }
        return (SelectClause<?>) ((Object[]) f)[k];
    }

    /** Whether clause {@code k} has a live registration in its current cell; owner-only. */
    boolean isRegistered(int k) {
        return (cell(k) & REGISTERED) != 0;
    }

    /** Marks clause {@code k}'s registration in its current cell live or gone; owner-only. */
    void setRegistered(int k, boolean live) {
        int c = cell(k);
        setCell(k, live ? c | REGISTERED : c & ~REGISTERED);
    }

    Object lvState() {
        return state;
    }

    boolean casState(Object expected, Object update) {
        return STATE.compareAndSet(this, expected, update);
    }

    /**
     * Owner-only volatile write, from LOCKED or Pending (only the owner, or a helper with a CAS,
     * moves it out of those). Leaving them also wakes the selects that wait for this one to stop
     * registering.
     */
    void svState(Object update) {
        state = update;
        if (!isLocked(update)) {
            wakeLockWaiters();
        }
    }

    /** Called by a smaller-id select or a close that waits for this one to stop registering. */
    void pushLockWaiter(Thread t) {
        while (true) {
            LockWaiter head = lockWaiters;
            if (LOCK_WAITERS.compareAndSet(this, head, new LockWaiter(t, head))) {
                return;
            }
        }
    }

    /**
     * Parks the current thread (a closing thread) until this select stops registering: its state
     * is neither LOCKED nor Pending. The caller holds no cell CLAIMED, and a registering select
     * never waits for a closing thread, so the wait ends once the owner (or the larger-id select
     * it waits for) runs; it parks, so a virtual caller frees its carrier for them. Not
     * interruptible: the interrupt flag is cleared for the wait (park returns at once while it is
     * set) and restored afterwards.
     */
    void awaitNotRegistering() {
        boolean pushed = false;
        boolean interrupted = false;
        try {
            while (isLocked(state)) {
                if (!pushed) {
                    pushLockWaiter(Thread.currentThread());
                    pushed = true;
                    continue; // look again after publishing the node (drained after unlocking)
                }
                if (Thread.interrupted()) {
                    interrupted = true;
                    continue;
                }
                LockSupport.park(this);
                pushed = false; // a drain took the node; a spurious return pushes a fresh one
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Unparks every select waiting for this one to stop registering. */
    void wakeLockWaiters() {
        if (lockWaiters == null) {
            return;
        }
        for (LockWaiter w = (LockWaiter) LOCK_WAITERS.getAndSet(this, (LockWaiter) null);
                w != null;
                w = w.next) {
            LockSupport.unpark(w.thread);
        }
    }

    static boolean isLocked(Object s) {
        return s == LOCKED || s instanceof Pending;
    }

    static boolean isTerminal(Object s) {
        return s instanceof Selected || s instanceof ClosedSel || s == CANCELLED;
    }

    /**
     * Records the cell that clause {@code k}'s registration (or claim) is in; owner-only. Returns
     * this select, the waiter to install in the cell.
     */
    SelectOp recordCell(int k, Segment seg, int i) {
        setWhere(k, seg);
        setCell(k, i); // a new cell: not registered there yet
        return this;
    }

    /**
     * Records the value clause {@code k} received when it completed during registration; owner-
     * only, after its last {@link #recordCell}: it replaces the segment of the clause's cell,
     * which a completed clause no longer needs ({@link SelectRegistration#takeValue}).
     */
    void recordValue(int k, Object v) {
        setWhere(k, v);
        setCell(k, cell(k) | TAKEN);
    }

    /**
     * The value clause {@code k} received during registration ({@link #recordValue}), or {@code
     * null} when it has none: its entry still holds its cell's segment.
     */
    Object valueTaken(int k) {
        return (cell(k) & TAKEN) != 0 ? where(k) : null;
    }

    /** The segment of clause {@code k}'s current cell; not after {@link #recordValue}. */
    Segment segment(int k) {
        return (Segment) where(k);
    }

    private Object where(int k) {
        Object[] sl = slots();
        return sl != null ? sl[(sl.length >> 1) + k] : k == 0 ? where0 : where1;
    }

    private void setWhere(int k, Object w) {
        Object[] sl = slots();
        if (sl != null) {
            sl[(sl.length >> 1) + k] = w;
        } else if (k == 0) {
            where0 = w;
        } else {
            where1 = w;
        }
    }

    /** The index, in its segment, of clause {@code k}'s current cell. */
    int index(int k) {
        return cell(k) & INDEX;
    }

    /** The clause of this select on channel {@code ch}. */
    int clauseIndexOf(ChannelState ch) {
        for (int k = 0, n = clauseCount(); k < n; k++) {
            if (clause(k).channel() == ch) {
                return k;
            }
        }
        throw new IllegalStateException("select has no clause on " + ch);
    }

    /** Unparks the owner, and the selects waiting for it to stop registering. */
    void wake() {
        LockSupport.unpark(owner);
        wakeLockWaiters();
    }

    void requestReregistration() {
        reregister = true;
        wake();
    }

    boolean hasReregisterRequest() {
        return reregister;
    }

    boolean takeReregisterRequest() {
        return reregister && REREGISTER.compareAndSet(this, true, false);
    }

    /** Clauses shown by {@link #describeClauses()}; the rest are counted. */
    private static final int MAX_CLAUSES_IN_TEXT = 8;

    /**
     * The clauses in a few words, bounded: {@code [receive on Channel[a, capacity 0], send on
     * Channel#3[capacity 1]]}.
     */
    String describeClauses() {
        StringBuilder sb = new StringBuilder(64).append('[');
        int n = clauseCount();
        for (int k = 0; k < n; k++) {
            SelectClause<?> c = clause(k);
            if (k == MAX_CLAUSES_IN_TEXT) {
                sb.append(", ... (").append(n).append(" clauses)");
                break;
            }
            if (k > 0) {
                sb.append(", ");
            }
            sb.append(c.isSend() ? WaitEvents.SEND : WaitEvents.RECEIVE)
                    .append(" on ")
                    .append(c.channel().describe());
        }
        return sb.append(']').toString();
    }

    /**
     * What {@link java.util.concurrent.locks.LockSupport#getBlocker} shows for a waiting select
     * (it parks on this object): {@code select on [receive on Channel[a, capacity 0], ...]
     * (Select#7, WAITING)}. Built only when asked for.
     */
    @Override
    public String toString() {
        return "select on " + describeClauses() + " (Select#" + id() + ", " + state + ")";
    }
}
