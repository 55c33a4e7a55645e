package dev.weft.channels;

import static dev.weft.channels.Cells.BROKEN;
import static dev.weft.channels.Cells.BUFFERED;
import static dev.weft.channels.Cells.CLAIMED;
import static dev.weft.channels.Cells.CLOSED;
import static dev.weft.channels.Cells.DONE;
import static dev.weft.channels.Cells.INTERRUPTED_RCV;
import static dev.weft.channels.Cells.INTERRUPTED_SEND;
import static dev.weft.channels.Cells.IN_BUFFER;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;

/*
 * Maintainer notes (a block comment, not javadoc: they stay out of the published API docs).
 *
 * <h2>Algorithm overview (for maintainers)</h2>
 *
 * <p>The channel is the lock-free rendezvous channel of Koval, Alistarh and Elizarov (seed 002:
 * segments of cells, 64-bit counters, BROKEN poisoning, descriptor-based select, O(1) segment
 * removal) with the refinements of "Fast and Scalable Channels in Kotlin Coroutines" (PPoPP 2023):
 * cells are claimed by <b>fetch-and-add</b> on separate sender and receiver counters (instead of the
 * paper's CAS after inspecting the queue), and buffered channels add a buffer-end counter. FAA was
 * chosen because it never retries under contention (the PPoPP 2023 paper measures it ahead of
 * CAS); a CAS variant was not built and measured here. Each counter is only ever increased.
 *
 * <p>The channel models an infinite array of cells cut into {@link Segment}s of {@code SIZE}
 * cells. The i-th send attempt (FAA on {@code senders}) and the i-th receive attempt (FAA on {@code
 * receivers}) meet in cell i; each cell has exactly one sender and one receiver. A cell has a state
 * word and an element slot; a sender writes its element into the slot <em>before</em> it changes
 * the state, a receiver reads it <em>after</em>. {@code senders} also carries the closed bits, so a
 * sender learns atomically whether it got a cell or the channel is closed. A buffered channel keeps
 * {@code bufferEnd}: a sender whose cell is below it never waits; each receive moves it forward by
 * one cell ({@link #expandBuffer()}), and if that cell holds a waiting sender, the sender is moved
 * into the buffer and resumed.
 *
 * <h3>Cell states (who writes them, from which states)</h3>
 *
 * <ul>
 *   <li>{@code null} (EMPTY): initial.
 *   <li>{@code IN_BUFFER}: buffer expansion, from EMPTY: it marks every cell it passes before
 *       the cell's sender arrived (so that a receiver withdrawing there later knows the buffer
 *       end has counted the cell).
 *   <li>{@code BUFFERED}: the sender, from EMPTY or IN_BUFFER, when its cell is below {@code
 *       bufferEnd} or its receiver already claimed the cell; buffer expansion, from a waiting
 *       sender (thread or select), moving it into the buffer.
 *   <li>a waiting {@link Thread} or a registered {@link SelectOp}: the sender or receiver, from
 *       EMPTY (or IN_BUFFER, for a receiver), when it has to wait.
 *   <li>{@code WaiterEB(waiter)}: buffer expansion, from a waiter, when the cell's receiver is
 *       already on its way (see {@link Cells.WaiterEB}).
 *   <li>{@code CLAIMED} (transient): any thread completing, killing or refusing a registered
 *       select, from the select's registration; it is replaced by DONE, BUFFERED, CLOSED, an
 *       INTERRUPTED state, or the registration again, without waiting in between.
 *   <li>{@code DONE}: the partner that completes a rendezvous, from a waiter or CLAIMED; the
 *       receiver, from BUFFERED.
 *   <li>{@code BROKEN}: the receiver, from EMPTY or IN_BUFFER, when its sender is still on its way
 *       (poisoning); both retry with new cells.
 *   <li>{@code INTERRUPTED_SEND} / {@code INTERRUPTED_RCV}: the waiter itself (interrupt, timeout),
 *       from its own waiter state; a failed try-operation, from EMPTY; whoever claimed a dead
 *       select registration (the partner, buffer expansion, the select's own cleanup), from
 *       CLAIMED; anyone refusing the registration of a select that is still registering (a plain
 *       or try-operation, closing, buffer expansion, or a select with a larger id: that select
 *       then registers the clause again); an operation hit by an Error, from its own cell
 *       (see "An Error inside an operation" below). The cell is then counted as
 *       cleaned, except that in a buffered channel a withdrawn receiver's cell is counted once the
 *       buffer end has passed it; a segment with all cells cleaned is unlinked in O(1).
 *   <li>{@code CLOSED}: closing, from EMPTY, IN_BUFFER, a waiter it wakes, and (error only)
 *       BUFFERED, whose value is discarded; a receiver refused by the error, from BUFFERED.
 * </ul>
 *
 * <p>Every CAS site, with its from and to states and why no other thread can be mid-way, is
 * tabulated in {@link Cells}.
 *
 * <h3>Nobody waits for a registering select</h3>
 *
 * <p>A select is LOCKED while its owner registers its clauses. A plain operation, a try-operation,
 * closing and buffer expansion that meet one of its registrations never wait for it: they refuse
 * the registration (the cell becomes INTERRUPTED, or CLOSED for closing, and the select registers
 * that clause again once it is done registering), so they make progress with any number of
 * carriers. Two registering selects meet in a global order of ids: the one with the larger id
 * refuses; the one with the smaller id publishes a Pending descriptor and <em>parks</em> until
 * the larger one stops registering (which drains and unparks its lock waiters) or helps it (see
 * {@link SelectOp}); that park clears and restores the interrupt flag, or it would spin. The
 * spins that remain are on CLAIMED cells (held by a running thread for a few instructions), on a
 * receiver's in-flight sender (at most 64 spins, then the cell is poisoned) and on {@code
 * closedAt} / {@code errorAt} (the next instruction of the thread whose OR set the bit); why they
 * are bounded with one carrier is argued on {@code Waiting.backoff}.
 *
 * <h3>Receive side of completed segments</h3>
 *
 * <p>Every receive that completes (without waiting, after waiting, or as a select clause) and every
 * send that completes a waiting receiver clears its segment's {@code prev}: all receivers are at
 * or beyond that segment, so no operation needs the earlier ones, and the GC can collect them even
 * though they were never counted as cleaned (DONE cells are not). A send that only buffers does
 * not: senders may be far ahead of receivers, and removal still needs the earlier links.
 *
 * <h3>Linearization points</h3>
 *
 * <ul>
 *   <li>send that buffers: the CAS to BUFFERED. Send meeting a waiting receiver: the CAS of the
 *       receiver's state to DONE (or of its select to Selected). A waiting send: the CAS that moves
 *       it to DONE or BUFFERED, made by its receiver or by buffer expansion.
 *   <li>receive: the CAS from BUFFERED or from the waiting sender to DONE (or of the sender's
 *       select to Selected); for a waiting receive, the partner's CAS that completes it.
 *   <li>error: the OR of {@code ERROR_BIT} into {@code receivers}. A receiver learns from its own
 *       FAA whether it came before (it keeps a value sent before the error) or after (it reports
 *       the error); a sender reads {@code closeReason} before it touches its cell and reports the
 *       error if it is set. The full argument is on {@code errorBeforeCommit}. So values are
 *       received in FIFO order up to the error, and once anyone observed the error, no receive
 *       that starts later returns a value.
 *   <li>interrupt and timeout: the waiter's CAS from its own waiter state to INTERRUPTED; if that
 *       CAS fails the partner won and the operation completes normally.
 *   <li>failed trySend / tryReceive: the read of the counters that shows no partner, or the CAS
 *       to an INTERRUPTED state in the claimed cell.
 *   <li>done: the atomic OR of the closed bits into {@code senders} (by the closing thread, or by
 *       whoever read the close reason first, see {@code setClosedBits}); an error sets them too,
 *       right after its own linearization point. Sends that claimed
 *       a cell before it still complete for done (unless their receiver poisoned the cell or their
 *       segment did not exist yet: then they are refused, as if they came after the close), and
 *       are woken with the error for error; receivers of cells at or beyond the sender count at
 *       that moment ({@code closedAt}) see the channel closed.
 *   <li>select: see {@link SelectOp}.
 * </ul>
 *
 * <p>Closing first records the reason, then sets the closed bits (losers of a concurrent close set
 * them too before returning), then closes the segment list so no segment can be appended, then
 * sweeps: from the oldest segment still referenced, it wakes waiting receivers of cells at or
 * beyond the final sender count (done), or every waiter and buffered value (error).
 */
/**
 * A Go-style channel: rendezvous, buffered or unlimited, closable as done or in error, usable from
 * virtual and platform threads. See {@link Source} and {@link Sink} for the operations and {@link
 * Select} for selecting among several channels.
 *
 * @param <T> the type of values
 */
public final class Channel<T> extends ChannelCounters implements Source<T>, Sink<T> {
    private static final int SIZE = Segment.SIZE;
    private static final int UNLIMITED = -1;

    /**
     * The capacity of {@link #newBufferedDefaultChannel()}: 16 (as jox's {@code
     * Channel.DEFAULT_BUFFER_SIZE}).
     */
    public static final int DEFAULT_BUFFER_SIZE = 16;

    // results of the cell updates
    private static final int R_DONE = 0;
    private static final int R_INSTALLED = 1;
    private static final int R_FAILED = 2;
    private static final int R_CLOSED = 3;
    private static final int R_NO_WAITER = 4;
    private static final int R_HELPED = 5;
    private static final Cells.Marker RCV_INSTALLED = new Cells.Marker("RCV_INSTALLED");
    private static final Cells.Marker RCV_FAILED = new Cells.Marker("RCV_FAILED");
    private static final Cells.Marker RCV_CLOSED = new Cells.Marker("RCV_CLOSED");
    private static final Cells.Marker RCV_NO_WAITER = new Cells.Marker("RCV_NO_WAITER");
    private static final Cells.Marker RCV_HELPED = new Cells.Marker("RCV_HELPED");

    // results of meeting a registered select
    private static final int M_DONE = 0;
    private static final int M_DEAD = 1;
    private static final int M_RETRY = 2;
    /** The current select was helped: its rendezvous happened in this very cell. */
    private static final int M_HELPED_HERE = 3;
    /** The current select helped its partner and completed in another cell; this one is dead. */
    private static final int M_HELPED_ELSEWHERE = 4;
    private static final int M_REFUSED = 5;

    private static final VarHandle CLOSE_REASON;

    static {
        try {
            CLOSE_REASON =
                    MethodHandles.lookup()
                            .findVarHandle(Channel.class, "closeReason", ChannelClosed.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How long this channel's waiters spin before parking; learned per channel. */
    private final Waiting.Spin spin = new Waiting.Spin();

    Waiting.Spin spinPolicy() {
        return spin;
    }

    /** 0: rendezvous; positive: buffered; {@link #UNLIMITED}. */
    private final int capacity;

    private static final AtomicLong IDS = new AtomicLong();

    /** Identifies the channel in descriptions; see {@link #describe()}. */
    private final long id = IDS.incrementAndGet();

    /** The name given at creation, or {@code null}. */
    private final String name;

    /** What a waiting send parks on (thread dumps name the channel and operation). */
    private final ChannelWait.Send sendWait = new ChannelWait.Send(this);

    /** What a waiting receive parks on. */
    private final ChannelWait.Receive receiveWait = new ChannelWait.Receive(this);

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

    /**
     * Creates a rendezvous channel, like {@link #newRendezvousChannel()}. (jox 1.x creates channels
     * only through the factories; its 0.x constructors behaved like these.)
     */
    public Channel() {
        this(0);
    }

    /**
     * Creates a channel with the given buffer capacity: 0 is a rendezvous channel, a positive
     * capacity a buffered channel, and -1 an unlimited channel, like {@link
     * #newBufferedChannel(int)} (and jox's factories).
     *
     * @param capacity the buffer capacity: 0, positive, or -1 for unlimited
     * @throws IllegalArgumentException when {@code capacity} is below -1
     */
    public Channel(int capacity) {
        this(checkCapacity(capacity), true);
    }

    private Channel(int capacity, boolean validated) {
        this(capacity, (String) null);
    }

    private Channel(int capacity, String name) {
        super(new Segment(0, null, capacity > 0 ? 3 : 2), capacity, capacity > 0);
        this.capacity = capacity;
        this.name = name;
    }

    private static int checkCapacity(int capacity) {
        if (capacity < UNLIMITED) {
            throw new IllegalArgumentException("capacity must be 0 (rendezvous), positive (buffered) or -1"
                    + " (unlimited), was " + capacity);
        }
        return capacity;
    }

    /**
     * Creates a rendezvous channel: a send waits for a receiver and vice versa.
     *
     * @param <T> the type of values
     * @return a new channel
     */
    public static <T> Channel<T> newRendezvousChannel() {
        return new Channel<>(0);
    }

    /**
     * Creates a buffered channel: sends complete without a receiver while fewer than {@code
     * capacity} values are buffered.
     *
     * @param capacity the buffer capacity; 0 creates a rendezvous channel and -1 an unlimited one
     *     (as in jox)
     * @param <T> the type of values
     * @return a new channel
     * @throws IllegalArgumentException when {@code capacity} is below -1
     */
    public static <T> Channel<T> newBufferedChannel(int capacity) {
        return new Channel<>(capacity);
    }

    /**
     * Creates a buffered channel with the default capacity, {@link #DEFAULT_BUFFER_SIZE} (16).
     *
     * @param <T> the type of values
     * @return a new channel
     */
    public static <T> Channel<T> newBufferedDefaultChannel() {
        return new Channel<>(DEFAULT_BUFFER_SIZE);
    }

    /**
     * Creates an unlimited channel: sends never wait.
     *
     * @param <T> the type of values
     * @return a new channel
     */
    public static <T> Channel<T> newUnlimitedChannel() {
        return new Channel<>(UNLIMITED, true);
    }

    /**
     * Creates a named rendezvous channel. The name shows in {@link #toString()}, in what a
     * waiting thread parks on ({@link java.util.concurrent.locks.LockSupport#getBlocker}) and in
     * the JFR events; it has no other effect.
     *
     * @param name the name, not {@code null}
     * @param <T> the type of values
     * @return a new channel
     */
    public static <T> Channel<T> newRendezvousChannel(String name) {
        return new Channel<>(0, Objects.requireNonNull(name, "name"));
    }

    /**
     * Creates a named buffered channel (see {@link #newBufferedChannel(int)} and {@link
     * #newRendezvousChannel(String)}).
     *
     * @param name the name, not {@code null}
     * @param capacity the buffer capacity: 0 creates a rendezvous channel, -1 an unlimited one
     * @param <T> the type of values
     * @return a new channel
     * @throws IllegalArgumentException when {@code capacity} is below -1
     */
    public static <T> Channel<T> newBufferedChannel(String name, int capacity) {
        return new Channel<>(checkCapacity(capacity), Objects.requireNonNull(name, "name"));
    }

    /**
     * Creates a named buffered channel with the default capacity, 16.
     *
     * @param name the name, not {@code null}
     * @param <T> the type of values
     * @return a new channel
     */
    public static <T> Channel<T> newBufferedDefaultChannel(String name) {
        return new Channel<>(DEFAULT_BUFFER_SIZE, Objects.requireNonNull(name, "name"));
    }

    /**
     * Creates a named unlimited channel.
     *
     * @param name the name, not {@code null}
     * @param <T> the type of values
     * @return a new channel
     */
    public static <T> Channel<T> newUnlimitedChannel(String name) {
        return new Channel<>(UNLIMITED, Objects.requireNonNull(name, "name"));
    }

    /**
     * The name given at creation.
     *
     * @return the name, or {@code null} for an unnamed channel
     */
    public String name() {
        return name;
    }

    /** The effective segment size (the {@code weft.segmentSize} property, default 32). */
    static int segmentSize() {
        return SIZE;
    }

    // =============================================================================================
    // Sending
    // =============================================================================================

    @Override
    public void send(T value) throws InterruptedException {
        Object r = sendOrClosed(value);
        if (r != null) {
            throw ((ChannelClosed) r).toException();
        }
    }

    @Override
    public Object sendOrClosed(T value) throws InterruptedException {
        Objects.requireNonNull(value, "value");
        return doSend(value, -1L, null, 0);
    }

    @Override
    public boolean trySend(T value) {
        Object r = trySendOrClosed(value);
        if (r instanceof ChannelClosed c) {
            throw c.toException();
        }
        return r == null;
    }

    @Override
    public Object trySendOrClosed(T value) {
        Objects.requireNonNull(value, "value");
        try {
            return doSend(value, 0L, null, 0);
        } catch (InterruptedException e) {
            throw new AssertionError("a try-operation never waits", e);
        }
    }

    @Override
    public boolean trySend(T value, Duration timeout) throws InterruptedException {
        Object r = trySendOrClosed(value, timeout);
        if (r instanceof ChannelClosed c) {
            throw c.toException();
        }
        return r == null;
    }

    @Override
    public Object trySendOrClosed(T value, Duration timeout) throws InterruptedException {
        Objects.requireNonNull(value, "value");
        return doSend(value, timeoutNanos(timeout), null, 0);
    }

    /**
     * The send loop, for plain sends and for registering select clause {@code k} of {@code op}
     * (LOCKED by the current thread; then {@code timeout} is ignored).
     *
     * @param timeout -1: wait as long as needed; 0: never wait; positive: nanoseconds
     * @return plain: {@code null} when sent, {@link Sink#NOT_SENT}, or a {@link ChannelClosed};
     *     select: {@link #REG_SENT}, {@link #REG_INSTALLED}, {@link #REG_HELPED} or a {@link
     *     ChannelClosed}
     */
    private Object doSend(Object value, long timeout, SelectOp op, int k)
            throws InterruptedException {
        if (op == null && timeout == 0L && !canSendNow()) {
            ChannelClosed c = closedForSend();
            return c != null ? c : NOT_SENT;
        }
        Segment seg = sendSegment();
        while (true) {
            long w = getAndIncSenders();
            if ((w & CLOSED_BIT) != 0) {
                return closeReason;
            }
            long s = w & COUNT_MASK;
            long id = s / SIZE;
            int i = (int) (s % SIZE);
            if (seg.id != id) {
                seg = findSendSegment(seg, id);
                if (seg == null) {
                    return closeReason;
                }
                if (seg.id != id) {
                    continue;
                }
            }
            Object waiter;
            if (op != null) {
                op.segs[k] = seg;
                op.idx[k] = i;
                waiter = op;
            } else {
                waiter = timeout == 0L ? null : Thread.currentThread();
            }
            int res;
            try {
                Faults.at(Faults.SEND_CLAIMED);
                res = updateCellSend(seg, i, s, value, waiter, op);
                if (res == R_INSTALLED && op == null) {
                    return awaitSendObserved(seg, i, (Thread) waiter, timeout);
                }
            } catch (Error | RuntimeException e) {
                abandonSendCell(seg, i, waiter);
                throw e;
            }
            switch (res) {
                case R_DONE:
                    return op == null ? null : REG_SENT;
                case R_INSTALLED:
                    return REG_INSTALLED;
                case R_HELPED:
                    return REG_HELPED;
                case R_FAILED:
                    continue;
                case R_CLOSED:
                    return closeReason;
                case R_NO_WAITER:
                    return NOT_SENT;
                default:
                    throw new AssertionError();
            }
        }
    }

    /**
     * Whether a send would complete without waiting now (used by try-sends). The sender count is
     * read first: when the answer is no, then at the moment receivers is read both conditions
     * fail (senders only grows, bufferEnd read later is at least its value then).
     */
    private boolean canSendNow() {
        long s = senders() & COUNT_MASK;
        return capacity == UNLIMITED || s < receivers() || (capacity > 0 && s < bufferEnd());
    }

    /** Whether cell {@code s}'s sender can buffer its value instead of waiting. */
    private boolean bufferOrRendezvous(long s) {
        return capacity == UNLIMITED || (capacity > 0 && s < bufferEnd()) || s < receivers();
    }

    private Object awaitSend(Segment seg, int i, Thread me, long timeout) throws InterruptedException {
        long deadline = timeout > 0 ? Waiting.deadline(timeout) : 0L;
        Object st = Waiting.awaitCell(seg, i, me, deadline, spin, sendWait);
        boolean interrupted = st == Waiting.INTERRUPTED;
        if (interrupted || st == Waiting.TIMED_OUT) {
            while (true) {
                Object cur = seg.state(i);
                if (Waiting.holds(cur, me)) {
                    if (seg.casState(i, cur, INTERRUPTED_SEND)) {
                        seg.setElement(i, null);
                        seg.onCellCleaned();
                        if (cur instanceof Cells.WaiterEB) {
                            expandBuffer();
                        }
                        if (interrupted) {
                            throw new InterruptedException();
                        }
                        return NOT_SENT;
                    }
                    continue;
                }
                // the partner won the race: complete normally, keep the interrupt visible
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                st = cur;
                break;
            }
        }
        if (st == CLOSED) {
            seg.setElement(i, null);
            return closeReason;
        }
        return null; // DONE or BUFFERED
    }

    /**
     * Processes cell {@code i} of {@code seg} for the sender of cell {@code s}, whose element is
     * {@code value}.
     *
     * @param waiter the waiting thread, or {@code null} for a try-send (never waits)
     * @param self the registering select (then {@code waiter} is that select), or {@code null}
     */
    private int updateCellSend(Segment seg, int i, long s, Object value, Object waiter, SelectOp self) {
        if (closeReason != null && errorBeforeCommit() != null) {
            return R_CLOSED; // the error's sweep closes the cell and wakes its receiver
        }
        seg.setElement(i, value);
        // fast path: an empty cell that can take the value right away
        if (seg.state(i) == null && bufferOrRendezvous(s) && seg.casState(i, null, BUFFERED)) {
            return R_DONE;
        }
        return updateCellSendSlow(seg, i, s, waiter, self);
    }

    private int updateCellSendSlow(Segment seg, int i, long s, Object waiter, SelectOp self) {
        int step = 0;
        while (true) {
            Object st = seg.state(i);
            if (st == null) {
                if (bufferOrRendezvous(s)) {
                    if (seg.casState(i, null, BUFFERED)) {
                        return R_DONE;
                    }
                } else if (waiter == null) {
                    if (seg.casState(i, null, INTERRUPTED_SEND)) {
                        seg.setElement(i, null);
                        seg.onCellCleaned();
                        return R_NO_WAITER;
                    }
                } else if (seg.casState(i, null, waiter)) {
                    return R_INSTALLED;
                }
                continue;
            }
            if (st == IN_BUFFER) {
                if (seg.casState(i, IN_BUFFER, BUFFERED)) {
                    return R_DONE;
                }
                continue;
            }
            if (st == BROKEN || st == INTERRUPTED_RCV) {
                seg.setElement(i, null);
                return R_FAILED;
            }
            if (st == CLOSED) {
                seg.setElement(i, null);
                return R_CLOSED;
            }
            if (st == CLAIMED) {
                step = Waiting.backoff(step); // CLAIMED is transient (see Waiting.backoff)
                continue;
            }
            Object w = Cells.unwrap(st);
            if (w instanceof Thread t) { // a waiting receiver: the element is already in the slot
                if (seg.casState(i, st, DONE)) {
                    LockSupport.unpark(t);
                    seg.cleanPrev(); // the receivers are here: earlier segments are done with
                    return R_DONE;
                }
                continue;
            }
            if (w instanceof SelectOp op) {
                int m = meetSelect(seg, i, st, op, true, self);
                if (m == M_DONE) {
                    seg.cleanPrev();
                    return R_DONE;
                }
                if (m == M_RETRY) {
                    continue;
                }
                if (m == M_HELPED_HERE) {
                    return R_HELPED; // our element stays for the partner
                }
                seg.setElement(i, null);
                return m == M_HELPED_ELSEWHERE ? R_HELPED : R_FAILED;
            }
            throw new AssertionError("unexpected cell state " + st);
        }
    }

    // =============================================================================================
    // Receiving
    // =============================================================================================

    @Override
    public T receive() throws InterruptedException {
        return valueOrThrow(receiveOrClosed());
    }

    @Override
    public Object receiveOrClosed() throws InterruptedException {
        return doReceive(-1L, null, 0);
    }

    @Override
    public T tryReceive() {
        return valueOrThrow(tryReceiveOrClosed());
    }

    @Override
    public Object tryReceiveOrClosed() {
        try {
            return doReceive(0L, null, 0);
        } catch (InterruptedException e) {
            throw new AssertionError("a try-operation never waits", e);
        }
    }

    @Override
    public T tryReceive(Duration timeout) throws InterruptedException {
        return valueOrThrow(tryReceiveOrClosed(timeout));
    }

    @Override
    public Object tryReceiveOrClosed(Duration timeout) throws InterruptedException {
        return doReceive(timeoutNanos(timeout), null, 0);
    }

    @SuppressWarnings("unchecked")
    private T valueOrThrow(Object r) {
        if (r != null && r == closeReason) {
            throw ((ChannelClosed) r).toException();
        }
        return (T) r;
    }

    /**
     * Whether {@code r}, returned by one of this channel's operations, reports the channel closed
     * rather than being a value: by identity with the close reason, so that a value that happens
     * to be a {@link ChannelClosed} object (sent by a user) is never mistaken for one. The close
     * reason object itself can never be a value of this channel: it exists only once the channel
     * is closed, and then no send succeeds.
     */
    boolean isCloseSignal(Object r) {
        return r != null && r == closeReason;
    }

    /**
     * The receive loop, for plain receives and for registering select clause {@code k} of {@code
     * op} (LOCKED by the current thread; then {@code timeout} is ignored).
     *
     * @param timeout -1: wait as long as needed; 0: never wait; positive: nanoseconds
     * @return the value, {@code null} (nothing now / timeout), or a {@link ChannelClosed}; for a
     *     select also {@link #REG_INSTALLED} or {@link #REG_HELPED}
     */
    private Object doReceive(long timeout, SelectOp op, int k) throws InterruptedException {
        Segment seg = receiveSegment();
        while (true) {
            if (op == null && timeout == 0L) {
                // receivers first: at the moment senders is read, receivers >= r0 (it only
                // grows), so "r0 >= senders" means the channel is empty at that moment
                long r0 = receiversWord();
                if ((r0 & ERROR_BIT) != 0) {
                    return closeReason;
                }
                long w = senders();
                if (r0 >= sendersLimit(w)) {
                    return (w & CLOSED_BIT) != 0 ? closeReason : null;
                }
            }
            long r = getAndIncReceivers();
            if ((r & ERROR_BIT) != 0) {
                return closeReason; // after the error: its sweep closes the cell
            }
            long id = r / SIZE;
            int i = (int) (r % SIZE);
            if (seg.id != id) {
                seg = findReceiveSegment(seg, id);
                if (seg == null) {
                    return closeReason;
                }
                if (seg.id != id) {
                    continue;
                }
            }
            Object waiter;
            if (op != null) {
                op.segs[k] = seg;
                op.idx[k] = i;
                waiter = op;
            } else {
                waiter = timeout == 0L ? null : Thread.currentThread();
            }
            Object res;
            try {
                Faults.at(Faults.RECEIVE_CLAIMED);
                res = updateCellReceive(seg, i, r, waiter, op);
                if (res == RCV_INSTALLED && op == null) {
                    return awaitReceiveObserved(seg, i, (Thread) waiter, timeout);
                }
            } catch (Error | RuntimeException e) {
                abandonReceiveCell(seg, i, waiter);
                throw e;
            }
            if (res == RCV_INSTALLED) {
                return REG_INSTALLED;
            }
            if (res == RCV_HELPED) {
                return REG_HELPED;
            }
            if (res == RCV_FAILED) {
                if ((senders() & CLOSED_BIT) != 0 && isClosedForReceive()) {
                    return closeReason;
                }
                continue;
            }
            if (res == RCV_CLOSED) {
                return closeReason;
            }
            if (res == RCV_NO_WAITER) {
                return null;
            }
            seg.cleanPrev();
            return res;
        }
    }

    private Object awaitReceive(Segment seg, int i, Thread me, long timeout)
            throws InterruptedException {
        long deadline = timeout > 0 ? Waiting.deadline(timeout) : 0L;
        Object st = Waiting.awaitCell(seg, i, me, deadline, spin, receiveWait);
        boolean interrupted = st == Waiting.INTERRUPTED;
        if (interrupted || st == Waiting.TIMED_OUT) {
            while (true) {
                Object cur = seg.state(i);
                if (Waiting.holds(cur, me)) {
                    if (seg.casState(i, cur, INTERRUPTED_RCV)) {
                        onReceiverCellWithdrawn(seg, i, cur);
                        if (interrupted) {
                            throw new InterruptedException();
                        }
                        return null;
                    }
                    continue;
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                st = cur;
                break;
            }
        }
        if (st == CLOSED) {
            return closeReason;
        }
        // DONE: the sender left its element in the slot
        Object v = seg.element(i);
        seg.setElement(i, null);
        seg.cleanPrev(); // every receive that completes clears prev, also one that waited
        return v;
    }

    /**
     * Processes cell {@code i} of {@code seg} for the receiver of cell {@code r}.
     *
     * @param waiter the waiting thread or registering select, or {@code null} for a try-receive
     * @param self the registering select, or {@code null}
     * @return the received value, or one of the {@code RCV_} markers
     */
    private Object updateCellReceive(Segment seg, int i, long r, Object waiter, SelectOp self) {
        // fast path: a buffered value
        if (seg.state(i) == BUFFERED && seg.casState(i, BUFFERED, DONE)) {
            Object v = seg.element(i);
            seg.setElement(i, null);
            expandBuffer();
            return v;
        }
        return updateCellReceiveSlow(seg, i, r, waiter, self);
    }

    private Object updateCellReceiveSlow(Segment seg, int i, long r, Object waiter, SelectOp self) {
        int step = 0;
        while (true) {
            Object st = seg.state(i);
            if (st == null || st == IN_BUFFER) {
                long w = senders();
                if (r < sendersLimit(w)) {
                    // the sender of this cell is on its way: give it a moment, then poison
                    if (step < 64) {
                        step = Waiting.backoff(step); // 64 onSpinWaits, never a yield
                        continue;
                    }
                    if (seg.casState(i, st, BROKEN)) {
                        expandBuffer();
                        return RCV_FAILED;
                    }
                    continue;
                }
                if ((w & CLOSED_BIT) != 0) {
                    return RCV_CLOSED; // no sender will ever come to this cell
                }
                if (waiter == null) {
                    if (seg.casState(i, st, INTERRUPTED_RCV)) {
                        onReceiverCellWithdrawn(seg, i, st);
                        expandBuffer();
                        return RCV_NO_WAITER;
                    }
                } else if (seg.casState(i, st, st == IN_BUFFER ? new Cells.WaiterEB(waiter) : waiter)) {
                    // over IN_BUFFER: the buffer end already passed this cell (rare; see WaiterEB)
                    expandBuffer();
                    return RCV_INSTALLED;
                }
                continue;
            }
            if (st == BUFFERED) {
                if (seg.casState(i, BUFFERED, DONE)) {
                    Object v = seg.element(i);
                    seg.setElement(i, null);
                    expandBuffer();
                    return v;
                }
                continue;
            }
            if (st == INTERRUPTED_SEND) {
                return RCV_FAILED;
            }
            if (st == CLOSED) {
                return RCV_CLOSED;
            }
            if (st == CLAIMED) {
                step = Waiting.backoff(step); // CLAIMED is transient (see Waiting.backoff)
                continue;
            }
            Object w = Cells.unwrap(st);
            if (w instanceof Thread t) { // a waiting sender
                Object v = seg.element(i);
                if (seg.casState(i, st, DONE)) {
                    seg.setElement(i, null);
                    LockSupport.unpark(t);
                    expandBuffer();
                    return v;
                }
                continue;
            }
            if (w instanceof SelectOp op) {
                int m = meetSelect(seg, i, st, op, false, self);
                if (m == M_DONE) {
                    Object v = seg.element(i);
                    seg.setElement(i, null);
                    expandBuffer();
                    return v;
                }
                if (m == M_RETRY) {
                    continue;
                }
                if (m == M_HELPED_HERE) {
                    expandBuffer(); // our receive completed in this cell; the select reads it
                    return RCV_HELPED;
                }
                return m == M_HELPED_ELSEWHERE ? RCV_HELPED : RCV_FAILED;
            }
            throw new AssertionError("unexpected cell state " + st);
        }
    }

    // =============================================================================================
    // An Error inside an operation
    // =============================================================================================

    /*
     * What an Error (StackOverflowError, OutOfMemoryError, or any unchecked exception from a
     * fault) thrown between claiming a cell and finishing with it leaves behind: the operation
     * gives its cell up as if it had withdrawn (INTERRUPTED_SEND / INTERRUPTED_RCV), so no phantom
     * sender or receiver stays in the channel and the partner of that cell retries elsewhere. A
     * send that already buffered or handed over its value keeps that effect (the value is
     * delivered). A receive that already took a value, or whose cell already holds one, loses
     * that value with the error. Nothing here allocates.
     */

    /** Gives up cell {@code i} of {@code seg} for a send hit by an error; idempotent. */
    private void abandonSendCell(Segment seg, int i, Object waiter) {
        while (true) {
            Object st = seg.state(i);
            if (st == null || st == IN_BUFFER || (waiter != null && Waiting.holds(st, waiter))) {
                if (seg.casState(i, st, INTERRUPTED_SEND)) {
                    seg.setElement(i, null);
                    seg.onCellCleaned();
                    // the buffer end counted this cell as space (it passed it, or the cell is in
                    // the initial buffer, which no expansion visits): count another one instead;
                    // an expansion that reaches the cell later skips it by itself
                    if (st == IN_BUFFER
                            || st instanceof Cells.WaiterEB
                            || (capacity > 0 && seg.id * SIZE + i < capacity)) {
                        expandBuffer();
                    }
                    return;
                }
                continue;
            }
            if (st == BROKEN || st == INTERRUPTED_RCV) {
                seg.setElement(i, null);
            }
            return; // delivered (BUFFERED, DONE), or a cell we never wrote
        }
    }

    /** Gives up cell {@code i} of {@code seg} for a receive hit by an error; idempotent. */
    private void abandonReceiveCell(Segment seg, int i, Object waiter) {
        while (true) {
            Object st = seg.state(i);
            boolean ours = waiter != null && Waiting.holds(st, waiter);
            if (st == null || st == IN_BUFFER || ours) {
                if (seg.casState(i, st, INTERRUPTED_RCV)) {
                    onReceiverCellWithdrawn(seg, i, st);
                    if (!ours) {
                        expandBuffer(); // as a failed try-receive
                    }
                    return;
                }
                continue;
            }
            if (st == BUFFERED) {
                if (seg.casState(i, BUFFERED, DONE)) {
                    seg.setElement(i, null); // lost with the error
                    expandBuffer();
                    return;
                }
                continue;
            }
            if (st == DONE) {
                seg.setElement(i, null); // a value handed to us: lost with the error
            }
            return;
        }
    }

    // =============================================================================================
    // Meeting a registered select
    // =============================================================================================

    /**
     * Completes, finds dead, or refuses the registration of select {@code op} that cell {@code i}
     * holds (state {@code st}), for the cell's other party: a plain operation ({@code self ==
     * null}) or a registering select {@code self} (then LOCKED by the current thread).
     *
     * <p>Nobody waits for a registering select except a registering select with a smaller id,
     * and that one parks (see {@link #awaitLargerSelect}); everybody else refuses the
     * registration: the cell is withdrawn and {@code op} registers that clause again.
     *
     * @param partnerIsReceiver whether {@code op} registered a receive clause in this cell
     * @return one of the {@code M_} results; {@link #M_RETRY}: the cell changed, read it again
     */
    private int meetSelect(
            Segment seg, int i, Object st, SelectOp op, boolean partnerIsReceiver, SelectOp self) {
        int k = op.clauseIndexOf(this);
        Object selected = SelectOp.selected(k); // allocated (k >= 64) before the cell is claimed
        while (true) {
            Object os = op.state();
            if (os == SelectOp.WAITING) {
                // CAS: registration -> CLAIMED; nobody else changes a CLAIMED cell
                if (!seg.casState(i, st, CLAIMED)) {
                    return M_RETRY;
                }
                if (op.casState(SelectOp.WAITING, selected)) {
                    seg.setState(i, DONE); // CLAIMED -> DONE: the rendezvous
                    op.wake();
                    return M_DONE;
                }
                seg.setState(i, st); // CLAIMED -> registration: op changed meanwhile, look again
                continue;
            }
            if (SelectOp.isTerminal(os)) {
                if (!seg.casState(i, st, CLAIMED)) {
                    return M_RETRY;
                }
                killCell(seg, i, st, partnerIsReceiver);
                return M_DEAD;
            }
            // op is registering (LOCKED or Pending)
            if (self != null) {
                if (os instanceof SelectOp.Pending p && p.partner == self) {
                    // op waits for us: complete the rendezvous it described, in its cell
                    if (helpPending(op, p, self)) {
                        if (seg.casState(i, st, CLAIMED)) {
                            killCell(seg, i, st, partnerIsReceiver);
                        }
                        return M_HELPED_ELSEWHERE;
                    }
                    continue; // stale: op was released and retries; it is LOCKED now
                }
                if (op.id > self.id) {
                    if (awaitLargerSelect(self, op, seg, i, k, self.clauseIndexOf(this))) {
                        return M_HELPED_HERE;
                    }
                    return M_RETRY;
                }
            }
            // a plain operation, or a select with a larger id: never wait for op; refuse its
            // registration here, and op registers that clause again
            if (!seg.casState(i, st, CLAIMED)) {
                return M_RETRY;
            }
            killCell(seg, i, st, partnerIsReceiver);
            op.requestReregistration();
            return M_REFUSED;
        }
    }

    /**
     * {@code self} (LOCKED by the current thread) found, in the cell it works on (cell {@code i}
     * of {@code seg}), the registration of {@code op}, which is registering and has a larger id.
     * It publishes a Pending descriptor and parks until op helps (the rendezvous happened in this
     * cell: returns true), op is no longer registering, or op found the descriptor stale and
     * released it (both: returns false, the caller reads the cell again). It parks on a node in
     * op's lock-waiter stack, which op drains when it stops registering; ids only grow along a
     * chain of such waits, so the chain ends at a select that waits for nobody.
     */
    private static boolean awaitLargerSelect(
            SelectOp self, SelectOp op, Segment seg, int i, int opK, int selfK) {
        SelectOp.Pending p = new SelectOp.Pending(op, selfK, opK, seg, i);
        self.setState(p);
        boolean pushed = false;
        // Registering is not interruptible (the select's await reports an interrupt), but park
        // returns at once while the interrupt flag is set: the flag is cleared for this wait and
        // restored after it. Otherwise this loop spins, without ever unmounting, on the carrier
        // that op's owner may need to stop registering (with one carrier: forever), and pushes
        // a node on op's stack per turn (issue 8, Bug 4; OneCarrierProgressTest,
        // RegisteringSelectWaitTest).
        boolean interrupted = false;
        try {
            while (true) {
                Object s = self.state();
                if (s != p) {
                    return SelectOp.isTerminal(s); // helped, or released as stale (LOCKED)
                }
                if (!SelectOp.isLocked(op.state())) {
                    if (self.casState(p, SelectOp.LOCKED)) {
                        return false;
                    }
                    continue; // op helped us meanwhile
                }
                if (!pushed) {
                    op.pushLockWaiter(self.owner);
                    pushed = true;
                    continue; // look again after publishing the node (op drains after unlocking)
                }
                if (Thread.interrupted()) {
                    interrupted = true;
                    continue; // look again before parking, now that park can park
                }
                LockSupport.park(self);
                pushed = false; // woken: if op is still locked, wait on a fresh node
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Completes the rendezvous described by {@code p} (published by {@code op}, waiting for {@code
     * self}): in p's cell, which holds self's registration, both selects are selected. Returns
     * false when the descriptor is stale: p's cell no longer holds self's registration (buffer
     * expansion, closing or a plain operation withdrew it), or p's channel is in error; then op
     * is released (Pending -> LOCKED) and reads its cell again.
     */
    private static boolean helpPending(SelectOp op, SelectOp.Pending p, SelectOp self) {
        Segment seg = p.seg;
        int i = p.i;
        Object opSelected = SelectOp.selected(p.k);
        Object selfSelected = SelectOp.selected(p.partnerK);
        int step = 0;
        while (true) {
            Object st = seg.state(i);
            if (st == CLAIMED) {
                step = Waiting.backoff(step); // a running thread finishes the cell without waiting
                continue;
            }
            // stale if the cell no longer holds self's registration; also refuse to commit in a
            // channel in error (op checked it when it met us, but that may be long ago)
            if (Cells.unwrap(st) != self || op.clauses[p.k].channel().errorBeforeCommit() != null) {
                if (op.casState(p, SelectOp.LOCKED)) {
                    op.wake();
                }
                return false;
            }
            if (!seg.casState(i, st, CLAIMED)) {
                continue;
            }
            if (!op.casState(p, opSelected)) {
                seg.setState(i, st);
                return false;
            }
            seg.setState(i, DONE);
            self.setState(selfSelected);
            op.wake();
            return true;
        }
    }

    /** Finalizes a claimed cell whose select registration is dead. */
    private void killCell(Segment seg, int i, Object st, boolean receiverSide) {
        if (receiverSide) {
            seg.setState(i, INTERRUPTED_RCV);
            onReceiverCellWithdrawn(seg, i, st);
            return;
        }
        seg.setElement(i, null);
        seg.setState(i, INTERRUPTED_SEND);
        seg.onCellCleaned();
        if (st instanceof Cells.WaiterEB) {
            expandBuffer();
        }
    }

    /**
     * Counts a cell whose receiver withdrew (state {@code before} replaced by INTERRUPTED_RCV) as
     * cleaned. In a buffered channel the buffer end must pass such a cell (it counts as buffer
     * space) before its segment may be removed, or a later expansion jumping over the removed
     * segment would count it twice. So here it is counted only if the buffer end already passed
     * it (the state was IN_BUFFER or WaiterEB); otherwise the expansion that reaches it counts it.
     */
    private void onReceiverCellWithdrawn(Segment seg, int i, Object before) {
        if (capacity <= 0
                || before == IN_BUFFER
                || before instanceof Cells.WaiterEB
                || seg.id * SIZE + i < capacity) { // the initial buffer: never visited
            seg.onCellCleaned();
        }
    }


    // =============================================================================================
    // Buffer expansion
    // =============================================================================================

    /** Moves {@code bufferEnd} forward by one cell that can hold a value (buffered channels). */
    private void expandBuffer() {
        if (capacity <= 0) {
            return;
        }
        Segment seg = bufferEndSegment();
        while (true) {
            long b = getAndIncBufferEnd();
            long s = senders() & COUNT_MASK;
            long id = b / SIZE;
            if (s <= b) {
                // no sender in that cell yet: mark it passed (see passReceiverCell)
                Segment found = seg.id == id ? seg : findSegment(POINTER_BUFFER_END, seg, id);
                if (found != null && found.id == id) {
                    passReceiverCell(found, (int) (b % SIZE));
                }
                return;
            }
            if (seg.id != id) {
                Segment found = findSegment(POINTER_BUFFER_END, seg, id);
                if (found == null) {
                    return;
                }
                seg = found;
                if (seg.id != id) {
                    casBufferEnd(b + 1, seg.id * SIZE);
                    continue;
                }
            }
            if (updateCellExpandBuffer(seg, (int) (b % SIZE), b)) {
                return;
            }
        }
    }

    /**
     * The buffer end passed cell {@code i} before its sender claimed it: mark it IN_BUFFER (a
     * receiver that then waits there wraps itself in WaiterEB) or wrap its waiter, so that a
     * receiver withdrawing from it later counts it as cleaned (see {@link
     * #onReceiverCellWithdrawn}); count it now if its receiver already withdrew.
     */
    private void passReceiverCell(Segment seg, int i) {
        while (true) {
            Object st = seg.state(i);
            if (st == null) {
                if (seg.casState(i, null, IN_BUFFER)) {
                    return;
                }
            } else if (st == INTERRUPTED_RCV) {
                seg.onCellCleaned();
                return;
            } else if (st == CLAIMED) {
                Thread.onSpinWait(); // held by a running thread for a few steps, never while waiting
            } else if (Cells.isWaiter(st) && !(st instanceof Cells.WaiterEB)) {
                if (seg.casState(i, st, new Cells.WaiterEB(st))) {
                    return;
                }
            } else {
                return; // a sender arrived meanwhile: it completes the cell
            }
        }
    }

    /** Returns whether cell {@code b} now counts as buffer space (false: a withdrawn sender). */
    private boolean updateCellExpandBuffer(Segment seg, int i, long b) {
        int step = 0;
        while (true) {
            Object st = seg.state(i);
            if (st == null) {
                if (seg.casState(i, null, IN_BUFFER)) {
                    return true;
                }
                continue;
            }
            if (st == INTERRUPTED_SEND) {
                return false;
            }
            if (st == INTERRUPTED_RCV) {
                seg.onCellCleaned(); // its receiver left the counting to us
                return true;
            }
            if (st == CLAIMED) {
                step = Waiting.backoff(step); // CLAIMED is transient (see Waiting.backoff)
                continue;
            }
            if (st instanceof Cells.Marker || st instanceof Cells.WaiterEB) {
                return true;
            }
            if (b < receivers()) {
                // the cell's receiver is on its way and completes the cell itself
                if (seg.casState(i, st, new Cells.WaiterEB(st))) {
                    return true;
                }
                continue;
            }
            // no receiver claimed the cell: the waiter is its sender; move it into the buffer
            if (st instanceof Thread t) {
                if (seg.casState(i, t, BUFFERED)) {
                    LockSupport.unpark(t);
                    return true;
                }
                continue;
            }
            SelectOp op = (SelectOp) st;
            Object selected = SelectOp.selected(op.clauseIndexOf(this)); // before claiming
            Faults.at(Faults.EXPAND_MEETS_SELECT);
            if (!seg.casState(i, st, CLAIMED)) {
                continue;
            }
            Object os = op.state();
            if (os == SelectOp.WAITING && op.casState(os, selected)) {
                seg.setState(i, BUFFERED);
                op.wake();
                return true;
            }
            if (SelectOp.isTerminal(os)) {
                killCell(seg, i, st, false);
                return false;
            }
            // registering: never wait for it (this thread may be a registering select itself);
            // withdraw the registration and have the select register that clause again
            killCell(seg, i, st, false);
            op.requestReregistration();
            return false;
        }
    }

    // =============================================================================================
    // Segments
    // =============================================================================================

    private static final int POINTER_SEND = 0;
    private static final int POINTER_RECEIVE = 1;
    private static final int POINTER_BUFFER_END = 2;

    private Segment pointer(int which) {
        return switch (which) {
            case POINTER_SEND -> sendSegment();
            case POINTER_RECEIVE -> receiveSegment();
            default -> bufferEndSegment();
        };
    }

    private boolean casPointer(int which, Segment expected, Segment update) {
        return switch (which) {
            case POINTER_SEND -> casSendSegment(expected, update);
            case POINTER_RECEIVE -> casReceiveSegment(expected, update);
            default -> casBufferEndSegment(expected, update);
        };
    }

    /** Moves a segment pointer forward to {@code to} (never back); false if {@code to} is removed. */
    private boolean moveForward(int which, Segment to) {
        while (true) {
            Segment cur = pointer(which);
            if (cur.id >= to.id) {
                return true;
            }
            if (!to.tryIncPointers()) {
                return false;
            }
            if (casPointer(which, cur, to)) {
                cur.decPointers();
                return true;
            }
            to.decPointers();
        }
    }

    /**
     * Finds the segment with id {@code id} (or the first alive one after it, when it was removed)
     * and moves the pointer there; {@code null} when the list is closed.
     */
    private Segment findSegment(int which, Segment start, long id) {
        while (true) {
            Segment s = Segment.findOrCreate(start, id);
            if (s == Segment.CLOSED_LIST) {
                return null;
            }
            if (moveForward(which, s)) {
                return s;
            }
        }
    }

    private Segment findSendSegment(Segment start, long id) {
        Segment s = findSegment(POINTER_SEND, start, id);
        if (s != null && s.id != id) {
            // the cells in between were all cleaned: skip them
            long target = s.id * SIZE;
            while (true) {
                long w = senders();
                if ((w & COUNT_MASK) >= target || casSenders(w, (w & ~COUNT_MASK) | target)) {
                    break;
                }
            }
        }
        return s;
    }

    private Segment findReceiveSegment(Segment start, long id) {
        Segment s = findSegment(POINTER_RECEIVE, start, id);
        if (s != null && s.id != id) {
            long target = s.id * SIZE;
            while (true) {
                long r = receiversWord();
                if ((r & COUNT_MASK) >= target || casReceivers(r, (r & ~COUNT_MASK) | target)) {
                    break;
                }
            }
        }
        return s;
    }

    /** The oldest segment any pointer references. */
    private Segment oldestSegment() {
        Segment a = sendSegment();
        Segment b = receiveSegment();
        Segment m = a.id <= b.id ? a : b;
        if (capacity > 0) {
            Segment c = bufferEndSegment();
            return m.id <= c.id ? m : c;
        }
        return m;
    }

    /** The buffer capacity: 0 for rendezvous, -1 for unlimited. */
    int capacity() {
        return capacity;
    }

    /** Segments reachable from the channel's pointers (for memory-boundedness tests). */
    int reachableSegments() {
        int n = 0;
        for (Segment s = oldestSegment(); s != null && s != Segment.CLOSED_LIST; s = s.next()) {
            n++;
        }
        return n;
    }

    // =============================================================================================
    // Closing
    // =============================================================================================

    @Override
    public void done() {
        Object r = doneOrClosed();
        if (r != null) {
            throw ((ChannelClosed) r).toException();
        }
    }

    @Override
    public Object doneOrClosed() {
        return close(new ChannelDone(this));
    }

    @Override
    public void error(Throwable reason) {
        Object r = errorOrClosed(reason);
        if (r != null) {
            throw ((ChannelClosed) r).toException();
        }
    }

    @Override
    public Object errorOrClosed(Throwable reason) {
        Objects.requireNonNull(reason, "reason");
        return close(new ChannelError(reason, this));
    }

    private Object close(ChannelClosed reason) {
        boolean won = CLOSE_REASON.compareAndSet(this, null, reason);
        ChannelClosed actual = won ? reason : closeReason;
        setClosedBits(actual);
        if (!won) {
            return actual;
        }
        Segment start = oldestSegment();
        Segment.closeList(start);
        if (reason instanceof ChannelError) {
            sweep(start, 0L, receiversAtError());
        } else {
            sweep(start, sendersAtClose(), Long.MAX_VALUE); // done sweeps no buffered values
        }
        return null;
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
    private void setClosedBits(ChannelClosed reason) {
        if (reason instanceof ChannelError && (receiversWord() & ERROR_BIT) == 0) {
            long before = getAndOrReceivers(ERROR_BIT); // the error's linearization point
            if ((before & ERROR_BIT) == 0) {
                errorAt = before & COUNT_MASK;
            }
        }
        if ((senders() & CLOSED_BIT) != 0) {
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
     * bits are set, and the caller must not touch the cell (the error's sweep closes it).
     *
     * <p>Why this makes {@code error()} atomic, the receivers' side being decided by their FAA on
     * {@code receivers} (see there):
     *
     * <ul>
     *   <li>{@code closeReason} is set before {@code ERROR_BIT}, so a sender that reads {@code null}
     *       here read it before the error's linearization point; its send linearizes there (or,
     *       if it then waits, when a receiver that came before the error completes it, or when a
     *       receive that came before the error makes room for it in the buffer). A sender that
     *       reads the error reports it; if it came before the bit, it sets the bit first.
     *   <li>A receiver whose FAA returned no {@code ERROR_BIT} came before the error, so it keeps
     *       a value sent before the error: the sweep leaves buffered values in cells below {@code
     *       errorAt}. A receiver whose FAA returned the bit reports the error without touching
     *       its cell. So values are taken in FIFO order up to the error, and none after it: once
     *       anyone observed the error (the bit, or {@code closeReason} plus setting the bit), every
     *       receive that starts later gets the bit from its FAA.
     * </ul>
     */
    private ChannelError errorBeforeCommit() {
        if (closeReason instanceof ChannelError e) {
            setClosedBits(e);
            return e;
        }
        return null;
    }

    /**
     * The number of senders that claimed a cell before the channel closed (later attempts still
     * increment the counter, but are refused).
     */
    private long sendersAtClose() {
        long c;
        int step = 0;
        while ((c = closedAt) < 0) {
            step = Waiting.backoff(step); // the closing thread is about to publish it
        }
        return c;
    }

    /** The cells that have or will have a sender, given a read {@code w} of {@code senders}. */
    private long sendersLimit(long w) {
        long count = w & COUNT_MASK;
        return (w & CLOSED_BIT) == 0 ? count : Math.min(count, sendersAtClose());
    }

    /**
     * Closes every cell at or beyond {@code from}, from segment {@code start} to the end; cells
     * below {@code claimedBelow} have a receiver on its way.
     */
    private void sweep(Segment start, long from, long claimedBelow) {
        for (Segment seg = start; seg != null && seg != Segment.CLOSED_LIST; seg = seg.next()) {
            for (int i = 0; i < SIZE; i++) {
                long g = seg.id * SIZE + i;
                if (g >= from) {
                    closeCell(seg, i, g < claimedBelow);
                }
            }
        }
    }

    /**
     * @param claimed whether the cell's receiver is already on its way: a value buffered there is
     *     then left for it (that send and receive linearize before the close)
     */
    private void closeCell(Segment seg, int i, boolean claimed) {
        int step = 0;
        while (true) {
            Object st = seg.state(i);
            if (st == null || st == IN_BUFFER) {
                if (seg.casState(i, st, CLOSED)) {
                    return;
                }
                continue;
            }
            if (st == BUFFERED) {
                // only error sweeps cells with values: discard it, unless its receiver claimed it
                if (claimed) {
                    return;
                }
                if (seg.casState(i, BUFFERED, CLOSED)) {
                    seg.setElement(i, null);
                    return;
                }
                continue;
            }
            if (st == CLAIMED) {
                step = Waiting.backoff(step); // CLAIMED is transient (see Waiting.backoff)
                continue;
            }
            if (st instanceof Cells.Marker) {
                return; // DONE, BROKEN, INTERRUPTED_*, CLOSED
            }
            Object w = Cells.unwrap(st);
            if (w instanceof Thread t) {
                if (seg.casState(i, st, CLOSED)) {
                    LockSupport.unpark(t);
                    return;
                }
                continue;
            }
            SelectOp op = (SelectOp) w;
            SelectOp.ClosedSel closed = new SelectOp.ClosedSel(op.clauseIndexOf(this), closeReason);
            if (!seg.casState(i, st, CLAIMED)) {
                continue;
            }
            Object os = op.state();
            if (os == SelectOp.WAITING && op.casState(os, closed)) {
                seg.setElement(i, null);
                seg.setState(i, CLOSED);
                op.wake();
                return;
            }
            seg.setElement(i, null);
            seg.setState(i, CLOSED);
            if (!SelectOp.isTerminal(os)) {
                // registering: never wait for it; it registers the clause again and finds the
                // channel closed
                op.requestReregistration();
            }
            return;
        }
    }

    /** The {@link ChannelError} if this channel is closed in error, else {@code null}. */
    ChannelError errorIfAny() {
        return (receiversWord() & ERROR_BIT) != 0 ? (ChannelError) closeReason : null;
    }

    /**
     * The receiver count at the error's linearization point (cells below it have receivers that
     * came before the error). Only after {@code ERROR_BIT} was seen in {@code receivers}.
     */
    private long receiversAtError() {
        long c;
        int step = 0;
        while ((c = errorAt) < 0) {
            step = Waiting.backoff(step); // the thread that set the bit is about to publish it
        }
        return c;
    }

    @Override
    public boolean isClosedForSend() {
        // an error takes effect at its OR into receivers, before senders gets its bits
        return (senders() & CLOSED_BIT) != 0 || (receiversWord() & ERROR_BIT) != 0;
    }

    @Override
    public boolean isClosedForReceive() {
        if ((receiversWord() & ERROR_BIT) != 0) {
            return true;
        }
        long w = senders();
        if ((w & CLOSED_BIT) == 0) {
            return false;
        }
        if ((w & ERROR_BIT) != 0) {
            return true;
        }
        long r = receivers();
        long end = sendersAtClose();
        return r >= end || !mayDeliver(r, end);
    }

    /** Whether some cell in {@code [from, to)} still holds, or will get, a value to receive. */
    private boolean mayDeliver(long from, long to) {
        for (Segment seg = receiveSegment(); seg != null && seg != Segment.CLOSED_LIST; seg = seg.next()) {
            for (int i = 0; i < SIZE; i++) {
                long g = seg.id * SIZE + i;
                if (g < from) {
                    continue;
                }
                if (g >= to) {
                    return false;
                }
                Object st = seg.state(i);
                if (st == null || st == IN_BUFFER || st == BUFFERED || st == CLAIMED || Cells.isWaiter(st)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public ChannelClosed closedForSend() {
        return isClosedForSend() ? closeReason : null;
    }

    @Override
    public ChannelClosed closedForReceive() {
        return isClosedForReceive() ? closeReason : null;
    }

    // =============================================================================================
    // Select support
    // =============================================================================================

    @Override
    public SelectClause<T> receiveClause() {
        return new SelectClause.Receive<>(this, null);
    }

    @Override
    public <U> SelectClause<U> receiveClause(Function<T, U> callback) {
        Objects.requireNonNull(callback, "callback");
        return new SelectClause.Receive<>(this, callback);
    }

    @Override
    public SelectClause<Void> sendClause(T value) {
        Objects.requireNonNull(value, "value");
        return new SelectClause.Send<>(this, value, null);
    }

    @Override
    public <U> SelectClause<U> sendClause(T value, Supplier<U> callback) {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(callback, "callback");
        return new SelectClause.Send<>(this, value, callback);
    }

    /** Result of {@link #register}: the clause is registered and waits for a partner. */
    static final Cells.Marker REG_INSTALLED = new Cells.Marker("REG_INSTALLED");
    /** Result of {@link #register}: the select got completed on another clause by a partner. */
    static final Cells.Marker REG_HELPED = new Cells.Marker("REG_HELPED");
    /** Result of {@link #register}: the send clause completed. */
    static final Cells.Marker REG_SENT = new Cells.Marker("REG_SENT");

    /**
     * Registers clause {@code k} of {@code op} (LOCKED by the current thread) in this channel, or
     * completes it right away.
     *
     * @return {@link #REG_INSTALLED}, {@link #REG_HELPED}, {@link #REG_SENT}, a {@link
     *     ChannelClosed}, or the received value
     */
    Object register(SelectOp op, int k, boolean send, Object value) {
        try {
            return send ? doSend(value, -1L, op, k) : doReceive(-1L, op, k);
        } catch (InterruptedException e) {
            throw new AssertionError("registering a select clause never waits", e);
        }
    }

    /**
     * Withdraws the registration of {@code op} from cell {@code i} of {@code seg}, if it is still
     * there; if another thread holds the cell, that thread finalizes it.
     */
    void withdraw(SelectOp op, Segment seg, int i, boolean send) {
        while (true) {
            Object st = seg.state(i);
            if (Cells.unwrap(st) != op) {
                return;
            }
            if (seg.casState(i, st, CLAIMED)) {
                killCell(seg, i, st, !send);
                return;
            }
        }
    }

    /** A try-send of an unchecked value (for select's default path). */
    Object trySendRaw(Object value) {
        try {
            return doSend(value, 0L, null, 0);
        } catch (InterruptedException e) {
            throw new AssertionError("a try-operation never waits", e);
        }
    }

    /** Reads the value a selected receive clause got in its cell, and clears the slot. */
    static Object takeElement(Segment seg, int i) {
        int step = 0;
        while (seg.state(i) == CLAIMED) {
            step = Waiting.backoff(step); // the partner is finishing the cell
        }
        Object v = seg.element(i);
        seg.setElement(i, null);
        return v;
    }

    // =============================================================================================
    // Misc
    // =============================================================================================

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

    /** {@code Channel@<identity hash>}, for one-line messages. */
    static String shortName(Channel<?> ch) {
        return ch == null ? "null" : "Channel@" + Integer.toHexString(System.identityHashCode(ch));
    }

    /**
     * Dumps the counters and the cell states of the reachable segments (at most 16), for
     * debugging the channel itself. For logs, use {@link #toString()}.
     *
     * @return a multi-line description of the channel's internal state
     */
    public String dumpCells() {
        long w = senders();
        StringBuilder sb = new StringBuilder("Channel(capacity=");
        sb.append(capacity == UNLIMITED ? "unlimited" : String.valueOf(capacity))
                .append(", senders=")
                .append(w & COUNT_MASK)
                .append((w & CLOSED_BIT) != 0 ? ((w & ERROR_BIT) != 0 ? " [error]" : " [done]") : "")
                .append(", receivers=")
                .append(receivers());
        if (capacity > 0) {
            sb.append(", bufferEnd=").append(bufferEnd());
        }
        sb.append(')');
        int shown = 0;
        for (Segment s = oldestSegment(); s != null && s != Segment.CLOSED_LIST; s = s.next()) {
            if (shown++ == 16) {
                sb.append("\n  ...");
                break;
            }
            sb.append("\n  ").append(s);
        }
        return sb.toString();
    }

    // =============================================================================================
    // Observability: descriptions and JFR events of waits
    // =============================================================================================

    /** The capacity, -1 for unlimited (for {@link Flows#subscriber(Sink)}). */
    int capacityForFlows() {
        return capacity;
    }

    /** Names longer than this are cut in descriptions, so that they stay bounded. */
    private static final int MAX_NAME_IN_TEXT = 64;

    /**
     * The channel in a few words: {@code Channel[orders, capacity 16]} when named, {@code
     * Channel#42[capacity 16]} otherwise ({@code capacity unlimited} for an unlimited channel).
     */
    String describe() {
        return appendIdentity(new StringBuilder(48)).append(']').toString();
    }

    private StringBuilder appendIdentity(StringBuilder sb) {
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
            sb.append('#').append(id).append('[');
        }
        sb.append("capacity ").append(capacity == UNLIMITED ? "unlimited" : String.valueOf(capacity));
        return sb;
    }

    /**
     * One line for logs: the name (or {@code #id}), the capacity, whether the channel is open,
     * done or in error, and, from its counters, about how many values are buffered and how many
     * senders and receivers wait. For example {@code Channel[orders, capacity 16, open, buffered
     * ~16, waiting senders ~3, waiting receivers ~0]}. The numbers are approximate: they are read
     * without a snapshot, and a waiter that gave up (interrupt, timeout) still counts until a
     * partner reaches its cell. Takes constant time; the text is bounded (long names are cut).
     * {@link #dumpCells()} shows the cells.
     *
     * @return a one-line description of the channel
     */
    @Override
    public String toString() {
        long w = senders();
        long s = w & COUNT_MASK;
        long r = receivers();
        StringBuilder sb = appendIdentity(new StringBuilder(128));
        boolean closed = (w & CLOSED_BIT) != 0;
        sb.append(", ").append(!closed ? "open" : (w & ERROR_BIT) != 0 ? "error" : "done");
        long end = capacity == UNLIMITED ? Long.MAX_VALUE : capacity > 0 ? bufferEnd() : r;
        if (capacity != 0 && !(closed && (w & ERROR_BIT) != 0)) {
            sb.append(", buffered ~").append(Math.max(0L, Math.min(s, end) - r));
        }
        if (!closed) {
            sb.append(", waiting senders ~").append(Math.max(0L, s - Math.max(r, end)))
                    .append(", waiting receivers ~").append(Math.max(0L, r - s));
        }
        return sb.append(']').toString();
    }

    /** {@link #awaitSend}, recording a JFR {@code dev.weft.ChannelWait} event when enabled. */
    private Object awaitSendObserved(Segment seg, int i, Thread me, long timeout)
            throws InterruptedException {
        Object event = WaitEvents.beginChannelWait();
        if (event == null) {
            return awaitSend(seg, i, me, timeout);
        }
        Object r;
        try {
            r = awaitSend(seg, i, me, timeout);
        } catch (InterruptedException e) {
            WaitEvents.endChannelWait(event, this, WaitEvents.SEND, WaitEvents.INTERRUPT);
            throw e;
        }
        String outcome =
                r == null ? WaitEvents.RENDEZVOUS : r == NOT_SENT ? WaitEvents.TIMEOUT : WaitEvents.CLOSE;
        WaitEvents.endChannelWait(event, this, WaitEvents.SEND, outcome);
        return r;
    }

    /** {@link #awaitReceive}, recording a JFR {@code dev.weft.ChannelWait} event when enabled. */
    private Object awaitReceiveObserved(Segment seg, int i, Thread me, long timeout)
            throws InterruptedException {
        Object event = WaitEvents.beginChannelWait();
        if (event == null) {
            return awaitReceive(seg, i, me, timeout);
        }
        Object r;
        try {
            r = awaitReceive(seg, i, me, timeout);
        } catch (InterruptedException e) {
            WaitEvents.endChannelWait(event, this, WaitEvents.RECEIVE, WaitEvents.INTERRUPT);
            throw e;
        }
        String outcome =
                r == null ? WaitEvents.TIMEOUT
                        : isCloseSignal(r) ? WaitEvents.CLOSE : WaitEvents.RENDEZVOUS;
        WaitEvents.endChannelWait(event, this, WaitEvents.RECEIVE, outcome);
        return r;
    }
}
