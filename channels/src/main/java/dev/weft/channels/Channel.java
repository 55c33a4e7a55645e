package dev.weft.channels;

import static dev.weft.channels.Cells.State.BUFFERED;
import static dev.weft.channels.Cells.State.IN_BUFFER;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/*
 * Maintainer notes (a block comment, not javadoc: they stay out of the published API docs): the
 * algorithm is described on ChannelState, the package-private core this class extends. This class
 * holds the public API, the send and receive loops, their fast paths, and waiting in a cell.
 * Flavours (rendezvous, buffered, unlimited) are branches on the final field capacity, not
 * subclasses, so every call site stays monomorphic; the loops use no lambdas.
 */
/**
 * A Go-style channel: rendezvous, buffered or unlimited, closable as done or in error, usable from
 * virtual and platform threads. See {@link Source} and {@link Sink} for the operations and {@link
 * Select} for selecting among several channels.
 *
 * @param <T> the type of values
 */
public final class Channel<T> extends ChannelState implements Source<T>, Sink<T> {
    /**
     * The capacity of {@link #newBufferedDefaultChannel()}: 16 (as jox's {@code
     * Channel.DEFAULT_BUFFER_SIZE}).
     */
    public static final int DEFAULT_BUFFER_SIZE = 16;

    /** The clause {@link #receiveClause()} returns: clauses are immutable, so one serves every select. */
    private final SelectClause<T> receiveClause = new SelectClause.Receive<>(this, null);

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
        super(capacity, name);
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
     * <p>Memory: the channel keeps the cells of the values it holds and of the senders and
     * receivers it has seen, about 10 bytes per cell in segments of 32, not cells for its whole
     * capacity: a channel of 1,000,000 that carries a few values stays small, where {@code
     * ArrayBlockingQueue} keeps an array of 4 bytes per slot from its construction. (A capacity of
     * at most four segments, 128, keeps up to four segments ahead of its senders.)
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

    // ---- sending ------------------------------------------------------------------------------

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
        return doSend(value, Waiting.timeoutNanos(timeout), null, 0);
    }

    // ---- receiving ----------------------------------------------------------------------------

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
        return doReceive(Waiting.timeoutNanos(timeout), null, 0);
    }

    @SuppressWarnings("unchecked")
    private T valueOrThrow(Object r) {
        if (isCloseSignal(r)) {
            throw ((ChannelClosed) r).toException();
        }
        return (T) r;
    }

    /**
     * The send loop, for plain sends and for registering select clause {@code k} of {@code op}
     * (LOCKED by the current thread; then {@code timeout} is ignored).
     *
     * @param timeout -1: wait as long as needed; 0: never wait; positive: nanoseconds
     * @return plain: {@code null} when sent, {@link Sink#NOT_SENT}, or a {@link ChannelClosed};
     *     select: {@link Result#DONE}, {@link Result#INSTALLED}, {@link Result#HELPED} or a {@link
     *     ChannelClosed}
     */
    private Object doSend(Object value, long timeout, SelectOp op, int k)
            throws InterruptedException {
        long room = Long.MAX_VALUE; // a try-send's cells below it had room when it looked
        if (op == null && timeout == 0L) {
            long s0 = lvSenders() & COUNT_MASK; // first (see trySendRoom)
            room = trySendRoom();
            if (s0 >= room) {
                ChannelClosed c = closedForSend();
                return c != null ? c : NOT_SENT;
            }
            Faults.at(Faults.TRY_SEND_CHECKED);
        }
        Segment seg = lvSendSegment();
        long deadline = 0L; // of a timed send, from its first wait: a retry waits only what is left
        while (true) {
            long w = getAndIncSenders();
            if ((w & CLOSED_BIT) != 0) {
                return lvCloseReason();
            }
            long s = w & COUNT_MASK;
            seg = segmentOfClaimed(true, seg, s);
            if (seg == null) {
                return lvCloseReason(); // the list is closed
            }
            if (seg.id != s / SIZE) {
                continue; // the cell's segment was removed: its cells were all withdrawn
            }
            int i = (int) (s % SIZE);
            Object waiter = null;
            Result res;
            try {
                waiter = waiterFor(op, k, seg, i, timeout);
                Faults.at(Faults.SEND_CLAIMED);
                res = updateCellSend(seg, i, s, value, waiter, op, waiter == null && s >= room);
                if (res == Result.INSTALLED && op == null) {
                    deadline = Waiting.firstDeadline(timeout, deadline);
                    res = Waiting.awaitSend(this, seg, i, (Thread) waiter, Waiting.nanosLeft(timeout, deadline));
                }
            } catch (Error | RuntimeException e) {
                Withdrawal.abandonSendCell(this, seg, i, waiter, e); // see Withdrawal
                throw e;
            }
            if (res == Result.DONE) {
                return op == null ? null : Result.DONE;
            }
            if (res == Result.FAILED) {
                continue;
            }
            if (res == Result.CLOSED) {
                return lvCloseReason();
            }
            return res == Result.NO_WAITER ? NOT_SENT : res; // INSTALLED, HELPED: a select's registration
        }
    }

    /**
     * What waits in the claimed cell: the registering select (which records the cell), the
     * current thread, or nobody for a try-operation.
     */
    private static Object waiterFor(SelectOp op, int k, Segment seg, int i, long timeout) {
        if (op != null) {
            return op.recordCell(k, seg, i);
        }
        return timeout == 0L ? null : Thread.currentThread();
    }

    /**
     * Processes cell {@code i} of {@code seg} for the sender of cell {@code s}, whose element is
     * {@code value}: the fast path (an empty cell that takes the value at once, or one the buffer
     * end already marked IN_BUFFER); the rest is in
     * {@link CellUpdates#updateCellSendSlow}, which documents {@code late}.
     */
    private Result updateCellSend(
            Segment seg, int i, long s, Object value, Object waiter, SelectOp self, boolean late) {
        if (lvCloseReason() != null && errorBeforeCommit() != null) {
            Closing.closeOwnSendCell(this, seg, i, waiter instanceof Thread); // the sweep may never see it
            return Result.CLOSED;
        }
        Faults.at(Faults.SEND_COMMITTING);
        seg.spElement(i, value);
        Object st = seg.lvState(i);
        if (st == IN_BUFFER) {
            // the buffer end passed the cell first, so it holds a value without reading bufferEnd
            // (the steady state of a buffered channel whose receivers keep up); a late try-send
            // reads the closed bits first, in the slow path
            if (!late && seg.casState(i, IN_BUFFER, BUFFERED)) {
                return Result.DONE;
            }
        } else if (st == null) {
            if (installsAtOnce(waiter)) {
                if (seg.casState(i, null, waiter)) {
                    return Result.INSTALLED;
                }
            } else if (bufferOrRendezvous(s)
                    && (!late || !closedForLateTrySend())
                    && seg.casState(i, null, BUFFERED)) {
                return Result.DONE;
            }
        }
        return CellUpdates.updateCellSendSlow(this, seg, i, s, waiter, self, late);
    }

    /**
     * The receive loop, for plain receives and for registering select clause {@code k} of {@code
     * op} (LOCKED by the current thread; then {@code timeout} is ignored).
     *
     * @param timeout -1: wait as long as needed; 0: never wait; positive: nanoseconds
     * @return the value, {@code null} (nothing now / timeout), or a {@link ChannelClosed}; for a
     *     select also {@link Result#INSTALLED} or {@link Result#HELPED}
     */
    private Object doReceive(long timeout, SelectOp op, int k) throws InterruptedException {
        Segment seg = lvReceiveSegment();
        long deadline = 0L; // of a timed receive, from its first wait (see doSend)
        while (true) {
            if (op == null && timeout == 0L) {
                // receivers first: at the moment senders is read, receivers >= r0 (it only
                // grows), so "r0 >= senders" means the channel is empty at that moment
                long r0 = lvReceivers();
                if ((r0 & ERROR_BIT) != 0) {
                    return lvCloseReason();
                }
                long w = lvSenders();
                if (r0 >= sendersLimit(w)) {
                    return (w & CLOSED_BIT) != 0 ? lvCloseReason() : null;
                }
                Faults.at(Faults.TRY_RECEIVE_CHECKED);
            }
            long r = getAndIncReceivers();
            if ((r & ERROR_BIT) != 0) {
                return lvCloseReason(); // after the error: its sweep closes the cell
            }
            seg = segmentOfClaimed(false, seg, r);
            if (seg == null) {
                return lvCloseReason(); // the list is closed
            }
            if (seg.id != r / SIZE) {
                continue; // the cell's segment was removed: its cells were all withdrawn
            }
            int i = (int) (r % SIZE);
            Object waiter = null;
            Object res;
            try {
                waiter = waiterFor(op, k, seg, i, timeout);
                Faults.at(Faults.RECEIVE_CLAIMED);
                res = updateCellReceive(seg, i, r, waiter, op);
                if (res == Result.INSTALLED && op == null) {
                    deadline = Waiting.firstDeadline(timeout, deadline);
                    res = Waiting.awaitReceive(this, seg, i, (Thread) waiter, Waiting.nanosLeft(timeout, deadline));
                }
            } catch (Error | RuntimeException e) {
                Withdrawal.abandonReceiveCell(this, seg, i, waiter, e);
                throw e;
            }
            if (!(res instanceof Result)) {
                seg.cleanPrev(); // every receive that completes clears prev, also one that waited
                return res; // a value
            }
            if (res == Result.FAILED) {
                if ((lvSenders() & CLOSED_BIT) != 0 && isClosedForReceive()) {
                    return lvCloseReason();
                }
                continue;
            }
            if (res == Result.CLOSED) {
                return lvCloseReason();
            }
            return res == Result.NO_WAITER ? null : res; // INSTALLED, HELPED: a select's
        }
    }

    /**
     * Processes cell {@code i} of {@code seg} for the receiver of cell {@code r}: the fast path (a
     * buffered value); the rest is in {@link CellUpdates#updateCellReceiveSlow}.
     *
     * @return the received value, or a {@link Result}
     */
    private Object updateCellReceive(Segment seg, int i, long r, Object waiter, SelectOp self) {
        if (seg.lvState(i) == BUFFERED) {
            return CellUpdates.takeBuffered(this, seg, i);
        }
        return CellUpdates.updateCellReceiveSlow(this, seg, i, r, waiter, self);
    }

    // ---- closing ------------------------------------------------------------------------------

    @Override
    public void done() {
        Object r = doneOrClosed();
        if (r != null) {
            throw ((ChannelClosed) r).toException();
        }
    }

    @Override
    public Object doneOrClosed() {
        return Closing.close(this, new ChannelDone(this));
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
        return Closing.close(this, new ChannelError(reason, this));
    }

    @Override
    public boolean isClosedForSend() {
        return closedBitsSet();
    }

    @Override
    public boolean isClosedForReceive() {
        return Closing.isClosedForReceive(this);
    }

    @Override
    public ChannelClosed closedForSend() {
        return isClosedForSend() ? lvCloseReason() : null;
    }

    @Override
    public ChannelClosed closedForReceive() {
        return isClosedForReceive() ? lvCloseReason() : null;
    }

    // ---- select -------------------------------------------------------------------------------

    /** {@inheritDoc} The same clause every time, so a select loop allocates none for it. */
    @Override
    public SelectClause<T> receiveClause() {
        return receiveClause;
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

    /**
     * Registers clause {@code k} of {@code op} (LOCKED by the current thread) in this channel, or
     * completes it right away.
     *
     * @return {@link Result#INSTALLED}, {@link Result#HELPED}, {@link Result#DONE} (the send
     *     clause completed), a {@link ChannelClosed}, or the received value
     */
    Object register(SelectOp op, int k, boolean send, Object value) {
        try {
            return send ? doSend(value, -1L, op, k) : doReceive(-1L, op, k);
        } catch (InterruptedException e) {
            throw new AssertionError("registering a select clause never waits", e);
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

    // ---- misc ---------------------------------------------------------------------------------

    /**
     * Dumps the counters and the cell states of the reachable segments (at most 16), for
     * debugging the channel itself. For logs, use {@link #toString()}.
     *
     * @return a multi-line description of the channel's internal state
     */
    public String dumpCells() {
        return Descriptions.dumpCells(this);
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
        return Descriptions.line(this);
    }
}
