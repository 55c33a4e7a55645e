package dev.weft.channels;

import java.time.Duration;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/*
 * Maintainer note (not javadoc): the algorithm (registration in every clause's channel,
 * rendezvous by CAS on the select's state, select-to-select rendezvous through descriptors in a
 * global order of select ids) is described in the internal classes SelectOp (the state machine),
 * SelectRegistration (the owner's side) and SelectMeeting (everybody else meeting a registration).
 */
/**
 * Go-style {@code select}: waits until exactly one of several clauses (receive from a channel,
 * send to a channel) completes, and returns that clause's result.
 *
 * <p>The clauses must be on different channels. A {@link #defaultClause(Object) default clause},
 * if any, must be last: it is selected when no other clause can complete right away. {@code
 * select} is biased: when several clauses can complete at once, the first one listed wins; {@link
 * #selectUnbiased(SelectClause[])} picks uniformly at random among them instead. The bias is
 * judged as the select registers its clauses, in order: a value that reaches an earlier clause's
 * channel while the select is still registering later ones does not wait for it (that send or
 * receive refuses the registration and completes elsewhere, as in jox and kotlinx.coroutines),
 * so a later clause that completes during that registration can win over it; the value stays in
 * its channel. The first clause (in registration order) of a select with one or two clauses is
 * tried before anything is registered, as a try-operation, so a select that can complete on it
 * allocates no registration; like a try-operation, that try does not wait for another select
 * that is still registering (its offer is not final yet), and the select then registers and
 * waits for it as usual. A close is not passed over that way: a close that meets the
 * registration of an earlier clause waits until the select stops registering and then, if it
 * waits, completes it with the close, and a registration refused before the close is registered
 * again (and finds the close) before the next clause is registered; a later clause that was ready
 * before the close returned may still win. One gap remains for a select that registers, and a
 * select with a default clause has another (see {@link CloseableChannel}). Exactly one clause
 * completes: every other registration is withdrawn and can neither receive nor deliver later.
 *
 * <p>A select waits without a helper thread, also with a timeout, and is atomic with respect to
 * interruption: when it throws {@link InterruptedException}, no clause completed.
 */
public final class Select {
    private Select() {}

    /** Returned by {@code run} on timeout when the caller gave no value of its own. */
    private static final Object TIMEOUT = new Object();

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
        Object r = run(clauses, true, Waiting.timeoutNanos(timeout), TIMEOUT, true);
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
        return run(clauses, true, Waiting.timeoutNanos(timeout), timeoutValue, false);
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

    // Two-clause overloads: javac binds a call with two clauses to these (fixed arity wins over
    // varargs), so the caller allocates no array, whether or not the JIT would have removed it.

    /**
     * {@link #select(SelectClause[])} of two clauses, with no varargs array.
     *
     * @param first the first clause (preferred when both are ready)
     * @param second the second clause, on another channel; may be a default clause
     * @param <U> the result type
     * @return the selected clause's result
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws ChannelClosedException when a clause's channel is closed
     * @throws IllegalArgumentException on invalid clauses, as for the varargs form
     */
    public static <U> U select(SelectClause<? extends U> first, SelectClause<? extends U> second)
            throws InterruptedException {
        return cast(runSmall(first, second, 2, true, -1L, TIMEOUT, true));
    }

    /**
     * {@link #selectOrClosed(SelectClause[])} of two clauses, with no varargs array.
     *
     * @param first the first clause (preferred when both are ready)
     * @param second the second clause, on another channel; may be a default clause
     * @param <U> the result type
     * @return the selected clause's result, or a {@link ChannelClosed}
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws IllegalArgumentException on invalid clauses, as for the varargs form
     */
    public static <U> Object selectOrClosed(SelectClause<? extends U> first, SelectClause<? extends U> second)
            throws InterruptedException {
        return runSmall(first, second, 2, true, -1L, TIMEOUT, false);
    }

    /**
     * {@link #selectWithin(Duration, SelectClause[])} of two clauses, with no varargs array.
     *
     * @param timeout how long to wait; not {@code null}, not negative
     * @param first the first clause (preferred when both are ready)
     * @param second the second clause, on another channel; may be a default clause
     * @param <U> the result type
     * @return the selected clause's result
     * @throws TimeoutException when the timeout elapsed first
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws ChannelClosedException when a clause's channel is closed
     * @throws IllegalArgumentException on invalid clauses or a negative timeout
     */
    public static <U> U selectWithin(Duration timeout, SelectClause<? extends U> first,
            SelectClause<? extends U> second) throws InterruptedException, TimeoutException {
        Object r = runSmall(first, second, 2, true, Waiting.timeoutNanos(timeout), TIMEOUT, true);
        if (r == TIMEOUT) {
            throw new TimeoutException("select timed out after " + timeout);
        }
        return cast(r);
    }

    /**
     * {@link #selectOrClosedWithin(Duration, Object, SelectClause[])} of two clauses, with no
     * varargs array.
     *
     * @param timeout how long to wait; not {@code null}, not negative
     * @param timeoutValue returned on timeout
     * @param first the first clause (preferred when both are ready)
     * @param second the second clause, on another channel; may be a default clause
     * @param <U> the result type
     * @return the selected clause's result, {@code timeoutValue}, or a {@link ChannelClosed}
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws IllegalArgumentException on invalid clauses or a negative timeout
     */
    public static <U> Object selectOrClosedWithin(Duration timeout, U timeoutValue,
            SelectClause<? extends U> first, SelectClause<? extends U> second) throws InterruptedException {
        return runSmall(first, second, 2, true, Waiting.timeoutNanos(timeout), timeoutValue, false);
    }

    /**
     * {@link #selectUnbiased(SelectClause[])} of two clauses, with no varargs array.
     *
     * @param first a clause
     * @param second another clause, on another channel; may be a default clause
     * @param <U> the result type
     * @return the selected clause's result
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws ChannelClosedException when a clause's channel is closed
     * @throws IllegalArgumentException on invalid clauses, as for the varargs form
     */
    public static <U> U selectUnbiased(SelectClause<? extends U> first, SelectClause<? extends U> second)
            throws InterruptedException {
        return cast(runSmall(first, second, 2, false, -1L, TIMEOUT, true));
    }

    /**
     * {@link #selectUnbiasedOrClosed(SelectClause[])} of two clauses, with no varargs array.
     *
     * @param first a clause
     * @param second another clause, on another channel; may be a default clause
     * @param <U> the result type
     * @return the selected clause's result, or a {@link ChannelClosed}
     * @throws InterruptedException when interrupted while waiting; no clause completed
     * @throws IllegalArgumentException on invalid clauses, as for the varargs form
     */
    public static <U> Object selectUnbiasedOrClosed(SelectClause<? extends U> first,
            SelectClause<? extends U> second) throws InterruptedException {
        return runSmall(first, second, 2, false, -1L, TIMEOUT, false);
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

    /**
     * Checks the first {@code n >= 1} entries of {@code clauses}, the select's private copy (so a
     * caller that changes its array meanwhile cannot get an invalid select past this): not null,
     * a default clause only last, no two on one channel.
     */
    private static void validate(Object[] clauses, int n) {
        Map<Channel<?>, Boolean> seen = n > 8 ? new IdentityHashMap<>() : null;
        for (int k = 0; k < n; k++) {
            if (!(clauses[k] instanceof SelectClause<?> c)) {
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
                    if (((SelectClause<?>) clauses[j]).channel() == ch) {
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
     *
     * <p>Kept small, so that the JIT can inline it into {@code select}: with one or two clauses
     * it reads each entry of the caller's array once and hands on only those reads, so the array
     * does not escape, and where the JIT also inlines {@code select} into the caller (a heuristic,
     * not a guarantee: in the select benchmark, after about 1.7 s) it removes the varargs array.
     */
    private static Object run(
            SelectClause<?>[] given, boolean biased, long timeout, Object onTimeout, boolean throwIfClosed)
            throws InterruptedException {
        int n = given == null ? 0 : given.length;
        if (n == 2) {
            return runSmall(given[0], given[1], 2, biased, timeout, onTimeout, throwIfClosed);
        }
        if (n == 1) {
            return runSmall(given[0], null, 1, biased, timeout, onTimeout, throwIfClosed);
        }
        if (n == 0) {
            throw new IllegalArgumentException("select needs at least one clause");
        }
        // one private copy, checked and then used: other threads read a select's clauses
        // (SelectOp.clauseIndexOf), so a caller changing its array meanwhile must not affect
        // them; the rest holds where the clauses are and their cell entries (SelectOp)
        Object[] copy = Arrays.copyOf(given, 2 * n + 1, Object[].class);
        return register(copy, n, order(n, biased), biased, timeout, onTimeout, throwIfClosed);
    }

    /**
     * A select of one ({@code c1} unused) or two clauses, each read once (from the caller's array,
     * or given to a two-clause overload):
     * {@link #tryFirst}, then, when those reads are valid clauses on one or two channels, a
     * {@link SelectOp} that holds them in fields. Anything else (a null, a default clause, one
     * channel twice) goes to {@link #register}'s array path, which throws or runs the default.
     */
    private static Object runSmall(SelectClause<?> c0, SelectClause<?> c1, int n, boolean biased,
            long timeout, Object onTimeout, boolean throwIfClosed) throws InterruptedException {
        int[] order = order(n, biased);
        Object r = tryFirst(c0, c1, n, order, throwIfClosed);
        if (r != NOT_READY) {
            return r;
        }
        if (!onChannels(c0, c1, n)) {
            Object[] copy = n == 1 ? new Object[] {c0, null, null} : new Object[] {c0, c1, null, null, null};
            return register(copy, n, order, biased, timeout, onTimeout, throwIfClosed);
        }
        ChannelError e = firstError(c0, c1, n);
        if (e != null) {
            return closed(e, throwIfClosed); // checked again, as register does for its copy
        }
        return await(new SelectOp(c0, n == 2 ? c1 : null), order, timeout, onTimeout, throwIfClosed);
    }

    /**
     * Whether {@code c0} (and {@code c1} when {@code n == 2}) are clauses on channels: none null,
     * no default clause, two different channels. Such a select needs no other check.
     */
    private static boolean onChannels(SelectClause<?> c0, SelectClause<?> c1, int n) {
        if (c0 == null || c0.channel() == null) {
            return false;
        }
        return n == 1 || (c1 != null && c1.channel() != null && c1.channel() != c0.channel());
    }

    /** The error of {@code c0}'s channel, else of {@code c1}'s when {@code n == 2}, or null. */
    private static ChannelError firstError(SelectClause<?> c0, SelectClause<?> c1, int n) {
        ChannelError e = c0.channel().errorIfAny();
        return e == null && n == 2 ? c1.channel().errorIfAny() : e;
    }

    /**
     * Checks the select's private copy ({@code n} clauses, then room for where they are and
     * their cell entries), then registers its clauses in {@code order} and waits, or runs it
     * as a select with a default.
     */
    private static Object register(Object[] copy, int n, int[] order, boolean biased, long timeout,
            Object onTimeout, boolean throwIfClosed) throws InterruptedException {
        validate(copy, n);
        ChannelError e = firstError(copy, n);
        if (e != null) {
            return closed(e, throwIfClosed); // as in jox: a channel in error wins over any clause
        }
        if (((SelectClause<?>) copy[n - 1]).channel() == null) {
            return runWithDefault(copy, n, order(n - 1, biased), throwIfClosed);
        }
        return await(new SelectOp(copy, n), order, timeout, onTimeout, throwIfClosed);
    }

    /**
     * Registers the clauses of the checked select {@code op} in {@code order}, waits for one to
     * complete (or for a close, an interrupt or the timeout), withdraws the others and returns the
     * outcome.
     */
    private static Object await(SelectOp op, int[] order, long timeout, Object onTimeout, boolean throwIfClosed)
            throws InterruptedException {
        int n = op.clauseCount();
        Object st = null;
        try {
            for (int j = 0; j < n && st == null; j++) {
                if (j > 0 && op.takeReregisterRequest()) {
                    // an operation refused an earlier clause (and its channel may have been closed
                    // since): register it again before a later clause can complete
                    st = SelectRegistration.reregister(op, order);
                    if (st != null) {
                        break;
                    }
                }
                st = SelectRegistration.registerClause(op, order == null ? j : order[j]);
                Faults.at(Faults.SELECT_REGISTERED);
            }
            if (st == null) {
                st = SelectRegistration.awaitObserved(op, timeout, order);
            }
        } catch (Throwable t) {
            SelectRegistration.abort(op);
            throw t;
        }
        if (st == Result.INTERRUPTED || st == SelectOp.CANCELLED) {
            SelectRegistration.cleanup(op, -1);
            if (st == Result.INTERRUPTED) {
                throw new InterruptedException();
            }
            return onTimeout;
        }
        if (st instanceof SelectOp.ClosedSel c) {
            SelectRegistration.cleanup(op, c.k());
            return closed(c.reason(), throwIfClosed);
        }
        int k = ((SelectOp.Selected) st).k();
        SelectRegistration.cleanup(op, k);
        SelectClause<?> clause = op.clause(k);
        Object raw = clause.isSend() ? null : SelectRegistration.takeValue(op, k);
        // other registrations are withdrawn already: a callback that throws loses only this value
        return clause.result(raw);
    }

    /**
     * The select's outcome when the first clause in registration order (clause 0, or {@code
     * order[0]}) completes at once as a try-operation, with no {@link SelectOp}; otherwise {@link
     * #NOT_READY}, and the caller registers.
     * Nothing was registered before that clause, so nothing can be passed over (the bias of the
     * class comment), and the try does what registering the clause would do, except that a
     * registering select it meets is refused (asked to register again) instead of waited for, as
     * by any try-operation.
     *
     * <p>Only for one or two clauses ({@code c1} is unused for one): each entry of the caller's
     * array was read once ({@link #run}, then {@link #runSmall}), the select is checked and run on
     * those reads, and the {@link SelectOp} made after it holds the same reads, so a caller that
     * changes its array meanwhile gets the select of one state of each entry. An invalid select
     * or one with a default clause goes to the copy's path, which throws or runs it.
     */
    private static Object tryFirst(
            SelectClause<?> c0, SelectClause<?> c1, int n, int[] order, boolean throwIfClosed) {
        if (!onChannels(c0, c1, n)) {
            return NOT_READY;
        }
        ChannelError e = firstError(c0, c1, n);
        if (e != null) {
            return closed(e, throwIfClosed); // as in jox: a channel in error wins over any clause
        }
        SelectClause<?> first = order == null || order[0] == 0 ? c0 : c1;
        Object r = tryClause(first);
        return r == NOT_READY ? NOT_READY : finish(first, r, throwIfClosed);
    }

    /** The error of the first of clauses {@code [0, n)} whose channel is in error, or null. */
    private static ChannelError firstError(Object[] clauses, int n) {
        for (int k = 0; k < n; k++) {
            Channel<?> ch = ((SelectClause<?>) clauses[k]).channel();
            ChannelError e = ch == null ? null : ch.errorIfAny(); // null: the default clause
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    /** What {@link #tryClause} returns when the clause cannot complete at once. */
    private static final Object NOT_READY = new Object();

    /**
     * Completes clause {@code c} (not the default) if it can complete at once, as a
     * try-operation: returns the received value, {@code null} for a completed send, the channel's
     * close reason (its close signal), or {@link #NOT_READY}.
     */
    private static Object tryClause(SelectClause<?> c) {
        if (c.isSend()) {
            Object r = c.channel().trySendRaw(c.sendValue());
            return r == Sink.NOT_SENT ? NOT_READY : r;
        }
        Object r = c.channel().tryReceiveOrClosed();
        return r == null ? NOT_READY : r;
    }

    /** The select's outcome after clause {@code c}'s try-operation returned {@code r}. */
    private static Object finish(SelectClause<?> c, Object r, boolean throwIfClosed) {
        if (r != null && c.channel().isCloseSignal(r)) {
            return closed((ChannelClosed) r, throwIfClosed);
        }
        return c.result(r);
    }

    /** A select whose clause {@code count - 1} is the default: try-operations in order, no wait. */
    private static Object runWithDefault(Object[] clauses, int count, int[] order, boolean throwIfClosed) {
        int n = count - 1;
        for (int j = 0; j < n; j++) {
            SelectClause<?> c = (SelectClause<?>) clauses[order == null ? j : order[j]];
            Object r = tryClause(c);
            if (r != NOT_READY) {
                return finish(c, r, throwIfClosed);
            }
        }
        return ((SelectClause<?>) clauses[n]).result(null);
    }
}
