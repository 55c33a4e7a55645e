package dev.weft.channels;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The core of a {@link Channel}: its state besides the counters (capacity, close reason, the
 * counts frozen by closing, the spin policy), and the reads of that state that every part of the
 * algorithm shares. The algorithm's parts take a {@code ChannelState}; {@code Channel} adds the
 * public API, the send and receive loops and their fast paths.
 *
 * <h2>Algorithm overview (for maintainers)</h2>
 *
 * <p>The channel is the lock-free rendezvous channel of Koval, Alistarh and Elizarov (segments of
 * cells, 64-bit counters, BROKEN poisoning, descriptor-based select, O(1) segment removal) with the
 * refinements of "Fast and Scalable Channels in Kotlin Coroutines" (PPoPP 2023): cells are claimed
 * by <b>fetch-and-add</b> on separate sender and receiver counters (instead of a CAS after
 * inspecting the queue), and buffered channels add a buffer-end counter. FAA was chosen because it
 * never retries under contention (the PPoPP 2023 paper measures it ahead of CAS); a CAS variant was
 * not built and measured here. Each counter is only ever increased.
 *
 * <p>The channel models an infinite array of cells cut into {@link Segment}s of {@code SIZE}
 * cells. The i-th send attempt (FAA on {@code senders}) and the i-th receive attempt (FAA on {@code
 * receivers}) meet in cell i; each cell has exactly one sender and one receiver. A cell has a state
 * word and an element slot; a sender writes its element into the slot <em>before</em> it changes
 * the state, a receiver reads it <em>after</em>. {@code senders} also carries the closed bits, so a
 * sender learns atomically whether it got a cell or the channel is closed. A buffered channel keeps
 * {@code bufferEnd}: a sender whose cell is below it never waits; each receive moves it forward by
 * one cell ({@link BufferExpansion}), and if that cell holds a waiting sender, the sender is moved
 * into the buffer and resumed.
 *
 * <h3>Where things are</h3>
 *
 * <ul>
 *   <li>{@link Channel}: public API, the send and receive loops, their fast paths, waiting in a cell.
 *   <li>{@link CellUpdates}: the slow paths of a sender's and a receiver's update of its cell.
 *   <li>{@link Withdrawal}: a party gives up its cell (interrupt, timeout, failed try, Error).
 *   <li>{@link BufferExpansion}: moving the buffer end of a buffered channel.
 *   <li>{@link Closing}: done/error, the closing sweep, {@code isClosedForReceive}.
 *   <li>{@link SelectMeeting}: anyone meeting a select's registration in a cell (complete, kill,
 *       refuse, help a Pending); {@link SelectOp}: a select's state machine; {@link
 *       SelectRegistration}: the owner's side (register, wait, withdraw).
 *   <li>{@link Cells}, {@link Segment}, {@link ChannelCounters}: cells, segments, counters.
 *   <li>{@link Waiting}: spin-then-park and the spin policy.
 * </ul>
 *
 * <h3>Cell states</h3>
 *
 * <p>The diagram and the table with one row per transition (writer, from, to, where in the code)
 * are in {@code docs/cell-states.md}. The states: EMPTY ({@code null}), {@code IN_BUFFER}, {@code
 * BUFFERED}, a waiter (thread or select registration), {@code WaiterEB(waiter)}, the transient
 * {@code CLAIMED}, {@code BREAKING} and {@code INTERRUPTING_RCV}, and the final states {@code
 * DONE}, {@code BROKEN}, {@code INTERRUPTED_SEND}, {@code INTERRUPTED_RCV}, {@code CLOSED}. Every transition out of a select registration that needs a
 * decision while holding the cell goes through {@code CLAIMED}: to DONE (a rendezvous), BUFFERED
 * (buffer expansion), CLOSED (closing), an INTERRUPTED state (found dead or refused there), or back
 * to the registration; a registration known to be dead or refused beforehand, or withdrawn by its
 * owner, goes to its INTERRUPTED state in one CAS. A withdrawn cell
 * counts as cleaned, except that in a buffered channel a withdrawn receiver's cell is counted once
 * the buffer end has passed it; a segment with all cells cleaned is unlinked in O(1).
 *
 * <h3>Nobody waits for a registering select</h3>
 *
 * <p>A select is LOCKED while its owner registers its clauses. A plain operation, a try-operation,
 * closing and buffer expansion that meet one of its registrations never wait for it: they refuse
 * the registration (the cell becomes INTERRUPTED, or CLOSED for closing, and the select registers
 * that clause again once it is done registering), so they make progress with any number of
 * carriers. Two registering selects meet in a global order of ids: the one with the larger id
 * refuses; the one with the smaller id publishes a Pending descriptor and <em>parks</em> until the
 * larger one stops registering (which drains and unparks its lock waiters) or helps it (see {@link
 * SelectOp}); that park clears and restores the interrupt flag, or it would spin. (A select of one
 * or two clauses first tries its first clause as a try-operation, before it registers anything;
 * that try refuses a registering select whatever the ids.) The spins that remain are on CLAIMED
 * cells (held by a running thread for a few instructions), on a receiver's in-flight sender (a
 * try-receive, a select's receive clause, a buffered or unlimited channel's receiver: at most 64
 * spins, then the cell is poisoned), a waiting rendezvous sender's or receiver's on its
 * in-flight partner (at most 64 spins, then it parks and the partner wakes it: {@code
 * Waiting.awaitPartnerOnItsWay}), a sender's on a receiver that gave its cell up and moves the
 * buffer end (BREAKING, INTERRUPTING_RCV: one buffer expansion that never yields), and on {@code
 * closedAt} / {@code errorAt} (the next instruction of the thread whose OR set the bit); why they
 * are bounded with one carrier is argued on {@link Waiting#backoff}.
 *
 * <h3>Receive side of completed segments</h3>
 *
 * <p>Every receive that completes (without waiting, after waiting, or as a select clause) and every
 * send that completes a waiting receiver clears its segment's {@code prev}: all receivers are at or
 * beyond that segment, so no operation needs the earlier ones, and the GC can collect them even
 * though they were never counted as cleaned (DONE cells are not). A send that only buffers does
 * not: senders may be far ahead of receivers, and removal still needs the earlier links.
 *
 * <h3>Linearization points</h3>
 *
 * <ul>
 *   <li>send that buffers: the CAS to BUFFERED. Send meeting a waiting receiver: the CAS of the
 *       receiver's state to DONE (or of its select to Selected). A waiting send: the CAS that moves
 *       it to DONE or BUFFERED, made by its receiver or by buffer expansion. A try-send that
 *       claimed a cell within the room it read before its claim ({@link #trySendRoom}): its claim
 *       (the FAA), also when its CAS comes after a close. One that claimed beyond that room (a
 *       concurrent sender took it): its read of the closed bits after it found room ({@link
 *       #closedForLateTrySend}); if they are set it withdraws from its cell and reports the close.
 *       A try-send that claimed within its room and meets a waiting receiver takes effect with it
 *       at its claim, which came after that receiver's: in a rendezvous channel the room is the
 *       receiver count the try-send read, and in a buffered channel a receiver waits only in a
 *       cell that no sender had claimed when it read the sender count. One
 *       that claimed beyond its room and meets a waiting receiver: its read of the closed bits
 *       before its CAS (that receiver may have come after the claim, since a rendezvous receive
 *       installs itself without reading the sender count, see {@link #installsAtOnce}); if they
 *       are set it withdraws the receiver, which tries again in a later cell (where it may still
 *       take a value sent before the close, or finds the close).
 *   <li>receive: its read of BUFFERED (from then on only this receiver writes the cell, and it
 *       stores DONE without a CAS, see {@link CellUpdates#takeBuffered}), or the CAS from the
 *       waiting sender to DONE (or of the sender's select to Selected); for a waiting receive, the
 *       partner's CAS that completes it.
 *   <li>Exception to the two above, in error: a send that read no error and a receive whose FAA
 *       returned no {@code ERROR_BIT} may still make their CAS (or read) after the error's OR.
 *       They take effect just before the OR instead (a rendezvous pair as one step, after both
 *       were invoked; a buffered send after the receive that made its room). See {@link
 *       #errorBeforeCommit}.
 *   <li>error: the OR of {@code ERROR_BIT} into {@code receivers}. A receiver learns from its own
 *       FAA whether it came before (it keeps a value buffered for it) or after (it reports the
 *       error); a sender reads {@code closeReason} before it touches its cell and reports the
 *       error if it is set. The full argument is on {@link #errorBeforeCommit}. So values are
 *       received in FIFO order up to the error, and once anyone observed the error, no receive
 *       that starts later returns a value.
 *   <li>interrupt and timeout: the waiter's CAS from its own waiter state to INTERRUPTED; if that
 *       CAS fails the partner won and the operation completes normally.
 *   <li>failed trySend / tryReceive: the read of the counters that shows no partner, or the CAS to
 *       an INTERRUPTED state in the claimed cell (from EMPTY, or for a receiver also from
 *       IN_BUFFER).
 *   <li>done: the atomic OR of the closed bits into {@code senders} (by the closing thread, or by
 *       whoever read the close reason first, see {@link #setClosedBits}); an error sets them too,
 *       right after its own linearization point. Sends that claimed a cell before it still complete
 *       for done (unless their receiver poisoned the cell or their segment did not exist yet, or
 *       they are try-sends that claimed beyond the room they had seen: then they are refused, as
 *       if they came after the close), and are woken with the error for
 *       error; receivers of cells at or beyond the sender count at that moment ({@code closedAt})
 *       see the channel closed.
 *   <li>{@code isClosedForSend}: the read of the bits. {@code isClosedForReceive} has <em>no</em>
 *       linearization point: it reads the counters and then scans cells that other threads change
 *       meanwhile, so its answer is only a snapshot (true stays true; false may be stale at once).
 *   <li>select: see {@link SelectOp}.
 * </ul>
 *
 * <p>Closing first records the reason, then sets the closed bits (losers of a concurrent close set
 * them too before returning), then closes the segment list so no segment can be appended, then
 * sweeps: from the oldest segment still referenced, it wakes waiting receivers of cells at or
 * beyond the final sender count (done), or every waiter and buffered value it finds (error). A
 * waiting receiver in a cell behind that segment is woken by its own sender, which claimed the
 * cell before the error and reads the error before it touches the cell ({@link
 * Closing#closeOwnSendCell}). A plain rendezvous receiver that installed itself after the closed
 * bits were set, in a cell no sender will come to, closes its own cell before it parks ({@link
 * #noSenderWillCome}), so it does not depend on the closer's sweep.
 */
abstract class ChannelState extends ChannelCounters {
    static final int SIZE = Segment.SIZE;
    static final int UNLIMITED = -1;

    private static final VarHandle CLOSE_REASON;
    private static final VarHandle ID;
    private static final VarHandle SEND_WAIT;
    private static final VarHandle RECEIVE_WAIT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CLOSE_REASON = l.findVarHandle(ChannelState.class, "closeReason", ChannelClosed.class);
            ID = l.findVarHandle(ChannelState.class, "id", long.class);
            SEND_WAIT = l.findVarHandle(ChannelState.class, "sendWait", ChannelWait.Send.class);
            RECEIVE_WAIT = l.findVarHandle(ChannelState.class, "receiveWait", ChannelWait.Receive.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        InternalHooks.install();
    }

    /**
     * How this channel's waiters (and selects whose first clause is on it) spin before parking:
     * see {@link Waiting#virtualSpinCeiling}.
     */
    final Spin spin;

    /** 0: rendezvous; positive: buffered; {@link #UNLIMITED}. */
    final int capacity;

    /** The ids given out so far: only descriptions take one, so creating a channel has no atomic. */
    private static final AtomicLong IDS = new AtomicLong();

    /**
     * Invariant: 0 until the channel is first described; then its id (see {@link #id()}), set
     * once by a CAS from 0 and never changed. Lazy, so that a new channel does not write the
     * JVM-wide {@link #IDS}, a cache line that every thread creating channels would share.
     */
    private volatile long id;

    /** The name given at creation, or {@code null}. */
    final String name;

    /**
     * What a waiting send parks on (thread dumps name the channel and operation). Invariant:
     * {@code null} until a send first waits, then one object for good (set once, by a CAS from
     * {@code null}), so that every wait parks on the same one; see {@link #waitBlocker}.
     */
    private volatile ChannelWait.Send sendWait;

    /** What a waiting receive parks on; the invariant of {@link #sendWait}. */
    private volatile ChannelWait.Receive receiveWait;

    /**
     * Invariant: {@code null} while open; set once, by the winning close, before the closed bits
     * are set in {@code senders}, so whoever sees the bits can read it.
     */
    private volatile ChannelClosed closeReason;

    /**
     * Invariant: -1 while open; then the sender count at the moment the closed bit was set (cells
     * below it have senders; cells at or above it never will). Written once, by the thread whose
     * OR set the bit, right after it.
     */
    private volatile long closedAt = -1L;

    /**
     * Invariant: -1 unless closed in error; then the receiver count at the error's linearization
     * point (the OR of {@code ERROR_BIT} into {@code receivers}): receivers of cells below it came
     * before the error and keep a value that was sent before it. Written once, by the thread whose
     * OR set the bit, right after it.
     */
    private volatile long errorAt = -1L;

    ChannelState(int capacity, String name) {
        super(new Segment(0, null, capacity > 0 ? 3 : 2), capacity, capacity > 0);
        this.capacity = capacity;
        this.name = name;
        this.spin = new Spin(Waiting.virtualSpinCeiling(capacity), Waiting.repeatWaiterParks(capacity), Spin.Start.of(capacity));
    }

    /**
     * Identifies the channel in descriptions (see {@link #describe()}): a positive number, the
     * same on every call, taken from {@link #IDS} by the first call (ids therefore follow the
     * order in which channels are first described, not created). A thread that loses the CAS
     * returns the winner's id; the number it took is skipped.
     */
    final long id() {
        long i = id;
        if (i != 0L) {
            return i;
        }
        long mine = IDS.incrementAndGet();
        long found = (long) ID.compareAndExchange(this, 0L, mine);
        return found == 0L ? mine : found;
    }

    /**
     * The object a waiting send ({@code send}) or receive parks on: the same one for every wait of
     * that kind, made by the first (a channel that never waits makes none).
     */
    final ChannelWait waitBlocker(boolean send) {
        ChannelWait w = send ? sendWait : receiveWait;
        return w != null ? w : newWaitBlocker(send);
    }

    private ChannelWait newWaitBlocker(boolean send) {
        ChannelWait mine = send ? new ChannelWait.Send(this) : new ChannelWait.Receive(this);
        Object found = (send ? SEND_WAIT : RECEIVE_WAIT).compareAndExchange(this, null, mine);
        return found == null ? mine : (ChannelWait) found;
    }

    /** The buffer capacity: 0 for rendezvous, -1 for unlimited. */
    final int capacity() {
        return capacity;
    }

    /**
     * Segments an idle channel may keep reachable, besides those its buffer spans: the ones of the
     * sender, receiver and buffer-end positions, plus one. See {@link #idleSegmentBound()}.
     */
    static final int IDLE_SEGMENTS = 4;

    /**
     * The most segments this channel keeps reachable when no operation is in progress (the bound
     * the memory tests check): {@link #IDLE_SEGMENTS}, plus, for a buffered channel, the segments
     * its buffer spans (up to {@code capacity} values; without births the buffer end also marks
     * the cells it passes, up to {@code capacity} cells ahead of the receivers).
     */
    final int idleSegmentBound() {
        return IDLE_SEGMENTS + (Math.max(capacity, 0) + SIZE - 1) / SIZE;
    }

    /** Names longer than this are cut in descriptions, so that they stay bounded. */
    private static final int MAX_NAME_IN_TEXT = 64;

    /**
     * The channel in a few words: {@code Channel[orders, capacity 16]} when named, {@code
     * Channel#42[capacity 16]} otherwise ({@code capacity unlimited} for an unlimited channel).
     */
    final String describe() {
        return appendIdentity(new StringBuilder(48)).append(']').toString();
    }

    /** Appends the description of {@link #describe()} without its closing bracket. */
    final StringBuilder appendIdentity(StringBuilder sb) {
        sb.append("Channel");
        if (name != null) {
            sb.append('[');
            if (name.length() > MAX_NAME_IN_TEXT) {
                sb.append(name, 0, MAX_NAME_IN_TEXT).append("...");
            } else {
                sb.append(name);
            }
            sb.append(", ");
        } else {
            sb.append('#').append(id()).append('[');
        }
        sb.append("capacity ").append(capacity == UNLIMITED ? "unlimited" : String.valueOf(capacity));
        return sb;
    }

    final ChannelClosed lvCloseReason() {
        return closeReason;
    }

    /** Records {@code reason} unless the channel is closed already; true if it did. */
    final boolean casCloseReason(ChannelClosed reason) {
        return CLOSE_REASON.compareAndSet(this, null, reason);
    }

    /**
     * Whether {@code r}, returned by one of this channel's operations, reports the channel closed
     * rather than being a value: by identity with the close reason, so that a value that happens
     * to be a {@link ChannelClosed} object (sent by a user) is never mistaken for one. The close
     * reason object itself can never be a value of this channel: it exists only once the channel
     * is closed, and then no send succeeds.
     */
    final boolean isCloseSignal(Object r) {
        return r != null && r == closeReason;
    }

    /** The {@link ChannelError} if this channel is closed in error, else {@code null}. */
    final ChannelError errorIfAny() {
        return (lvReceivers() & ERROR_BIT) != 0 ? (ChannelError) closeReason : null;
    }

    /**
     * For a try-send, before it claims a cell: the cells below the returned bound had room or a
     * receiver on its way when it was read, so a try-send that then claims such a cell takes
     * effect at its claim, open (its FAA returned no closed bit) and with room; {@code
     * Long.MAX_VALUE} for an unlimited channel. Room is the buffer end, or the receiver count plus
     * the capacity ({@link #bufferOrRendezvous} says why), whichever is further. The caller reads
     * the sender count {@code s0} first: when {@code s0 >= bound}, then at the moment the receiver
     * count is read there was neither room nor a receiver for the next cell (senders only grows,
     * and the buffer end read later is at least its value then), and the try-send fails there.
     */
    final long trySendRoom() {
        if (capacity == UNLIMITED) {
            return Long.MAX_VALUE;
        }
        long r = lvReceiverCount();
        return capacity > 0 ? Math.max(r + capacity, lvBufferEnd()) : r;
    }

    /**
     * Whether cell {@code s}'s sender can buffer its value instead of waiting: the cell is within
     * the buffer, or its receiver is on its way. (A plain send in a rendezvous channel does not
     * ask: it installs itself, see {@link #installsAtOnce}.) Only receivers that came before an error count
     * ({@link #receiversLimit}): the sender read no error before it got here, so its send
     * linearizes before the error, and then it may only complete with a partner from before it.
     *
     * <p>The cell is within the buffer below the buffer end, or below the receiver count plus
     * the capacity: a receive counts itself (its FAA) before it moves the buffer end (after its
     * install, its take, or giving its cell up), and a select's receive registration that a
     * sender refused while the select was still registering is as if it never came, so its room
     * must be there at once ({@code TrySendBesideRegisteringSelectTest}). A receive that counts
     * itself and moves no buffer end takes no room: its cell is dead for its sender too, which
     * skips it; or it came after an error (not in the limit); or it found the channel done with
     * no sender for its cell, above every sender's cell. An {@link Error} between a receive's
     * install and its move leaves the buffer end one short for good; this count makes up for it.
     * kotlinx.coroutines' {@code BufferedChannel} counts room the same way.
     */
    final boolean bufferOrRendezvous(long s) {
        if (capacity == UNLIMITED || (capacity > 0 && s < lvBufferEnd())) {
            return true; // the buffer end first: when it says yes, the receivers' line is not read
        }
        return s < receiversLimit() + capacity;
    }

    /**
     * Whether the sender or receiver of an EMPTY cell that may wait there, {@code waiter},
     * installs itself without reading the other side's count first: an operation that may wait (a
     * thread: {@code send} or {@code receive}, or one with a timeout) in a rendezvous channel.
     *
     * <p>Reading the count costs the first of a pair to reach a cell a read of the line its
     * partner writes with every operation, and the partner's next FAA a write to a line that is
     * now shared. The reading sender buffered its value when the cell's receiver was already on
     * its way ({@link #bufferOrRendezvous}); the reading receiver waited up to 64 spins for a
     * sender on its way and then poisoned the cell, and returned the close without touching its
     * cell when no sender would come. For the sender, installing at once reaches only states the
     * reading sender reaches too (the receiver's FAA can come between the read and the CAS), and
     * the receiver completes it as any waiting sender. For the receiver, three things follow that
     * the code handles:
     *
     * <ul>
     *   <li>it may wait in a cell whose sender claimed it first, so a try-send that claimed its
     *       cell beyond the room it had seen and meets a waiting receiver reads the closed bits
     *       before it completes it ({@link CellUpdates#updateCellSendSlow}; before, such a
     *       receiver had seen no sender for its cell, so it came before the claim);
     *   <li>one that starts after a close would wait for the closer's sweep, so before it parks
     *       it closes its own cell when no sender will come ({@link #noSenderWillCome}, {@code
     *       Waiting.closeIfNoSenderWillCome});
     *   <li>its sender (and, since the sender side of this change, a send's receiver) no longer
     *       gives up on a partner that claimed the cell and never comes, so an Error between a
     *       claim and the cell gives the cell up ({@link #segmentOfClaimed}).
     * </ul>
     *
     * <p>The waiter, if it would park, first spins while its partner is on its way ({@link
     * #partnerOnItsWay}). Try-operations (they may not wait) and select clauses keep the read.
     */
    final boolean installsAtOnce(Object waiter) {
        return capacity == 0 && waiter instanceof Thread;
    }

    /**
     * {@link #segmentOf} for the cell {@code c} that the caller has just claimed: an Error or
     * exception thrown while finding it (a StackOverflowError; an OutOfMemoryError allocating the
     * segment, after which a partner may still create the segment and come to the cell) gives
     * the cell up before it propagates ({@link Withdrawal#abandonUnresolvedCell}), as one thrown
     * later in the operation does, so that a partner does not wait in the cell for ever. (A
     * plain rendezvous partner waits there without reading the counts; before, it gave up after
     * 64 spins, or, a sender, buffered a value nobody would take.) Best effort: the recovery finds
     * the segment again, which repeats the work that failed (with a shallower stack, and maybe
     * with memory freed meanwhile); if that fails too, or a StackOverflowError comes between the
     * FAA and this method's {@code try}, the cell stays claimed (the known limit on {@link
     * Withdrawal}).
     */
    final Segment segmentOfClaimed(boolean send, Segment seg, long c) {
        try {
            Faults.at(Faults.CELL_RESOLVING);
            return segmentOf(send, seg, c);
        } catch (Error | RuntimeException e) {
            Withdrawal.abandonUnresolvedCell(this, send, seg, c, e);
            throw e;
        }
    }

    /**
     * Whether no sender will ever come to cell {@code index}: the channel is closed (done or
     * error) and the cell is at or beyond the sender count the close froze. It reads {@code
     * closeReason} first (written once, on a line nobody writes on the hot path: JOL 0.17 on
     * JDK 25 puts it at offset 604 of 616, beside fields written only at construction or by a
     * close; see {@code docs/PERFORMANCE.md}), and the sender count (a line the senders write)
     * only once a close has begun: a close records its reason before it sets the closed bits, so
     * a caller that installed itself after the bits were set sees the reason.
     */
    final boolean noSenderWillCome(long index) {
        return closeReason != null && (lvSenders() & CLOSED_BIT) != 0 && index >= sendersAtClose();
    }

    /**
     * Whether the partner of the sender ({@code send}) or receiver of cell {@code index} has
     * claimed the cell: the other side's count, bounded as {@link #bufferOrRendezvous} and {@link
     * CellUpdates#updateCellReceiveSlow} bound it at a close or an error, is beyond it.
     */
    final boolean partnerOnItsWay(boolean send, long index) {
        return (send ? receiversLimit() : sendersLimit(lvSenders())) > index;
    }

    /**
     * Whether a try-send that claimed a cell beyond the room it had seen ({@link #trySendRoom}:
     * another sender took that room first) and has now found room for it ({@link
     * #bufferOrRendezvous}) must report the channel closed instead of buffering its value: the
     * closed bits are set. That room may have been made by a receive that came after the close
     * (the buffer end moves with every receive), and a try-send has to take effect at one moment
     * inside its call. Seeing room and then no closed bits gives that moment: the read of the
     * bits, when the room exists (it only grows) and the channel is open. Seeing the bits,
     * reporting the close is right as well: the close came before the read.
     */
    final boolean closedForLateTrySend() {
        return (lvSenders() & CLOSED_BIT) != 0;
    }

    /**
     * The cells that have or will have a receiver: the receiver count, or once the channel is in
     * error the count at the error ({@code errorAt}). A receive counted after the error reports it
     * without touching its cell, so it is no partner for a sender (ErrorVsCommittingSenderTest;
     * before, a rendezvous send that read no error, then met that count, buffered its value and
     * returned, and the error's sweep discarded the value; a plain rendezvous send no longer
     * reads the count, so the bound applies there to try-sends and select send clauses).
     */
    final long receiversLimit() {
        long r = lvReceivers();
        return (r & ERROR_BIT) == 0 ? r : receiversAtError();
    }

    /**
     * Sets the closed bits for {@code reason} (already in {@code closeReason}) unless they are set:
     * the closing thread does it, and so does anyone who read {@code closeReason} before the bits
     * were set and is about to act on it (a loser of a concurrent close, a sender refused by
     * {@link #errorBeforeCommit}), so nobody reports the channel closed while sends still succeed.
     *
     * <p>For an error, first {@code ERROR_BIT} is ORed into {@code receivers}: that is the error's
     * linearization point, and {@code errorAt} records the receiver count it froze. Then, for done
     * and error, the closed bits are ORed into {@code senders}; for done that OR is the
     * linearization point and {@code closedAt} records the sender count it froze. Whoever's OR set
     * a bit publishes the count right after it (no call in between can throw), and readers of the
     * count spin only across that gap.
     */
    final void setClosedBits(ChannelClosed reason) {
        if (reason instanceof ChannelError && (lvReceivers() & ERROR_BIT) == 0) {
            long before = getAndOrReceivers(ERROR_BIT); // the error's linearization point
            if ((before & ERROR_BIT) == 0) {
                errorAt = before & COUNT_MASK;
            }
        }
        if ((lvSenders() & CLOSED_BIT) != 0) {
            return;
        }
        long bits = CLOSED_BIT | (reason instanceof ChannelError ? ERROR_BIT : 0L);
        long before = getAndOrSenders(bits);
        if ((before & CLOSED_BIT) == 0) {
            closedAt = before & COUNT_MASK;
        }
    }

    /**
     * Read by every sender after it claimed its cell and before it changes it (buffers, waits, or
     * completes a waiting receiver), and by a select helping a Pending pair before it commits:
     * {@code null} when the channel is not in error; otherwise the error, after making sure its
     * bits are set, and the caller must not commit in the cell: a sender closes it ({@link
     * Closing#closeOwnSendCell}, since the error's sweep may never reach it); a select helping a
     * Pending partner does not complete that rendezvous and releases the partner, which reads its
     * cell again.
     *
     * <p>Why this makes {@code error()} atomic, the receivers' side being decided by their FAA on
     * {@code receivers}:
     *
     * <ul>
     *   <li>{@code closeReason} is set before {@code ERROR_BIT}, so a sender that reads {@code null}
     *       here read it before the error's linearization point, and it completes only with a
     *       partner from before that point too: a receiver whose FAA returned no bit ({@link
     *       #receiversLimit} bounds the receiver count by {@code errorAt}), or room in the buffer
     *       (only receivers from before the error and withdrawals move the buffer end). Its send
     *       then takes effect just before the error's OR, even if its CAS comes later. Otherwise
     *       it waits, and the sweep wakes it with the error. (A plain rendezvous send always waits,
     *       {@link #installsAtOnce}: the receiver that completes it is then one whose FAA
     *       returned no bit, since a receiver whose FAA returned it touches no cell.) A sender that reads the error closes
     *       its own cell, waking a receiver waiting there, and reports it; if it came before the
     *       bit, it sets the bit first.
     *   <li>A receiver whose FAA returned no {@code ERROR_BIT} came before the error, so it keeps
     *       a value buffered in its cell: the sweep leaves buffered values in cells below {@code
     *       errorAt} (it still wakes a sender waiting there with the error, and that receiver then
     *       reports the error too: neither completed before it). A receiver whose FAA returned the
     *       bit reports the error without touching its cell. So values are taken in FIFO order up to the error, and none after it: once
     *       anyone observed the error (the bit, or {@code closeReason} plus setting the bit), every
     *       receive that starts later gets the bit from its FAA.
     * </ul>
     */
    final ChannelError errorBeforeCommit() {
        if (closeReason instanceof ChannelError e) {
            setClosedBits(e);
            return e;
        }
        return null;
    }

    /**
     * The number of senders that claimed a cell before the channel closed (later attempts still
     * increment the counter, but are refused). Only after {@code CLOSED_BIT} was seen.
     */
    final long sendersAtClose() {
        return awaitPublished(true);
    }

    /**
     * The receiver count at the error's linearization point (cells below it have receivers that
     * came before the error). Only after {@code ERROR_BIT} was seen in {@code receivers}.
     */
    final long receiversAtError() {
        return awaitPublished(false);
    }

    /** Reads {@code closedAt} or {@code errorAt}, spinning while the thread that set the bit is about to publish it. */
    private long awaitPublished(boolean closed) {
        long c;
        int step = 0;
        while ((c = closed ? closedAt : errorAt) < 0) {
            step = Waiting.backoff(step);
        }
        return c;
    }

    /** The cells that have or will have a sender, given a read {@code w} of {@code senders}. */
    final long sendersLimit(long w) {
        long count = w & COUNT_MASK;
        return (w & CLOSED_BIT) == 0 ? count : Math.min(count, sendersAtClose());
    }

    /** Whether the channel is closed for sending: the read of the bits. */
    final boolean closedBitsSet() {
        // an error takes effect at its OR into receivers, before senders gets its bits
        return (lvSenders() & CLOSED_BIT) != 0 || (lvReceivers() & ERROR_BIT) != 0;
    }
}
