package dev.weft.channels;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * How a thread waits for its cell (or its select) to change: a short spin with {@link
 * Thread#onSpinWait()}, then {@link LockSupport#park}. The partner changes the state by CAS and
 * then calls {@link LockSupport#unpark}. Nothing here pins a virtual thread's carrier.
 *
 * <p><b>Virtual threads spin adaptively.</b> Spinning pays only when the partner runs on another
 * core at the same time (one sender and one receiver on two carriers); with more runnable virtual
 * threads than carriers, a spinning thread burns the carrier its partner needs. Each {@link Spin}
 * (one per channel, used by its waiters and by the selects whose first clause is on it) learns
 * which regime it is in: a wait that the spin satisfied grows the budget, a wait that had to park
 * halves it. A new channel starts at {@link #INITIAL_SPINS}; one with a large buffer starts lower
 * where the new channels of its kind before it learnt that spinning does not pay (a crowd of
 * short-lived channels; see {@link Spin.Start}). A budget that fell to zero is probed
 * again ({@link #PROBE_SPINS} spins) on one wait in 32, so the estimate recovers when the regime
 * changes. The ceiling is {@code weft.spins.virtual} spins; it also caps the start and the probe,
 * so a ceiling of 0 means that virtual threads never spin before they park (the short back-off
 * waits for transient cell states, and a rendezvous waiter's wait for a partner already on its
 * way, still spin).
 *
 * <p><b>Channels with a large buffer have their own ceiling</b>, {@code weft.spins.virtualBuffered}
 * (a buffer of {@link #LARGE_BUFFER} or more, or an unlimited one; by default the same as {@code
 * weft.spins.virtual}). Setting it to 0 makes their virtual waiters park at once. When a virtual
 * thread parks, the thread it unparked last usually runs next on the same carrier, so a producer
 * and a consumer take turns on one carrier, each running until the buffer is full or empty: two
 * switches per buffer's worth of values, every cell in one core's cache. That made a buffered
 * pair at 16 0.63x (and 0.83x in the machine's slow hours), but it made several consumers or
 * producers on one channel up to 1.56x slower in those hours, so it is not the default for every
 * channel. Buffers below {@link #LARGE_BUFFER} never take it (1, 2 and 4 measured 1.8-3x slower
 * without the spin, 8 mixed). A select waits with the spin of its first clause's channel (never
 * with the pair rule below).
 * Measured in {@code docs/PERFORMANCE.md} (2026-11-25).
 *
 * <p><b>A pair parks at once</b> (by default; {@code weft.spins.repeatWaiterParks=0} turns it
 * off): in a channel with a large buffer, once each side has had one waiting virtual thread, which
 * waited at least twice, and never a second one, those threads park at once instead of spinning, which gives a pipeline
 * stage's producer and consumer the turn-taking above without the crowds' loss (a side with a
 * second waiting thread keeps the adaptive spin for good). A pair whose parks are not followed
 * by bursts (a consumer whose producer filled the buffer before, so that the channel became a
 * pair, and now sends more slowly than it consumes) goes back to
 * spinning after a few waits and tries again much later. See {@link Spin#parkAtOnce}; measured in
 * {@code docs/PERFORMANCE.md} (2026-11-26).
 *
 * <p><b>A rendezvous send or receive waits even when its partner is already on its way</b> (it
 * installs itself without reading the other side's count, {@link ChannelState#installsAtOnce}).
 * A virtual one whose spin ended without a result spins up to {@link #ON_ITS_WAY_SPINS} more
 * times while that partner, which has claimed the cell, gets there, and then parks; a wait that
 * those spins end is not recorded ({@link #awaitPartnerOnItsWay}).
 *
 * <p><b>Platform threads spin for a window of time</b>, {@code weft.spinMicros.platform} (50 us
 * by default; none on a machine with one CPU, where the partner cannot run meanwhile), yielding
 * the core every 64 spins, then park. A platform thread does not occupy a carrier, and parking one
 * costs its partner an OS wake-up (about 40 us on the machine weft is measured on). A spin budget
 * that shrinks after every parked wait cannot work for them: once one side of a pair has parked,
 * the other side's next wait lasts about that wake-up, so every spin shorter than it fails, the
 * budget shrinks further, and both sides park on every handoff from then on (a convoy; measured at
 * about 40 us per value instead of a few hundred ns, see {@code docs/PERFORMANCE.md}). A window
 * that outlasts the partner's wake-up ends the convoy at its first wait; a wait that parks anyway
 * has burned at most the window in CPU. What the window still learns is whether the channel is
 * idle: after a park that lasted more than {@link #IDLE_PARK_FACTOR} windows (a partner that was
 * not merely waking up, or a timeout that long), the channel's platform waits spin an eighth of
 * the window, until a spin wins or a park ends sooner again (a convoy's parks last one wake-up, so
 * they restore the full window at once). Only waits that really ended, or lasted their whole
 * timeout, are recorded; an interrupt or a select's re-registration request is not. A poll whose
 * timeout is shorter than 8 windows never marks the channel idle, so it spins the whole window
 * (or its timeout) each time.
 */
final class Waiting {
    private Waiting() {}

    static final int VIRTUAL_SPINS = Config.VIRTUAL_SPINS;

    /** The spin ceiling of virtual waits in a channel with a large buffer (see the class javadoc). */
    static final int VIRTUAL_SPINS_BUFFERED = Config.VIRTUAL_SPINS_BUFFERED;

    /**
     * The smallest buffer that {@code weft.spins.virtualBuffered} applies to (see the class
     * javadoc): without the spin, the buffered pair measured faster at 16 (in both of its fork
     * modes) and at 100 (only its fast mode was seen), slower at 1, 2 and 4 (where a turn covers
     * too few values to pay for its two switches), mixed at 8.
     */
    static final int LARGE_BUFFER = 16;

    /** The spin ceiling of virtual waits in a channel of {@code capacity} (-1: unlimited). */
    static int virtualSpinCeiling(int capacity) {
        return capacity < 0 || capacity >= LARGE_BUFFER ? VIRTUAL_SPINS_BUFFERED : VIRTUAL_SPINS;
    }

    /** Whether repeat waiters park at once in a channel of {@code capacity} (see {@link Spin#parkAtOnce}). */
    static boolean repeatWaiterParks(int capacity) {
        return Config.REPEAT_WAITER_PARKS && (capacity < 0 || capacity >= LARGE_BUFFER);
    }

    /**
     * The most spins of a new channel's first virtual wait (see {@link Spin.Start} for where it
     * starts lower). A smaller fixed start (8) saves a short-lived channel among many its failed
     * spins (Parallel 16: 0.75x), but it tips more runs of a few threads on one channel into the
     * parked convoy; see {@code docs/PERFORMANCE.md}.
     */
    static final int INITIAL_SPINS = 32;

    /**
     * Waits in park-at-once mode (see {@link Spin#parkAtOnce}) in a row that each came right
     * after the side's previous wait (one cell further: a round trip, not a burst) after which
     * the side spins again.
     */
    static final int PAIR_STRIKES = 4;

    /** Waits that a side spins, after it left park-at-once mode, before it tries that mode again. */
    static final int PAIR_RETRY_AFTER = 1024;

    /** The spins of a wait that probes a budget that fell to zero (one wait in 32). */
    static final int PROBE_SPINS = 32;

    /** How long a platform thread spins before it parks, in ns (see the class javadoc). */
    static final long PLATFORM_SPIN_NANOS = Config.PLATFORM_SPIN_NANOS;

    /** A platform park longer than this many windows marks the channel idle (see the class javadoc). */
    static final int IDLE_PARK_FACTOR = 8;

    /** Spins between two yields of a spinning platform thread (a power of two). */
    private static final int PLATFORM_YIELD_SPINS = 64;

    /** The most spins of a rendezvous waiter whose partner is on its way (see {@link #awaitPartnerOnItsWay}). */
    static final int ON_ITS_WAY_SPINS = 64;

    /** Spins before a busy-wait for a transient state yields its core. */
    private static final int BACKOFF_SPINS = 64;

    /**
     * Waits as the sender of the cell; returns DONE, CLOSED, NO_WAITER (timed out) or FAILED (the
     * receiver of the cell was hit by an Error and withdrew this send: see {@link Withdrawal}).
     */
    static Result awaitSend(ChannelState ch, Segment seg, int i, Thread me, long timeout)
            throws InterruptedException {
        Object st = awaitInCell(ch, seg, i, me, timeout, true);
        if (st == null) {
            return Result.NO_WAITER;
        }
        if (st == Cells.State.CLOSED) {
            seg.spElement(i, null);
            return Result.CLOSED;
        }
        if (st == Cells.State.INTERRUPTED_SEND) {
            return Result.FAILED; // our receiver was hit by an Error and withdrew us: try another cell
        }
        return Result.DONE; // the cell is DONE or BUFFERED
    }

    /**
     * Waits as the receiver of the cell; returns the value, CLOSED, NO_WAITER (timed out) or
     * FAILED (the sender of the cell was hit by an Error, or was a try-send that found the channel
     * closed after claiming beyond its room, and withdrew this receive).
     */
    static Object awaitReceive(ChannelState ch, Segment seg, int i, Thread me, long timeout)
            throws InterruptedException {
        Object st = awaitInCell(ch, seg, i, me, timeout, false);
        if (st == null) {
            return Result.NO_WAITER;
        }
        if (st == Cells.State.CLOSED) {
            return Result.CLOSED;
        }
        if (st == Cells.State.INTERRUPTED_RCV) {
            return Result.FAILED; // our sender was hit by an Error or refused by a close: try another cell
        }
        // DONE: the sender left its element in the slot
        Object v = seg.lpElement(i);
        seg.spElement(i, null);
        return v;
    }

    /**
     * Waits as the sender ({@code send}) or receiver in cell {@code i} of {@code seg} of {@code ch}
     * until a partner or closing changes it; on interrupt or timeout withdraws from it, unless the
     * partner came first (then the operation completes normally and the interrupt stays visible).
     * Records a JFR {@code dev.weft.ChannelWait} event when enabled.
     *
     * @return the state that ended the wait (DONE, BUFFERED or CLOSED; or INTERRUPTED_SEND /
     *     INTERRUPTED_RCV when the partner was hit by an Error, or was a late try-send refused by a
     *     close, and withdrew this waiter), or {@code
     *     null} when it timed out and withdrew
     * @throws InterruptedException when interrupted and withdrawn
     */
    static Object awaitInCell(ChannelState ch, Segment seg, int i, Thread me, long timeout, boolean send)
            throws InterruptedException {
        Object event = WaitEvents.beginChannelWait();
        if (event == null) {
            return awaitInCellOrWithdraw(ch, seg, i, me, timeout, send);
        }
        String operation = send ? WaitEvents.SEND : WaitEvents.RECEIVE;
        Object st;
        try {
            st = awaitInCellOrWithdraw(ch, seg, i, me, timeout, send);
        } catch (InterruptedException e) {
            WaitEvents.endChannelWait(event, ch, operation, WaitEvents.INTERRUPT);
            throw e;
        }
        String outcome =
                st == null ? WaitEvents.TIMEOUT
                        : st == Cells.State.CLOSED ? WaitEvents.CLOSE
                        : st == Cells.State.INTERRUPTED_SEND || st == Cells.State.INTERRUPTED_RCV ? WaitEvents.RETRY
                        : WaitEvents.RENDEZVOUS;
        WaitEvents.endChannelWait(event, ch, operation, outcome);
        return st;
    }

    private static Object awaitInCellOrWithdraw(
            ChannelState ch, Segment seg, int i, Thread me, long timeout, boolean send)
            throws InterruptedException {
        long deadline = timeout > 0 ? deadline(timeout) : 0L;
        Spin spin = ch.spin;
        long index = seg.id * Segment.SIZE + i;
        boolean atOnce = me.isVirtual() && spin.parkAtOnce(me, send, index);
        Object st = spinThenPark(seg, i, me, null, deadline, spin, ch.waitBlocker(send), atOnce,
                ch.installsAtOnce(me) ? ch : null, index, send);
        boolean interrupted = st == Result.INTERRUPTED;
        if (interrupted || st == Result.TIMED_OUT) {
            st = Withdrawal.withdrawWaiter(ch, seg, i, me, send);
            if (st == null) {
                if (interrupted) {
                    throw new InterruptedException();
                }
                return null;
            }
            if (interrupted) {
                Thread.currentThread().interrupt(); // the partner won the race
            }
        }
        return st;
    }

    /**
     * The one spin-then-park loop, shared by plain waiters and selects. It watches either cell
     * {@code i} of {@code seg} (a plain waiter, {@code op == null}: until the cell no longer holds
     * {@code me}) or select {@code op} (until it is terminal or has a re-registration request).
     * It spins (a virtual thread up to {@code spin}'s budget, a platform thread for its window;
     * see the class javadoc), checking the interrupt flag and the deadline every 16 spins, then
     * parks on {@code blocker}; the partner changes the watched state (by CAS, or by
     * a re-registration request) and then unparks {@code me}. It never cancels anything itself:
     * on interrupt or timeout the caller withdraws by CAS and may still lose to the partner (one
     * exception: a rendezvous receiver closes its own cell when no sender will come, see {@link
     * #closeIfNoSenderWillCome}). Only a
     * wait that really ended (the cell changed, the select is terminal) counts as a spin won; a
     * re-registration request is work for the owner, not its partner's arrival.
     *
     * @param deadline a {@link System#nanoTime()} deadline, or 0 to wait without one
     * @return the watched state that ended the wait (the cell's, or the select's), or {@link
     *     Result#INTERRUPTED} (the interrupt flag is then cleared) or {@link Result#TIMED_OUT}
     */
    static Object spinThenPark(
            Segment seg, int i, Thread me, SelectOp op, long deadline, Spin spin, Object blocker,
            boolean parkAtOnce) {
        return spinThenPark(seg, i, me, op, deadline, spin, blocker, parkAtOnce, null, 0L, false);
    }

    /**
     * As above; {@code rendezvous}, when not {@code null}, is the rendezvous channel whose sender
     * ({@code send}) or receiver of cell {@code index} waits here having installed itself without
     * reading the other side's count ({@link ChannelState#installsAtOnce}): a virtual one whose
     * spin ended without its partner spins a little longer, before it parks, while that partner is
     * on its way; a receiver whose channel is closed with no sender to come closes its own cell
     * after its spin, before it parks, also when the spin timed out ({@link
     * #closeIfNoSenderWillCome}).
     */
    private static Object spinThenPark(
            Segment seg, int i, Thread me, SelectOp op, long deadline, Spin spin, Object blocker,
            boolean parkAtOnce, ChannelState rendezvous, long index, boolean send) {
        boolean virtual = me.isVirtual();
        Object st;
        if (virtual) {
            st = parkAtOnce ? null : spinVirtual(seg, i, me, op, deadline, spin, rendezvous, index, send);
        } else {
            st = spinPlatform(seg, i, me, op, deadline, spin.platformWindow());
        }
        if (rendezvous != null && !send && (st == null || st == Result.TIMED_OUT)) {
            // also when the spin timed out: a receive after a close reports it, not a timeout
            Object closed = closeIfNoSenderWillCome(rendezvous, index, seg, i, me);
            if (closed != null) {
                return closed;
            }
        }
        if (virtual) {
            return st != null ? st : park(seg, i, me, op, deadline, blocker);
        }
        if (st != null) {
            if (st != Result.TIMED_OUT && (op == null || SelectOp.isTerminal(st))) {
                spin.recordPlatform(true, 0L);
            }
            return st;
        }
        long parkedAt = System.nanoTime();
        st = park(seg, i, me, op, deadline, blocker);
        if (st == Result.TIMED_OUT || (st != Result.INTERRUPTED && (op == null || SelectOp.isTerminal(st)))) {
            // a wait that really ended, or lasted its whole timeout: how long the channel was idle
            spin.recordPlatform(false, System.nanoTime() - parkedAt);
        }
        return st;
    }

    /**
     * The spin of a virtual thread, up to {@code spin}'s budget, which it updates; then, for a
     * rendezvous waiter ({@code rendezvous} not {@code null}, see {@link #spinThenPark}) whose
     * partner is on its way, {@link #awaitPartnerOnItsWay}.
     *
     * @return what {@link #spinThenPark} returns, or {@code null} when the spin ended without a
     *     result (the park loop then reads the state again)
     */
    private static Object spinVirtual(
            Segment seg, int i, Thread me, SelectOp op, long deadline, Spin spin, ChannelState rendezvous, long index,
            boolean send) {
        int budget = spin.budget();
        for (int n = 0; n < budget; n++) {
            Object st = op == null ? seg.lvState(i) : op.lvState();
            if (changed(st, me, op)) {
                if (op == null || SelectOp.isTerminal(st)) {
                    spin.record(true, n);
                }
                return st;
            }
            if ((n & 15) == 15) {
                if (me.isInterrupted()) {
                    return null;
                }
                if (deadline != 0L && deadline - System.nanoTime() <= 0L) {
                    return Result.TIMED_OUT;
                }
            }
            Thread.onSpinWait();
        }
        if (rendezvous != null && rendezvous.partnerOnItsWay(send, index)) {
            Object st = awaitPartnerOnItsWay(seg, i, me);
            if (st != null) {
                return st;
            }
        }
        if (budget > 0) {
            spin.record(false, budget);
        }
        return null;
    }

    /**
     * The wait of a virtual rendezvous sender or receiver that installed itself without reading
     * the other side's count ({@link ChannelState#installsAtOnce}), whose spin ended without a
     * result and whose partner has claimed the cell already (it is on its way and completes the
     * cell within a few instructions, unless its carrier is descheduled): up to {@link
     * #ON_ITS_WAY_SPINS} more spins, so that such a waiter parks no more often than one that read
     * the count first (a sender then buffered its value, a receiver waited up to 64 spins for the
     * value). A wait that these spins end is not recorded in the spin budget (the reading waiter
     * had no wait there to learn from); one that parks after all records its failed spin as any
     * other. Bounded, since the partner may not run meanwhile (a platform thread, or a carrier
     * that the OS deschedules), and the park after it is woken by that partner.
     *
     * @return the cell's state that ended the wait, or {@code null}
     */
    private static Object awaitPartnerOnItsWay(Segment seg, int i, Thread me) {
        for (int n = 0; n < ON_ITS_WAY_SPINS; n++) {
            Object st = seg.lvState(i);
            if (!Cells.holds(st, me)) {
                return st;
            }
            Thread.onSpinWait();
        }
        return null;
    }

    /**
     * For a rendezvous receiver that installed itself without reading the sender count ({@link
     * ChannelState#installsAtOnce}), after its spin and before it parks (also when the spin timed
     * out; not before the spin, which would put the read of the sender count back on every
     * platform wait): if the channel is closed and no sender will come to its cell (at or beyond
     * the close's sender count), it closes its own cell, as the closing sweep would, and the wait
     * ends. A receiver that read the count before it installed saw the close at once and never
     * waited; this one reports it after its spin (a platform thread's window: 50 us by default).
     * Without it, a receive that starts after the closed bits were set would wait for the closer's
     * sweep, and for ever if the closer is hit by an Error before it (RendezvousInstallsAtOnceTest).
     *
     * @return CLOSED, the state that replaced {@code me} meanwhile, or {@code null} to wait on
     */
    private static Object closeIfNoSenderWillCome(ChannelState ch, long index, Segment seg, int i, Thread me) {
        if (!ch.noSenderWillCome(index)) {
            return null;
        }
        if (seg.casState(i, me, Cells.State.CLOSED)) {
            return Cells.State.CLOSED;
        }
        return seg.lvState(i); // no longer ours: the sweep closed it, or we were withdrawn
    }

    /**
     * The spin of a platform thread: {@code window} ns, yielding every {@link
     * #PLATFORM_YIELD_SPINS} spins (so that a partner waiting for a core gets it). The interrupt is
     * checked before the deadline, as in the park loop: an interrupted thread whose deadline also
     * passed reports the interrupt.
     *
     * @return as {@link #spinVirtual}
     */
    static Object spinPlatform(Segment seg, int i, Thread me, SelectOp op, long deadline, long window) {
        long end = System.nanoTime() + window;
        for (int n = 1; ; n++) {
            Object st = op == null ? seg.lvState(i) : op.lvState();
            if (changed(st, me, op)) {
                return st;
            }
            if ((n & 15) == 0) {
                if (me.isInterrupted()) {
                    return null;
                }
                long now = System.nanoTime();
                if (deadline != 0L && deadline - now <= 0L) {
                    return Result.TIMED_OUT;
                }
                if (now - end >= 0L) {
                    return null;
                }
                if ((n & (PLATFORM_YIELD_SPINS - 1)) == 0) {
                    Thread.yield();
                    continue;
                }
            }
            Thread.onSpinWait();
        }
    }

    /** The park loop of {@link #spinThenPark}, after the spin. */
    private static Object park(Segment seg, int i, Thread me, SelectOp op, long deadline, Object blocker) {
        while (true) {
            Object st = op == null ? seg.lvState(i) : op.lvState();
            if (changed(st, me, op)) {
                return st;
            }
            if (Thread.interrupted()) {
                return Result.INTERRUPTED;
            }
            if (deadline == 0L) {
                LockSupport.park(blocker);
            } else {
                long left = deadline - System.nanoTime();
                if (left <= 0L) {
                    return Result.TIMED_OUT;
                }
                LockSupport.parkNanos(blocker, left);
            }
        }
    }

    /** Whether the watched state {@code st} ends the wait of {@code me} (see {@link #spinThenPark}). */
    private static boolean changed(Object st, Thread me, SelectOp op) {
        return op == null ? !Cells.holds(st, me) : SelectOp.isTerminal(st) || op.hasReregisterRequest();
    }

    /**
     * One step of a busy-wait for a transient state held by another running thread: 64 {@link
     * Thread#onSpinWait()}s, then {@link Thread#yield()} per step, with no park and no deadline.
     * So it is only used where the holder runs with no blocking point between taking the state
     * and releasing it (no park, no wait for another thread, no call that can unmount a virtual
     * thread). It waits for exactly three kinds of state:
     *
     * <ul>
     *   <li>a {@code CLAIMED} cell: every thread that CASes a cell to CLAIMED (completing,
     *       killing or refusing a select registration; see {@code Cells}) allocates what it needs
     *       first and then only CASes the select's state and writes the cell back; it unparks
     *       and re-registers only after releasing the cell;
     *   <li>{@code closedAt} / {@code errorAt}: written by the thread whose atomic OR set the
     *       closed or error bit, in the next statement;
     *   <li>a cell in {@code BREAKING} or {@code INTERRUPTING_RCV}, waited for by the cell's
     *       sender: held by the receiver that gave the cell up while it moves the buffer end (one
     *       buffer expansion, which never waits for another thread, never parks and, there, never
     *       yields: see {@code CellUpdates.giveUpReceiverCell}). Longer than the others (it may
     *       spin on a CLAIMED cell, allocate a segment, or pass cells of withdrawn senders), but
     *       bounded the same way.
     * </ul>
     *
     * <p>Why that is bounded with one carrier: a virtual holder cannot be unmounted inside such a
     * window, so a waiter that runs (on the one carrier or as a platform thread) never waits for a
     * virtual holder that is not running; a platform holder preempted by the OS gets a CPU again,
     * since the yielding waiter occupies at most the one carrier. Waits for another thread's
     * progress (a registering select, a partner) never use this: they refuse, or park (see {@code
     * SelectMeeting.awaitLargerSelect} and {@code SelectOp.awaitNotRegistering}).
     */
    static int backoff(int step) {
        if (step < BACKOFF_SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
        return step + 1;
    }

    /** Validates a timeout and converts it to nanoseconds (0: do not wait). */
    static long timeoutNanos(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
        }
        long n;
        try {
            n = timeout.toNanos();
        } catch (ArithmeticException e) {
            n = Long.MAX_VALUE;
        }
        return n >= Long.MAX_VALUE / 4 ? -1L : n;
    }

    /**
     * The deadline of a timed operation ({@code timeout > 0}) that is about to wait: {@code
     * deadline} if its first wait set it already (a wait ended without a result and the operation
     * retries in another cell: the partner of its cell was hit by an Error and withdrew it), or
     * one {@code timeout} from now. Other operations keep 0.
     */
    static long firstDeadline(long timeout, long deadline) {
        return timeout > 0 && deadline == 0L ? deadline(timeout) : deadline;
    }

    /**
     * What is left of a timed operation's {@code timeout} at its {@code deadline} (at least 1 ns,
     * so a retry after the deadline still waits as a timed operation, which withdraws at once);
     * other timeouts (-1, 0) unchanged.
     */
    static long nanosLeft(long timeout, long deadline) {
        return timeout > 0 ? Math.max(1L, deadline - System.nanoTime()) : timeout;
    }

    /** Converts a timeout to a deadline: 0 means none, which callers avoid by handling 0 first. */
    static long deadline(long timeoutNanos) {
        long d = System.nanoTime() + timeoutNanos;
        return d == 0L ? 1L : d;
    }
}
