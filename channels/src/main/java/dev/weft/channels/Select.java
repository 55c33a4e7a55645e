package dev.weft.channels;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/*
 * Maintainer note (not javadoc): the algorithm (registration in every clause's channel,
 * rendezvous by CAS on the select's state, select-to-select rendezvous through descriptors in a
 * global order of select ids) is described in the internal SelectOp class.
 */
/**
 * Go-style {@code select}: waits until exactly one of several clauses (receive from a channel,
 * send to a channel) completes, and returns that clause's result.
 *
 * <p>The clauses must be on different channels. A {@link #defaultClause(Object) default clause},
 * if any, must be last: it is selected when no other clause can complete right away. {@code
 * select} is biased: when several clauses can complete at once, the first one listed wins; {@link
 * #selectUnbiased(SelectClause[])} picks uniformly at random among them instead. Exactly one clause
 * completes: every other registration is withdrawn and can neither receive nor deliver later.
 *
 * <p>A select waits without a helper thread, also with a timeout, and is atomic with respect to
 * interruption: when it throws {@link InterruptedException}, no clause completed.
 */
public final class Select {
    private Select() {}

    private static final Object TIMEOUT = new Object();
    /** Returned by {@link #await} when the select was cancelled because of an interrupt. */
    private static final Object INTERRUPTED = new Object();

    /**
     * Waits until one of the clauses completes and returns its result.
     *
     * @param clauses the clauses, on different channels; a default clause may come last
     * @param <U> the result type
     * @return the selected clause's result
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws ChannelClosedException when a clause's channel is closed (in error, or done for a
     *     send clause, or done and drained for a receive clause)
     * @throws IllegalArgumentException when there are no clauses, a clause is {@code null}, two
     *     clauses share a channel, or a default clause is not last
     */
    @SafeVarargs
    public static <U> U select(SelectClause<? extends U>... clauses) throws InterruptedException {
        return cast(run(clauses, true, -1L, TIMEOUT, true));
    }

    /**
     * Like {@link #select(SelectClause[])}, but returns a {@link ChannelClosed} instead of
     * throwing when a clause's channel is closed.
     *
     * @param clauses the clauses, on different channels; a default clause may come last
     * @param <U> the result type
     * @return the selected clause's result, or a {@link ChannelClosed}
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws IllegalArgumentException on invalid clauses, as for {@code select}
     */
    @SafeVarargs
    public static <U> Object selectOrClosed(SelectClause<? extends U>... clauses)
            throws InterruptedException {
        return run(clauses, true, -1L, TIMEOUT, false);
    }

    /**
     * Like {@link #select(SelectClause[])}, but gives up after {@code timeout}; then no clause
     * completed. The timeout is a deadline inside the waiting select (no helper thread), and the
     * select never gives up before it.
     *
     * @param timeout how long to wait; not {@code null}, not negative
     * @param clauses the clauses, on different channels; a default clause may come last
     * @param <U> the result type
     * @return the selected clause's result
     * @throws TimeoutException when the timeout elapsed first
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws ChannelClosedException when a clause's channel is closed
     * @throws IllegalArgumentException on invalid clauses or a negative timeout
     */
    @SafeVarargs
    public static <U> U selectWithin(Duration timeout, SelectClause<? extends U>... clauses)
            throws InterruptedException, TimeoutException {
        Object r = run(clauses, true, Channel.timeoutNanos(timeout), TIMEOUT, true);
        if (r == TIMEOUT) {
            throw new TimeoutException("select timed out after " + timeout);
        }
        return cast(r);
    }

    /**
     * Like {@link #selectOrClosed(SelectClause[])}, but returns {@code timeoutValue} when {@code
     * timeout} elapses first; then no clause completed.
     *
     * @param timeout how long to wait; not {@code null}, not negative
     * @param timeoutValue returned on timeout
     * @param clauses the clauses, on different channels; a default clause may come last
     * @param <U> the result type
     * @return the selected clause's result, {@code timeoutValue}, or a {@link ChannelClosed}
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws IllegalArgumentException on invalid clauses or a negative timeout
     */
    @SafeVarargs
    public static <U> Object selectOrClosedWithin(
            Duration timeout, U timeoutValue, SelectClause<? extends U>... clauses)
            throws InterruptedException {
        return run(clauses, true, Channel.timeoutNanos(timeout), timeoutValue, false);
    }

    /**
     * Like {@link #select(SelectClause[])}, but unbiased: when several clauses can complete at
     * once, each is picked with equal probability (Go's semantics; Kotlin's {@code
     * selectUnbiased}). A default clause is still only picked when no other clause is ready.
     *
     * @param clauses the clauses, on different channels; a default clause may come last
     * @param <U> the result type
     * @return the selected clause's result
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws ChannelClosedException when a clause's channel is closed
     * @throws IllegalArgumentException on invalid clauses, as for {@code select}
     */
    @SafeVarargs
    public static <U> U selectUnbiased(SelectClause<? extends U>... clauses)
            throws InterruptedException {
        return cast(run(clauses, false, -1L, TIMEOUT, true));
    }

    /**
     * Like {@link #selectUnbiased(SelectClause[])}, but returns a {@link ChannelClosed} instead
     * of throwing.
     *
     * @param clauses the clauses, on different channels; a default clause may come last
     * @param <U> the result type
     * @return the selected clause's result, or a {@link ChannelClosed}
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws IllegalArgumentException on invalid clauses, as for {@code select}
     */
    @SafeVarargs
    public static <U> Object selectUnbiasedOrClosed(SelectClause<? extends U>... clauses)
            throws InterruptedException {
        return run(clauses, false, -1L, TIMEOUT, false);
    }

    /**
     * A clause selected when no other clause can complete right away; it returns {@code value}.
     * It must be the last clause.
     *
     * @param value the result, may be {@code null}
     * @param <T> the result type
     * @return a new clause
     */
    public static <T> SelectClause<T> defaultClause(T value) {
        return new SelectClause.Default<>(() -> value);
    }

    /**
     * A clause selected when no other clause can complete right away; it returns what {@code
     * callback} supplies. It must be the last clause.
     *
     * @param callback called on the selecting thread when the default is selected
     * @param <T> the result type
     * @return a new clause
     */
    public static <T> SelectClause<T> defaultClause(Supplier<T> callback) {
        Objects.requireNonNull(callback, "callback");
        return new SelectClause.Default<>(callback);
    }

    /**
     * A default clause that returns {@code null}.
     *
     * @param <T> the result type
     * @return a new clause
     */
    public static <T> SelectClause<T> defaultClauseNull() {
        return new SelectClause.Default<>(() -> null);
    }

    // ---------------------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    private static <U> U cast(Object r) {
        return (U) r;
    }

    /** A channel's close reason: thrown when the select throws on closed channels, else returned. */
    private static Object closed(ChannelClosed c, boolean throwIfClosed) {
        if (throwIfClosed) {
            throw c.toException();
        }
        return c;
    }

    private static void validate(SelectClause<?>[] clauses) {
        if (clauses == null || clauses.length == 0) {
            throw new IllegalArgumentException("select needs at least one clause");
        }
        int n = clauses.length;
        Map<Channel<?>, Boolean> seen = n > 8 ? new IdentityHashMap<>() : null;
        for (int k = 0; k < n; k++) {
            SelectClause<?> c = clauses[k];
            if (c == null) {
                throw new IllegalArgumentException("select clause " + k + " is null");
            }
            Channel<?> ch = c.channel();
            if (ch == null) {
                if (k != n - 1) {
                    throw new IllegalArgumentException("a default clause must be the last clause");
                }
                continue;
            }
            boolean dup;
            if (seen != null) {
                dup = seen.put(ch, Boolean.TRUE) != null;
            } else {
                dup = false;
                for (int j = 0; j < k; j++) {
                    if (clauses[j].channel() == ch) {
                        dup = true;
                        break;
                    }
                }
            }
            if (dup) {
                throw new IllegalArgumentException(
                        "two clauses of one select are on the same channel: " + ch);
            }
        }
    }

    /** Registration order: clause order when biased, a uniform random permutation otherwise. */
    private static int[] order(int n, boolean biased) {
        if (biased) {
            return null;
        }
        int[] o = new int[n];
        for (int k = 0; k < n; k++) {
            o[k] = k;
        }
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        for (int k = n - 1; k > 0; k--) {
            int j = rnd.nextInt(k + 1);
            int t = o[k];
            o[k] = o[j];
            o[j] = t;
        }
        return o;
    }

    /**
     * Runs a select. A clause's result is returned as it is, even when it is a {@link
     * ChannelClosed} object (a value received from a channel); a closed channel is reported by
     * throwing ({@code throwIfClosed}) or by returning its close reason.
     */
    private static Object run(
            SelectClause<?>[] given, boolean biased, long timeout, Object onTimeout, boolean throwIfClosed)
            throws InterruptedException {
        validate(given);
        // a private copy: other threads read the clauses (SelectOp.clauseIndexOf), so a caller
        // changing its array meanwhile must not affect them
        SelectClause<?>[] clauses = given.clone();
        int n = clauses.length;
        // as in jox: a channel in error wins over any clause, even one that is ready
        for (SelectClause<?> c : clauses) {
            Channel<?> ch = c.channel();
            if (ch != null) {
                ChannelClosed e = ch.errorIfAny();
                if (e != null) {
                    return closed(e, throwIfClosed);
                }
            }
        }
        if (clauses[n - 1].channel() == null) {
            return runWithDefault(clauses, order(n - 1, biased), throwIfClosed);
        }
        SelectOp op = new SelectOp(clauses);
        int[] order = order(n, biased);
        Object st = null;
        try {
            for (int j = 0; j < n && st == null; j++) {
                st = registerClause(op, order == null ? j : order[j]);
                Faults.at(Faults.SELECT_REGISTERED);
            }
            if (st == null) {
                st = awaitObserved(op, timeout);
            }
        } catch (Throwable t) {
            abort(op);
            throw t;
        }
        if (st == INTERRUPTED || st == SelectOp.CANCELLED) {
            cleanup(op, -1);
            if (st == INTERRUPTED) {
                throw new InterruptedException();
            }
            return onTimeout;
        }
        if (st instanceof SelectOp.ClosedSel c) {
            cleanup(op, c.k);
            return closed(c.reason, throwIfClosed);
        }
        int k = ((SelectOp.Selected) st).k;
        cleanup(op, k);
        SelectClause<?> clause = clauses[k];
        Object raw = null;
        if (!clause.isSend()) {
            if (op.value != null) {
                raw = op.value;
            } else {
                raw = Channel.takeElement(op.segs[k], op.idx[k]);
                op.segs[k].cleanPrev(); // a completed receive: earlier segments are done with
            }
        }
        // other registrations are withdrawn already: a callback that throws loses only this value
        return clause.result(raw);
    }

    /**
     * After a {@link Throwable} (an {@link Error} such as {@link StackOverflowError} or {@link
     * OutOfMemoryError}) escaped registration or waiting: stop registering, so nobody waits for
     * this select, and withdraw every registration. If a partner completed the select
     * concurrently, that clause's outcome is lost with the error.
     */
    private static void abort(SelectOp op) {
        while (true) {
            Object s = op.state();
            if (SelectOp.isTerminal(s)) {
                break;
            }
            if (s == SelectOp.LOCKED) {
                op.setState(SelectOp.CANCELLED); // owner-only state
                break;
            }
            if (op.casState(s, SelectOp.CANCELLED)) { // WAITING or Pending: a partner may race
                op.wakeLockWaiters();
                break;
            }
        }
        cleanup(op, -1);
    }

    /**
     * Registers clause {@code k} (op is LOCKED); returns {@code null} when registered, otherwise
     * the terminal state op reached.
     */
    private static Object registerClause(SelectOp op, int k) {
        SelectClause<?> c = op.clauses[k];
        Object r = c.channel().register(op, k, c.isSend(), c.sendValue());
        if (r == Channel.REG_INSTALLED) {
            op.registered[k] = true;
            return null;
        }
        Object st;
        if (r == Channel.REG_HELPED) {
            op.wakeLockWaiters(); // the helper already did; harmless again
            return op.state();
        } else if (r == Channel.REG_SENT) {
            st = SelectOp.selected(k);
        } else if (c.channel().isCloseSignal(r)) {
            // identity, not type: a received value may itself be a ChannelClosed object
            st = new SelectOp.ClosedSel(k, (ChannelClosed) r);
        } else {
            op.value = r;
            st = SelectOp.selected(k);
        }
        op.setState(st);
        return st;
    }

    /**
     * Parks until op is completed, cancelling it on interrupt (the flag stays set for the caller)
     * or timeout; registers again the clauses that another select refused.
     */
    private static Object await(SelectOp op, long timeout) {
        long deadline = timeout > 0 ? Waiting.deadline(timeout) : 0L;
        boolean interrupted = false;
        Waiting.Spin spin = op.clauses[0].channel().spinPolicy();
        int budget = spin.budget(op.owner);
        int spins = 0;
        op.setState(SelectOp.WAITING);
        try {
            while (true) {
                Object st = op.state();
                if (SelectOp.isTerminal(st)) {
                    if (budget > 0) {
                        spin.record(op.owner, spins < budget, spins);
                    }
                    return st;
                }
                if (op.takeReregisterRequest()) {
                    if (op.casState(SelectOp.WAITING, SelectOp.LOCKED)) {
                        Object r = reregister(op);
                        if (r != null) {
                            return r;
                        }
                        op.setState(SelectOp.WAITING);
                    }
                    continue;
                }
                if (spins < budget) {
                    spins++;
                    if ((spins & 15) != 0) {
                        Thread.onSpinWait();
                        continue;
                    }
                }
                // a zero timeout never waits, so, like every operation that does not wait, it
                // leaves the interrupt flag alone
                boolean cancel = false;
                boolean byInterrupt = false;
                if (timeout == 0L || (deadline != 0L && deadline - System.nanoTime() <= 0L)) {
                    cancel = true;
                } else if (Thread.interrupted()) {
                    interrupted = true;
                    cancel = true;
                    byInterrupt = true;
                }
                if (cancel) {
                    if (op.casState(SelectOp.WAITING, SelectOp.CANCELLED)) {
                        if (byInterrupt) {
                            interrupted = false; // reported as InterruptedException instead
                            return INTERRUPTED;
                        }
                        return SelectOp.CANCELLED;
                    }
                    continue; // a partner completed it first
                }
                if (spins < budget) {
                    Thread.onSpinWait();
                } else if (deadline == 0L) {
                    LockSupport.park(op);
                } else {
                    LockSupport.parkNanos(op, deadline - System.nanoTime());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Registers again every clause whose registration was refused (op is LOCKED). */
    private static Object reregister(SelectOp op) {
        for (int k = 0; k < op.clauses.length; k++) {
            if (!op.registered[k]) {
                continue;
            }
            Segment seg = op.segs[k];
            int i = op.idx[k];
            int step = 0;
            Object st;
            while ((st = seg.state(i)) == Cells.CLAIMED) {
                step = Waiting.backoff(step); // the holder restores it: we are LOCKED
            }
            if (Cells.unwrap(st) == op) {
                continue;
            }
            op.registered[k] = false;
            Object r = registerClause(op, k);
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    /** Withdraws every registration but clause {@code selected}'s. */
    private static void cleanup(SelectOp op, int selected) {
        for (int k = 0; k < op.clauses.length; k++) {
            if (op.registered[k] && k != selected) {
                op.clauses[k].channel().withdraw(op, op.segs[k], op.idx[k], op.clauses[k].isSend());
            }
        }
    }

    private static Object runWithDefault(SelectClause<?>[] clauses, int[] order, boolean throwIfClosed) {
        int n = clauses.length - 1;
        for (int j = 0; j < n; j++) {
            SelectClause<?> c = clauses[order == null ? j : order[j]];
            Object r;
            if (c.isSend()) {
                r = c.channel().trySendRaw(c.sendValue());
                if (r == null) {
                    return c.result(null);
                }
            } else {
                r = c.channel().tryReceiveOrClosed();
                if (r != null && !c.channel().isCloseSignal(r)) {
                    return c.result(r);
                }
            }
            if (r != null && c.channel().isCloseSignal(r)) {
                return closed((ChannelClosed) r, throwIfClosed);
            }
        }
        return clauses[n].result(null);
    }

    /** {@link #await}, recording a JFR {@code dev.weft.SelectWait} event when enabled. */
    private static Object awaitObserved(SelectOp op, long timeout) {
        Object event = WaitEvents.beginSelectWait();
        if (event == null) {
            return await(op, timeout);
        }
        Object st = await(op, timeout);
        if (st == INTERRUPTED) {
            WaitEvents.endSelectWait(event, op, -1, WaitEvents.INTERRUPT);
        } else if (st == SelectOp.CANCELLED) {
            WaitEvents.endSelectWait(event, op, -1, WaitEvents.TIMEOUT);
        } else if (st instanceof SelectOp.ClosedSel c) {
            WaitEvents.endSelectWait(event, op, c.k, WaitEvents.CLOSE);
        } else if (st instanceof SelectOp.Selected sel) {
            WaitEvents.endSelectWait(event, op, sel.k, WaitEvents.RENDEZVOUS);
        }
        return st;
    }
}
